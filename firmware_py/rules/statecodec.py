"""A `State` as plain JSON values, and back: every field of the position, hidden hands
and all, so that a state read back plays exactly as the one written.

This is not the game record's form (`state_to_json` prints what `roundhouse replay`
shows); it is the engine's own memory of one moment, which the table keeps in its
journal at each round's end to resume from (firmware_py.snapshots). `STATE_SCHEMA`
names its layout: it goes up with any change to the fields of `position.Position`, and
a state written under another schema is not read (`StateUnreadable`), never guessed at.
The options are not stored: the game's own are given when reading.

Tiles are stored by index (`Tile.index`), a laid tile as `index * 2 + 1` when its low
end touches the tile before it, a train as `[owner, start, tiles, open, branches]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from firmware_py.rules.errors import RulesError
from firmware_py.rules.flags import Flags
from firmware_py.rules.memo import Memo
from firmware_py.rules.options import Options
from firmware_py.rules.position import Draft, Pending, Phase, Position
from firmware_py.rules.state import State, freeze
from firmware_py.rules.tiles import Laid, Tile, set_tiles
from firmware_py.rules.trains import Train

STATE_SCHEMA = 1

# The fields of a position that are not stored: the options (the game's own are given),
# and what is derived from them or worked out from the rest (the flags the rules read on
# every move, the memo): a state read back works them out again.
NOT_STORED = ("_flags", "_memo", "options")

_TILES = set_tiles(18)
_PHASES = {phase.value: phase for phase in Phase}

T = TypeVar("T")


class StateUnreadable(RulesError):
    """A stored state that is not one this version writes: another schema, a field
    missing or of the wrong kind."""


# ---- writing ------------------------------------------------------------------------


def _tile(tile: Tile | None) -> int | None:
    return None if tile is None else tile.index


def _tiles(tiles: tuple[Tile, ...] | None) -> list[int] | None:
    return None if tiles is None else [t.index for t in tiles]


def _laid(laid: Laid) -> int:
    return laid.tile.index * 2 + (laid.first != laid.tile.high)


def _train(train: Train) -> list[Any]:
    return [train.owner, train.start, [_laid(t) for t in train.tiles], train.open,
            [_train(b) for b in train.branches]]


def state_to_stored(state: State) -> dict[str, Any]:
    """Every field of `state` as JSON values (see the module's doc)."""
    s: Position = state
    return {
        "_bcount": s._bcount,
        "_boneyard": _tiles(s._boneyard),
        "_counts": list(s._counts),
        "_doubles": s._doubles,
        "_drawn": _tile(s._drawn),
        "_draws": s._draws,
        "_first": list(s._first),
        "_hands": None if s._hands is None else [_tiles(h) for h in s._hands],
        "_lacks": list(s._lacks),
        "_laid": s._laid,
        "_line": s._line,
        "_line_ends": [list(path) for path in s._line_ends],
        "_masks": list(s._masks),
        "_named": list(s._named),
        "_out": s._out,
        "_owe": s._owe,
        "_passes": s._passes,
        "_pending": [[p.train, list(p.path), p.tile.index, p.turn_no] for p in s._pending],
        "_revealed": [_tiles(r) for r in s._revealed],
        "_set_size": s._set_size,
        "_starter0": s._starter0,
        "_table": s._table,
        "_trains": [_train(t) for t in s._trains],
        "_turn_no": s._turn_no,
        "awaiting_reveal": list(s.awaiting_reveal),
        "blocked": s.blocked,
        "engine": _tile(s.engine),
        "engine_laid": s.engine_laid,
        "phase": s.phase.value,
        "players": s.players,
        "ranking": None if s.ranking is None else list(s.ranking),
        "round": s.round,
        "scores": [list(row) for row in s.scores],
        "totals": list(s.totals),
        "turn": s.turn,
        "went_out": s.went_out,
    }


# ---- reading: every value checked, so that a damaged one is refused, not played ------


def _bad(what: str, value: object) -> StateUnreadable:
    return StateUnreadable(f"stored state: {what} is {str(value)[:40]!r}")


def _read_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise _bad(what, value)
    return value


def _read_bool(value: object, what: str) -> bool:
    if type(value) is not bool:
        raise _bad(what, value)
    return value


def _read_list(value: object, what: str) -> list[Any]:
    if type(value) is not list:
        raise _bad(what, value)
    return value


def _optional(read: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
    def reading(value: object, what: str) -> T | None:
        return None if value is None else read(value, what)
    return reading


def _read_tile(value: object, what: str) -> Tile:
    index = _read_int(value, what)
    if not 0 <= index < len(_TILES):
        raise _bad(what, value)
    return _TILES[index]


def _each(read: Callable[[object, str], T]) -> Callable[[object, str], tuple[T, ...]]:
    def reading(value: object, what: str) -> tuple[T, ...]:
        return tuple(read(item, what) for item in _read_list(value, what))
    return reading


_ints = _each(_read_int)
_bools = _each(_read_bool)
_read_tiles = _each(_read_tile)
_path = _ints


def _read_laid(value: object, what: str) -> Laid:
    code = _read_int(value, what)
    tile = _read_tile(code // 2, what) if code >= 0 else None
    if tile is None or (code % 2 and tile.is_double):
        raise _bad(what, value)
    return Laid(tile, tile.low if code % 2 else tile.high)


def _read_train(value: object, what: str) -> Train:
    fields = _read_list(value, what)
    if len(fields) != 5:
        raise _bad(what, value)
    owner, start, tiles, open_, branches = fields
    return Train(_optional(_read_int)(owner, what), _read_int(start, what),
                 _each(_read_laid)(tiles, what), _read_bool(open_, what),
                 _each(_read_train)(branches, what))


def _read_pending(value: object, what: str) -> Pending:
    fields = _read_list(value, what)
    if len(fields) != 4:
        raise _bad(what, value)
    return Pending(_read_int(fields[0], what), _path(fields[1], what),
                   _read_tile(fields[2], what), _read_int(fields[3], what))


def _read_phase(value: object, what: str) -> Phase:
    if not isinstance(value, str) or value not in _PHASES:
        raise _bad(what, value)
    return _PHASES[value]


_READERS: dict[str, Callable[[object, str], object]] = {
    "_bcount": _read_int,
    "_boneyard": _optional(_read_tiles),
    "_counts": _ints,
    "_doubles": _read_int,
    "_drawn": _optional(_read_tile),
    "_draws": _read_int,
    "_first": _bools,
    "_hands": _optional(_each(_read_tiles)),
    "_lacks": _ints,
    "_laid": _read_int,
    "_line": _optional(_read_int),
    "_line_ends": _each(_path),
    "_masks": _ints,
    "_named": _ints,
    "_out": _read_int,
    "_owe": _read_bool,
    "_passes": _read_int,
    "_pending": _each(_read_pending),
    "_revealed": _each(_optional(_read_tiles)),
    "_set_size": _read_int,
    "_starter0": _optional(_read_int),
    "_table": _read_int,
    "_trains": _each(_read_train),
    "_turn_no": _read_int,
    "awaiting_reveal": _ints,
    "blocked": _read_bool,
    "engine": _optional(_read_tile),
    "engine_laid": _read_bool,
    "phase": _read_phase,
    "players": _read_int,
    "ranking": _optional(_ints),
    "round": _read_int,
    "scores": _each(_ints),
    "totals": _ints,
    "turn": _optional(_read_int),
    "went_out": _optional(_read_int),
}
# Every other field of a position, as stored.
FIELDS = tuple(sorted(_READERS))
# Interpreted, the class lists its fields (compiled, a native class keeps them in C, and
# the interpreted test run finds a field added without its reader).
_SLOTS: tuple[str, ...] | None = getattr(Position, "__slots__", None)
assert _SLOTS is None or tuple(sorted(set(_SLOTS) - set(NOT_STORED))) == FIELDS, (
    "a field of Position has no reader: STATE_SCHEMA")


def state_from_stored(stored: object, options: Options) -> State:
    """The state `state_to_stored` wrote, played by `options` (the game's own);
    `StateUnreadable` if it is not one it writes."""
    if not isinstance(stored, dict) or sorted(stored) != list(FIELDS):
        have = sorted(stored) if isinstance(stored, dict) else stored
        raise StateUnreadable(f"stored state: not the fields of schema {STATE_SCHEMA} "
                              f"({str(have)[:60]})")
    draft = Draft()
    draft.options = options
    draft._flags = Flags(options)
    for name, read in _READERS.items():
        setattr(draft, name, read(stored[name], name))
    draft._memo = Memo()
    players = draft.players
    if not 2 <= players <= 16 or any(
            len(getattr(draft, name)) != players
            for name in ("_counts", "_first", "_lacks", "_masks", "_named", "_revealed",
                         "totals")) or (
            draft._hands is not None and len(draft._hands) != players) or (
            len(draft._trains) not in (0, players + 1)):
        raise StateUnreadable(f"stored state: its fields do not fit {players} players")
    return freeze(draft)
