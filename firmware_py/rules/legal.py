"""The legal-actions view: what the seat to act may do now."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from firmware_py.rules.actions import Action, Draw, Pass
from firmware_py.rules.choices import (
    _playable,
    draw_refusal,
    pass_refusal,
    play_at,
    plays_now,
)
from firmware_py.rules.engine import apply
from firmware_py.rules.errors import RulesError
from firmware_py.rules.position import PLAY, Position


class LegalActions:
    """Every play, draw and pass the seat to act may make, worked out on first use.

    With known hands it is exact: each action in it is accepted by `apply` and each
    play, draw or pass `apply` accepts is in it. `StartRound` and `Reveal` are never
    listed (they come from the table, not from a choice); `in` still answers for them.
    `len` and `view[i]` count the plays and build only the one asked for, so a random
    choice costs one play, not the whole list. What is worked out is kept by the state,
    so every view of a state shares it.
    """

    __slots__ = ("_state",)

    def __init__(self, state: Position) -> None:
        self._state = state

    @property
    def items(self) -> tuple[Action, ...]:
        s = self._state
        plays, extra = s._memo.counted or _count(s)
        return (*plays_now(s), *extra) if plays else extra

    def __contains__(self, action: object) -> bool:
        try:
            apply(self._state, action)  # type: ignore[arg-type]
        except RulesError:
            return False
        return True

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items)

    def __len__(self) -> int:
        s = self._state
        plays, extra = s._memo.counted or _count(s)
        return plays + len(extra)

    def __getitem__(self, i: int) -> Action:
        s = self._state
        plays, extra = s._memo.counted or _count(s)
        if type(i) is int and i >= 0:
            if i < plays:
                picked = s._memo.picked = play_at(s, i)
                return picked[0]
            if i - plays < len(extra):
                return extra[i - plays]
        return self.items[i]

    def __call__(self) -> LegalActions:
        """`state.legal_actions()` reads the same as `state.legal_actions`."""
        return self

    def __repr__(self) -> str:
        return f"LegalActions({list(self.items)!r})"


def _count(s: Position) -> tuple[int, tuple[Action, ...]]:
    """How many plays the seat to act has, and the DRAW and PASS it may make after them."""
    seat = s.turn
    plays = 0
    extra: tuple[Action, ...] = ()
    if s.phase is PLAY and seat is not None:
        if not s.engine_laid:
            if s._bcount:
                extra = (_DRAWS[seat],)
        else:
            plays = (s._memo.playable or _playable(s))[0]  # `play_count`, inlined
            if draw_refusal(s, plays > 0) is None:
                extra = (_DRAWS[seat],)
            if pass_refusal(s, plays > 0) is None:
                extra += (_PASSES[seat],)
    counted = s._memo.counted = (plays, extra)
    return counted


# One DRAW and one PASS per seat, shared by every view (no deal seats more players than
# a double-18 set has tiles).
_DRAWS: Final = tuple(Draw(seat) for seat in range(190))
_PASSES: Final = tuple(Pass(seat) for seat in range(190))


def legal_actions(state: Position) -> LegalActions:
    """What the seat to act may do now (see `LegalActions`)."""
    return LegalActions(state)
