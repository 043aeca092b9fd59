"""The game state: one moment of a game, frozen. `apply` returns the next one."""

from __future__ import annotations

from typing import Any, NoReturn, cast

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


def freeze(position: Position) -> State:
    """The finished draft of a move as a `State` (the draft itself, now frozen)."""
    if type(position) is Draft:
        # Same fields, no copy: the class changes and the setter goes with it.
        position.__class__ = State  # type: ignore[assignment]
    return cast(State, position)


def apply(state: State, action: Action) -> State:
    """The state after `action`, or `IllegalMove` saying why not; `state` is untouched."""
    # `engine.apply`'s dispatch, with a play (most moves) first.
    n = engine._play(state, action) if type(action) is Play else engine.apply(state, action)
    if type(n) is Draft:  # `freeze`, inlined: this is the engine's busiest call
        n.__class__ = State  # type: ignore[assignment]
    return n  # type: ignore[return-value]


def new_game(options: Options, players: int) -> State:
    """A game before its first round; `BadDeal` if the options name no set for `players`.

    Only the set is needed here: the deal table's hand size is asked for when a round is
    dealt by the engine (open hands without counts, `deal`), not for a written-out position.
    """
    return freeze(Draft.before_first_round(options, players, options.set_for(players)))
