"""What one moment of a game holds: the fields every rule reads, and the draft a move
builds the next moment in.

`state.State` is the frozen, public form; the rules of play (choices.py, engine.py,
rounds.py) read any `Position` and write only a `Draft`, which `state.freeze` turns into a
`State` once the move is complete. A draft never escapes the move that built it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final, NamedTuple

from firmware_py.rules.actions import MEXICAN, TrainId
from firmware_py.rules.flags import Flags
from firmware_py.rules.memo import Memo
from firmware_py.rules.options import Options
from firmware_py.rules.tiles import Tile
from firmware_py.rules.trains import Path, Train


class Phase(StrEnum):
    """Where a game is: before its first round, in a round, between rounds, or over."""

    DEAL = "deal"
    PLAY = "play"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


# The phases by name: a module constant is read many times quicker than an enum's member
# through its class, and the rules compare phases on every move (Final: compiled, each is
# a C variable).
DEAL: Final = Phase.DEAL
PLAY: Final = Phase.PLAY
ROUND_OVER: Final = Phase.ROUND_OVER
GAME_OVER: Final = Phase.GAME_OVER


class Pending(NamedTuple):
    """An unsatisfied double: where it lies and the turn it was laid in."""

    train: int
    path: Path
    tile: Tile
    turn_no: int


class Position:
    """The fields of one moment of a game, and the read-only view of them."""

    __slots__ = (
        "_bcount",
        "_boneyard",
        "_counts",
        "_doubles",
        "_drawn",
        "_draws",
        "_first",
        "_flags",
        "_hands",
        "_lacks",
        "_laid",
        "_line",
        "_line_ends",
        "_masks",
        "_memo",
        "_named",
        "_out",
        "_owe",
        "_passes",
        "_pending",
        "_revealed",
        "_set_size",
        "_starter0",
        "_table",
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
    _flags: Flags  # the options read on every move, as plain fields
    players: int
    round: int
    phase: Phase
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
    _memo: Memo

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
    def turn_number(self) -> int:
        """Counts the turns of the game: it changes when a turn ends, and only then."""
        return self._turn_no

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
        return tuple((self.train_id(p.train), p.tile) for p in pending_in_order(self))

    @property
    def first_turn_done(self) -> tuple[bool, ...]:
        return self._first

    @property
    def one_tile(self) -> tuple[int, ...]:
        if not self.options.one_tile_alert or self.phase is not PLAY:
            return ()
        return tuple(seat for seat, c in enumerate(self._counts) if c == 1)

    def draft(self) -> Draft:
        """A copy to build the next position in, with nothing worked out yet."""
        n = Draft()
        n._bcount = self._bcount
        n._boneyard = self._boneyard
        n._counts = self._counts
        n._doubles = self._doubles
        n._drawn = self._drawn
        n._draws = self._draws
        n._first = self._first
        n._flags = self._flags
        n._hands = self._hands
        n._lacks = self._lacks
        n._laid = self._laid
        n._line = self._line
        n._line_ends = self._line_ends
        n._masks = self._masks
        n._memo = Memo()
        n._named = self._named
        n._out = self._out
        n._owe = self._owe
        n._passes = self._passes
        n._pending = self._pending
        n._revealed = self._revealed
        n._set_size = self._set_size
        n._starter0 = self._starter0
        n._table = self._table
        n._trains = self._trains
        n._turn_no = self._turn_no
        n.awaiting_reveal = self.awaiting_reveal
        n.blocked = self.blocked
        n.engine = self.engine
        n.engine_laid = self.engine_laid
        n.options = self.options
        n.phase = self.phase
        n.players = self.players
        n.ranking = self.ranking
        n.round = self.round
        n.scores = self.scores
        n.totals = self.totals
        n.turn = self.turn
        n.went_out = self.went_out
        return n

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} round={self.round} phase={self.phase} turn={self.turn} "
            f"counts={self._counts} boneyard={self._bcount}>"
        )


class Draft(Position):
    """A position while a move builds it: the only kind the rules write to."""

    __slots__ = ()

    @classmethod
    def before_first_round(cls, options: Options, players: int, set_size: int) -> Draft:
        """A game with no round dealt yet."""
        s = cls()
        s.options = options
        s._flags = Flags(options)
        s.players = players
        s.round = 0
        s.phase = DEAL
        s.turn = None
        s.engine = None
        s.engine_laid = False
        s.scores = ()
        s.totals = (0,) * players
        s.ranking = None
        s.awaiting_reveal = ()
        s.went_out = None
        s.blocked = False
        s._set_size = set_size
        s._trains = ()
        s._pending = ()
        s._hands = ((),) * players
        s._masks = (0,) * players
        s._counts = (0,) * players
        s._boneyard = ()
        s._bcount = 0
        s._first = (False,) * players
        s._passes = 0
        s._table = 0
        s._out = 0
        s._named = (0,) * players
        s._lacks = (0,) * players
        s._revealed = (None,) * players
        s._starter0 = None
        s._turn_no = 0
        s._memo = Memo()
        s.new_turn()
        return s

    def new_turn(self) -> None:
        """Forget what the last turn did: the next one starts afresh."""
        self._laid = 0
        self._owe = False
        self._doubles = 0
        self._draws = 0
        self._drawn = None
        self._line = None
        self._line_ends = ()
        self._memo = Memo()


def pending_in_order(s: Position) -> tuple[Pending, ...]:
    """The unsatisfied doubles in the order they must be satisfied."""
    if s.options.doubles_order == "reverse":
        return s._pending[::-1]
    return s._pending

