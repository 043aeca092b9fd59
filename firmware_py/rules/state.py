"""The game state: one moment of a game, frozen. `apply` returns the next one."""

from __future__ import annotations

from typing import Any, Final, NoReturn, cast

from firmware_py.rules import engine
from firmware_py.rules.actions import Action, Play
from firmware_py.rules.legal import LegalActions
from firmware_py.rules.options import Options
from firmware_py.rules.position import Draft, Position


class State(Position):
    """One moment of a game. It cannot be changed: `apply` returns a new one."""

    __slots__ = ()

    @property
    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def apply(self, action: Action) -> State:
        """The state after `action`, or `IllegalMove` saying why not; this one is untouched."""
        return apply(self, action)

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"a State cannot be changed (set {name!r}): apply an action")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a State cannot be changed (delete {name!r})")

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self


# Compiled by mypyc, `Position`, `Draft` and `State` are native classes: an object's class
# cannot change, so a finished draft's fields go into a new `State` (field by field, each a
# C assignment). Interpreted, the draft itself becomes the `State`: no copy.
NATIVE: Final = not __file__.endswith(".py")


def freeze(position: Position) -> State:
    """The finished draft of a move as a `State` (interpreted, the draft itself, now frozen)."""
    if type(position) is Draft:
        if NATIVE:
            return _copied(position)
        # Same fields, no copy: the class changes and the setter goes with it.
        position.__class__ = State  # type: ignore[assignment]
    return cast(State, position)


def apply(state: State, action: Action) -> State:
    """The state after `action`, or `IllegalMove` saying why not; `state` is untouched."""
    # `engine.apply`'s dispatch, with a play (most moves) first.
    n = engine._play(state, action) if type(action) is Play else engine.apply(state, action)
    if type(n) is Draft:  # `freeze`, inlined: this is the engine's busiest call
        if NATIVE:
            return _copied(n)
        n.__class__ = State  # type: ignore[assignment]
    return n  # type: ignore[return-value]


def _copied(d: Draft) -> State:
    """A `State` holding the draft's fields (compiled only: interpreted, `State.__setattr__`
    refuses these assignments; compiled, an assignment through the `Position` type is a
    store into the object, which the setter Python code reaches does not see)."""
    s = State()
    t: Position = s
    t._bcount = d._bcount
    t._boneyard = d._boneyard
    t._counts = d._counts
    t._doubles = d._doubles
    t._drawn = d._drawn
    t._draws = d._draws
    t._first = d._first
    t._flags = d._flags
    t._hands = d._hands
    t._lacks = d._lacks
    t._laid = d._laid
    t._line = d._line
    t._line_ends = d._line_ends
    t._masks = d._masks
    t._named = d._named
    t._out = d._out
    t._owe = d._owe
    t._passes = d._passes
    t._pending = d._pending
    t._revealed = d._revealed
    t._set_size = d._set_size
    t._starter0 = d._starter0
    t._table = d._table
    t._trains = d._trains
    t._turn_no = d._turn_no
    t.awaiting_reveal = d.awaiting_reveal
    t.blocked = d.blocked
    t.engine = d.engine
    t.engine_laid = d.engine_laid
    t.options = d.options
    t.phase = d.phase
    t.players = d.players
    t.ranking = d.ranking
    t.round = d.round
    t.scores = d.scores
    t.totals = d.totals
    t.turn = d.turn
    t.went_out = d.went_out
    t._memo = d._memo
    return s


def new_game(options: Options, players: int) -> State:
    """A game before its first round; `BadDeal` if the options name no set for `players`.

    Only the set is needed here: the deal table's hand size is asked for when a round is
    dealt by the engine (open hands without counts, `deal`), not for a written-out position.
    """
    return freeze(Draft.before_first_round(options, players, options.set_for(players)))
