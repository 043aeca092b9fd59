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
from dataclasses import dataclass
from typing import Any

from firmware_py.rules import Action, RulesError, Tile, action_from_json, action_to_json
from roundhouse.errors import RoundhouseError


class BadEntry(RoundhouseError):
    """A journal entry that is not one the table writes."""


@dataclass(frozen=True, slots=True)
class Act:
    """A move of the game record: a play, a draw, a pass or a reveal."""

    action: Action


@dataclass(frozen=True, slots=True)
class Lead:
    """The seat that leads the round being set up."""

    seat: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """Tracked hands: a seat took that tile in the deal."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Drawing:
    """Tracked hands: a seat pressed DRAW and owes the drawn tile."""

    seat: int


@dataclass(frozen=True, slots=True)
class Shown:
    """Open hands: a seat tapped a leftover tile (again: takes it back)."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Next:
    """The round summary was dismissed."""


@dataclass(frozen=True, slots=True)
class Hunt:
    """Open hands under `engine: holder`: a seat drew for the engine."""

    seat: int


@dataclass(frozen=True, slots=True)
class Holder:
    """A seat tapped the engine on its own pad: it lays it and leads."""

    seat: int


@dataclass(frozen=True, slots=True)
class Undo:
    """The entry before this one is void (`by`: the seat that held PASS)."""

    by: int | None = None


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
