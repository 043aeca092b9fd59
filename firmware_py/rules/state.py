"""The immutable game state; the engine (engine.py) derives each new one from the last."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from firmware_py.rules.actions import MEXICAN, Action, Play, TrainId
from firmware_py.rules.options import Options
from firmware_py.rules.tiles import Tile
from firmware_py.rules.trains import Path, Target, Train

# How many plays the seat to act has, and where: (targets, bitmask of tiles) pairs.
Playable = tuple[int, tuple[tuple[list[Target], int], ...]]
# A play the legal view built, where it goes and why only there: `apply` lays it unchecked.
Picked = tuple[Play, Target, str]


class Pending(NamedTuple):
    """An unsatisfied double: where it lies and the turn it was laid in."""

    train: int
    path: Path
    tile: Tile
    turn_no: int


class State:
    """One moment of a game. Never mutated: `apply` returns a new one."""

    __slots__ = (
        "_bcount",
        "_boneyard",
        "_counted",
        "_counts",
        "_doubles",
        "_drawn",
        "_draws",
        "_first",
        "_hands",
        "_lacks",
        "_laid",
        "_line",
        "_line_ends",
        "_masks",
        "_named",
        "_out",
        "_owe",
        "_passes",
        "_pending",
        "_picked",
        "_playable",
        "_plays",
        "_revealed",
        "_set_size",
        "_starter0",
        "_table",
        "_tg",
        "_trains",
        "_turn_no",
        "awaiting_reveal",
        "blocked",
        "engine",
        "engine_laid",
        "options",
        "phase",
        "players",
        "ranking",
        "round",
        "scores",
        "totals",
        "turn",
        "went_out",
    )

    options: Options
    players: int
    round: int
    phase: str
    turn: int | None
    engine: Tile | None
    engine_laid: bool
    scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    ranking: tuple[int, ...] | None
    awaiting_reveal: tuple[int, ...]
    went_out: int | None
    blocked: bool
    # Per round.
    _set_size: int
    _trains: tuple[Train, ...]  # seats' trains, then the Mexican train at index `players`
    _pending: tuple[Pending, ...]  # in the order they were laid
    _hands: tuple[tuple[Tile, ...], ...] | None  # None: open hands
    _counts: tuple[int, ...]
    _masks: tuple[int, ...]  # known hands: bitmask of tile indexes per seat
    _boneyard: tuple[Tile, ...] | None
    _bcount: int
    _first: tuple[bool, ...]  # the seat has had its first turn
    _passes: int  # turns in a row ended without a tile while the boneyard was empty
    _table: int  # bitmask of tile indexes on the table
    _out: int  # bitmask of tiles known to be out of play
    _named: tuple[int, ...]  # open hands: bitmask per seat of tiles seen going into it
    # Open hands: bitmask per seat of tiles it showed it does not hold (it passed on them
    # under `must_play`), until it next draws a tile unseen.
    _lacks: tuple[int, ...]
    _revealed: tuple[tuple[Tile, ...] | None, ...]
    _starter0: int | None  # the first round's starter (for `starter: rotate`)
    _turn_no: int
    # Per turn.
    _laid: int
    _owe: bool  # the last tile laid this turn is a double still owed a follow-up
    _doubles: int
    _draws: int  # draws since the last tile laid this turn
    _drawn: Tile | None  # the tile just drawn, when known
    _line: int | None  # first-turn train: the train being built
    _line_ends: tuple[Path, ...]  # ...and the ends its last tile left open (paths)
    # Worked out on first use, shared by the legal views of this state and `apply`. Only
    # plain values: a view refers to its state, and a cycle would leave every state to the
    # garbage collector instead of freeing it when the last reference goes.
    _counted: tuple[int, tuple[Action, ...]] | None  # plays, then the DRAW and PASS allowed
    _picked: Picked | None
    _tg: tuple[list[Target], str, list[Target]] | None
    _plays: list[Play] | None
    _playable: Playable | None

    # ---- the public, read-only view -------------------------------------------------

    @property
    def known_hands(self) -> bool:
        return self._hands is not None

    @property
    def hands(self) -> tuple[tuple[Tile, ...] | None, ...]:
        if self._hands is None:
            return (None,) * self.players
        return self._hands

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self._counts

    @property
    def boneyard_count(self) -> int:
        return self._bcount

    @property
    def set_size(self) -> int:
        return self._set_size

    @property
    def trains(self) -> Mapping[TrainId, Train]:
        if not self._trains:  # before the first round
            return {}
        n = self.players
        out: dict[TrainId, Train] = {i: self._trains[i] for i in range(n)}
        out[MEXICAN] = self._trains[n]
        return out

    def train_id(self, index: int) -> TrainId:
        return MEXICAN if index == self.players else index

    @property
    def pending_doubles(self) -> tuple[tuple[TrainId, Tile], ...]:
        from firmware_py.rules.choices import pending_in_order

        return tuple((self.train_id(p.train), p.tile) for p in pending_in_order(self))

    @property
    def first_turn_done(self) -> tuple[bool, ...]:
        return self._first

    @property
    def one_tile(self) -> tuple[int, ...]:
        if not self.options.one_tile_alert or self.phase != "play":
            return ()
        return tuple(seat for seat, c in enumerate(self._counts) if c == 1)

    @property
    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def apply(self, action: Action) -> State:
        from firmware_py.rules.engine import apply

        return apply(self, action)

    def __repr__(self) -> str:
        return (
            f"<State round={self.round} phase={self.phase} turn={self.turn} "
            f"counts={self._counts} boneyard={self._bcount}>"
        )


def clone(s: State) -> State:
    """A copy to derive the next state from; only the engine calls it (and then mutates it)."""
    n = _new(State)
    n._bcount = s._bcount
    n._boneyard = s._boneyard
    n._counts = s._counts
    n._doubles = s._doubles
    n._drawn = s._drawn
    n._draws = s._draws
    n._first = s._first
    n._hands = s._hands
    n._lacks = s._lacks
    n._laid = s._laid
    n._line = s._line
    n._line_ends = s._line_ends
    n._masks = s._masks
    n._named = s._named
    n._out = s._out
    n._owe = s._owe
    n._passes = s._passes
    n._pending = s._pending
    n._revealed = s._revealed
    n._set_size = s._set_size
    n._starter0 = s._starter0
    n._table = s._table
    n._trains = s._trains
    n._turn_no = s._turn_no
    n.awaiting_reveal = s.awaiting_reveal
    n.blocked = s.blocked
    n.engine = s.engine
    n.engine_laid = s.engine_laid
    n.options = s.options
    n.phase = s.phase
    n.players = s.players
    n.ranking = s.ranking
    n.round = s.round
    n.scores = s.scores
    n.totals = s.totals
    n.turn = s.turn
    n.went_out = s.went_out
    n._counted = None
    n._picked = None
    n._tg = None
    n._plays = None
    n._playable = None
    return n


_new = object.__new__

# Last: the legal view is built from the rules of play, which work on states.
from firmware_py.rules.legal import LegalActions  # noqa: E402
