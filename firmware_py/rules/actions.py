"""What a seat (or the table) can do, and its JSON form in game records.

Each action is a frozen value: equal only to an action of the same kind with the same
fields, hashable, and printed as the call that builds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from firmware_py.rules.errors import BadAction, RulesError, quoted
from firmware_py.rules.tiles import Tile, digits_hint, is_number

MEXICAN: Final = "mexican"
TrainId = int | str
# One entry per seat: the tiles dealt (known hands), a count or None (open hands).
HandSpec = tuple[Tile, ...] | int | None


@dataclass(frozen=True, slots=True)
class Play:
    """Lay `tile` on `train`; `branch` picks an open end of a chicken-foot train."""

    seat: int
    tile: Tile
    train: TrainId
    branch: int | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the boneyard; `tile` names it when the table saw it."""

    seat: int
    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn; the engine decides whether the marker goes up."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """Open hands, round over: the tiles left in that seat's hand."""

    seat: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class StartRound:
    """Begin the next round with this deal (see docs/engine.md)."""

    hands: tuple[HandSpec, ...] | None
    boneyard: tuple[Tile, ...] | None
    starter: int | None = None
    engine: Tile | None = None


Action = Play | Draw | Pass | Reveal | StartRound


def _tile_json(tile: Tile | None) -> str | None:
    return None if tile is None else str(tile)


def action_to_json(action: Action) -> dict[str, Any]:
    """The game-record form of an action (docs/records.md, "Moves")."""
    if isinstance(action, Play):
        out: dict[str, Any] = {"seat": action.seat, "play": str(action.tile), "on": action.train}
        if action.branch is not None:
            out["branch"] = action.branch
        return out
    if isinstance(action, Draw):
        return {"seat": action.seat, "draw": True if action.tile is None else str(action.tile)}
    if isinstance(action, Pass):
        return {"seat": action.seat, "pass": True}
    if isinstance(action, Reveal):
        return {"seat": action.seat, "reveal": [str(t) for t in action.tiles]}
    hands: list[Any] | None = None
    if action.hands is not None:
        hands = [[str(t) for t in h] if isinstance(h, tuple) else h for h in action.hands]
    boneyard = None if action.boneyard is None else [str(t) for t in action.boneyard]
    return {
        "start_round": {
            "hands": hands,
            "boneyard": boneyard,
            "starter": action.starter,
            "engine": _tile_json(action.engine),
        }
    }


def _int(obj: Mapping[str, Any], key: str, what: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadAction(f'"{key}" must be {what}, got {quoted(value)}')
    return value


def parse_tile(value: Any, key: str) -> Tile:
    """A tile from JSON text, with the key it came from in the error."""
    if not isinstance(value, str):
        raise BadAction(f'"{key}" must be a tile like "5-3", got {quoted(value)}')
    try:
        return Tile.parse(value)
    except RulesError as e:
        if value.count("-") == 1 and all(is_number(p) for p in value.strip().split("-")):
            raise BadAction(f'"{key}": {e}') from None
        raise BadAction(
            f'"{key}" must be a tile like "5-3"{digits_hint(value)}, got {quoted(value)}'
        ) from None


def _train(value: Any) -> TrainId:
    if value == MEXICAN:
        return MEXICAN
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise BadAction(f'"on" must be a seat number or "mexican", got {quoted(value)}')


def _start_round(body: Any) -> StartRound:
    if not isinstance(body, Mapping):
        raise BadAction(f'"start_round" must be an object, got {quoted(body)}')
    unknown = set(body) - {"hands", "boneyard", "starter", "engine"}
    if unknown:
        raise BadAction(f'"start_round" has unknown key {quoted(sorted(unknown)[0])}')
    hands: tuple[HandSpec, ...] | None = None
    raw = body.get("hands")
    if raw is not None:
        if not isinstance(raw, list):
            raise BadAction(f'"hands" must be a list, got {quoted(raw)}')
        specs: list[HandSpec] = []
        for i, h in enumerate(raw):
            if h is None or (isinstance(h, int) and not isinstance(h, bool) and h >= 0):
                specs.append(h)
            elif isinstance(h, list):
                specs.append(tuple(parse_tile(t, f"hands[{i}]") for t in h))
            else:
                raise BadAction(f'"hands[{i}]" must be a list of tiles or a count')
        hands = tuple(specs)
    boneyard = body.get("boneyard")
    if boneyard is not None:
        if not isinstance(boneyard, list):
            raise BadAction(f'"boneyard" must be a list of tiles, got {quoted(boneyard)}')
        boneyard = tuple(parse_tile(t, "boneyard") for t in boneyard)
    starter = None if body.get("starter") is None else _int(body, "starter", "a seat number")
    engine = None if body.get("engine") is None else parse_tile(body["engine"], "engine")
    return StartRound(hands, boneyard, starter, engine)


_KINDS = ("play", "draw", "pass", "reveal")


def action_from_json(obj: Any) -> Action:
    """An action from its game-record form; `BadAction` says what is wrong."""
    if not isinstance(obj, Mapping):
        raise BadAction(f"a move must be an object, got {quoted(obj)}")
    if "start_round" in obj:
        return _start_round(obj["start_round"])
    kinds = [k for k in _KINDS if k in obj]
    if len(kinds) != 1:
        raise BadAction('a move must have exactly one of "play", "draw", "pass", "reveal"')
    kind = kinds[0]
    allowed = {"seat", kind} | ({"on", "branch"} if kind == "play" else set())
    unknown = set(obj) - allowed
    if unknown:
        raise BadAction(f'a "{kind}" move has unknown key {quoted(sorted(unknown)[0])}')
    seat = _int(obj, "seat", "a seat number")
    value = obj[kind]
    if kind == "play":
        if "on" not in obj:
            raise BadAction('a "play" move needs "on": a seat number or "mexican"')
        branch = obj.get("branch")
        if branch is not None:
            branch = _int(obj, "branch", "a branch number")
        return Play(seat, parse_tile(value, "play"), _train(obj["on"]), branch)
    if kind == "draw":
        if value is True:
            return Draw(seat)
        if isinstance(value, str):
            return Draw(seat, parse_tile(value, "draw"))
        raise BadAction(f'"draw" must be true or a tile like "5-3", got {quoted(value)}')
    if kind == "pass":
        if value is not True:
            raise BadAction(f'"pass" must be true, got {quoted(value)}')
        return Pass(seat)
    if not isinstance(value, list):
        raise BadAction(f'"reveal" must be a list of tiles, got {quoted(value)}')
    return Reveal(seat, tuple(parse_tile(t, "reveal") for t in value))
