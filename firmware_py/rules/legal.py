"""The legal-actions view: what the seat to act may do now."""

from __future__ import annotations

from collections.abc import Iterator

from firmware_py.rules.actions import Action, Draw, Pass
from firmware_py.rules.choices import draw_refusal, pass_refusal, plays_now
from firmware_py.rules.engine import apply
from firmware_py.rules.errors import RulesError
from firmware_py.rules.state import State


class LegalActions:
    """Every play, draw and pass the seat to act may make, built on first use.

    With known hands it is exact: each action in it is accepted by `apply` and each
    play, draw or pass `apply` accepts is in it. `StartRound` and `Reveal` are never
    listed (they come from the table, not from a choice); `in` still answers for them.
    """

    __slots__ = ("_items", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._items: tuple[Action, ...] | None = None

    @property
    def items(self) -> tuple[Action, ...]:
        items = self._items
        if items is None:
            items = self._items = _enumerate(self._state)
        return items

    def __contains__(self, action: object) -> bool:
        try:
            apply(self._state, action)  # type: ignore[arg-type]
        except RulesError:
            return False
        return True

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __getitem__(self, i: int) -> Action:
        return self.items[i]

    def __call__(self) -> LegalActions:
        """`state.legal_actions()` reads the same as `state.legal_actions`."""
        return self

    def __repr__(self) -> str:
        return f"LegalActions({list(self.items)!r})"


# One DRAW and one PASS per seat, shared by every view (no deal seats more players than
# a double-18 set has tiles).
_DRAWS = tuple(Draw(seat) for seat in range(190))
_PASSES = tuple(Pass(seat) for seat in range(190))


def _enumerate(s: State) -> tuple[Action, ...]:
    seat = s.turn
    if s.phase != "play" or seat is None:
        return ()
    if not s.engine_laid:
        return (_DRAWS[seat],) if s._bcount else ()
    plays = plays_now(s)
    extra: tuple[Action, ...] = ()
    if draw_refusal(s, plays) is None:
        extra = (_DRAWS[seat],)
    if pass_refusal(s, plays) is None:
        extra += (_PASSES[seat],)
    return (*plays, *extra)


def legal_actions(state: State) -> LegalActions:
    """What the seat to act may do now (see `LegalActions`)."""
    legal = state._legal
    if legal is None:
        legal = LegalActions(state)
        state._legal = legal
    return legal
