"""The journal's entries: one typed value per accepted input of a game, and their one codec.

An entry is what the table journals before it shows an input as taken, and what a
restart replays; `Game.advance` (firmware_py.game) takes them, live and in replay
alike. Each is stored as one JSON object (docs/table.md, "The journal"):

- `Act`: `{"t": "action", "action": MOVE}`, a move of the game record (play, draw,
  pass, reveal);
- `Lead`: `{"t": "lead", "seat": S}`, seat S leads the round being set up;
- `Dealt`: `{"t": "dealt", "seat": S, "tile": "A-B"}`, tracked hands: S took that tile
  in the deal;
- `Drawing`: `{"t": "drawing", "seat": S}`, tracked hands: S pressed DRAW and owes the
  drawn tile;
- `Shown`: `{"t": "shown", "seat": S, "tile": "A-B"}`, open hands: S tapped a leftover
  tile (tapping it again takes it back);
- `Next`: `{"t": "next"}`, the round summary was dismissed;
- `Hunt`: `{"t": "hunt", "seat": S}`, open hands under `engine: holder`: S drew for the
  engine;
- `Holder`: `{"t": "holder", "seat": S}`, S tapped the engine on its own pad: S lays it
  and leads;
- `Undo`: `{"t": "undo"}` (with `"by": S` when seat S held PASS), the entry before it
  is void.

Seats are the game's (0..players-1). A stored entry that is not one of these is a
`BadEntry`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.rules import Action, RulesError, Tile, action_from_json, action_to_json
from roundhouse.errors import RoundhouseError
from roundhouse.value import Value


class BadEntry(RoundhouseError):
    """A journal entry that is not one the table writes."""


class Act(Value):
    """A move of the game record: a play, a draw, a pass or a reveal."""

    __match_args__ = ("action",)
    __slots__ = __match_args__
    action: Action

    def __init__(self, action: Action) -> None:
        object.__setattr__(self, "action", action)


class Lead(Value):
    """The seat that leads the round being set up."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


class Dealt(Value):
    """Tracked hands: a seat took that tile in the deal."""

    __match_args__ = ("seat", "tile")
    __slots__ = __match_args__
    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)


class Drawing(Value):
    """Tracked hands: a seat pressed DRAW and owes the drawn tile."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


class Shown(Value):
    """Open hands: a seat tapped a leftover tile (again: takes it back)."""

    __match_args__ = ("seat", "tile")
    __slots__ = __match_args__
    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)


class Next(Value):
    """The round summary was dismissed."""

    __slots__ = ()


class Hunt(Value):
    """Open hands under `engine: holder`: a seat drew for the engine."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


class Holder(Value):
    """A seat tapped the engine on its own pad: it lays it and leads."""

    __match_args__ = ("seat",)
    __slots__ = __match_args__
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


class Undo(Value):
    """The entry before this one is void (`by`: the seat that held PASS)."""

    __match_args__ = ("by",)
    __slots__ = __match_args__
    by: int | None

    def __init__(self, by: int | None = None) -> None:
        object.__setattr__(self, "by", by)


Entry = Act | Lead | Dealt | Drawing | Shown | Next | Hunt | Holder | Undo
# The entries that move a game on (an Undo takes one back).
Step = Act | Lead | Dealt | Drawing | Shown | Next | Hunt | Holder

_SEATED: dict[str, type[Lead | Drawing | Hunt | Holder]] = {
    "lead": Lead, "drawing": Drawing, "hunt": Hunt, "holder": Holder,
}
_NAMES: dict[type[Entry], str] = {
    Act: "action", Lead: "lead", Dealt: "dealt", Drawing: "drawing", Shown: "shown",
    Next: "next", Hunt: "hunt", Holder: "holder", Undo: "undo",
}


def entry_name(kind: type[Entry]) -> str:
    """The entry's name as stored ("t"), which also names it in docs/flow.md."""
    return _NAMES[kind]


def entry_to_json(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, Act):
        return {"t": "action", "action": action_to_json(entry.action)}
    if isinstance(entry, Dealt | Shown):
        return {"t": _NAMES[type(entry)], "seat": entry.seat, "tile": str(entry.tile)}
    if isinstance(entry, Lead | Drawing | Hunt | Holder):
        return {"t": _NAMES[type(entry)], "seat": entry.seat}
    if isinstance(entry, Undo):
        return {"t": "undo"} if entry.by is None else {"t": "undo", "by": entry.by}
    return {"t": "next"}


def entry_from_json(obj: object) -> Entry:
    """The entry a stored JSON object holds; `BadEntry` says what is wrong with it."""
    if not isinstance(obj, Mapping):
        raise BadEntry(f"an entry is an object, not {type(obj).__name__}")
    kind = obj.get("t")
    try:
        if kind == "action":
            return Act(action_from_json(obj.get("action")))
        if kind == "next":
            return Next()
        if kind == "undo":
            by = obj.get("by")
            return Undo(None if by is None else _seat(by))
        if kind in ("dealt", "shown"):
            tile = obj.get("tile")
            if not isinstance(tile, str):
                raise BadEntry(f"{kind!r} names no tile")
            cls = Dealt if kind == "dealt" else Shown
            return cls(_seat(obj.get("seat")), Tile.parse(tile))
        if isinstance(kind, str) and kind in _SEATED:
            return _SEATED[kind](_seat(obj.get("seat")))
    except RulesError as err:
        raise BadEntry(f"{kind!r}: {err}") from None
    raise BadEntry(f"unknown entry {kind!r}")


def _seat(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadEntry(f"expected a seat number, got {value!r}")
    return value
