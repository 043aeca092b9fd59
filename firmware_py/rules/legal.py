"""The legal-actions view: what the seat to act may do now."""

from __future__ import annotations

from collections.abc import Iterator

from firmware_py.rules.actions import Action, Draw, Pass
from firmware_py.rules.choices import (
    draw_refusal,
    pass_refusal,
    play_at,
    play_count,
    plays_now,
)
from firmware_py.rules.engine import apply
from firmware_py.rules.errors import RulesError
from firmware_py.rules.state import State


class LegalActions:
    """Every play, draw and pass the seat to act may make, built on first use.

    With known hands it is exact: each action in it is accepted by `apply` and each
    play, draw or pass `apply` accepts is in it. `StartRound` and `Reveal` are never
    listed (they come from the table, not from a choice); `in` still answers for them.
    `len` and `view[i]` count the plays and build only the one asked for, so a random
    choice costs one play, not the whole list.
    """

    __slots__ = ("__weakref__", "_extra", "_items", "_plays", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._items: tuple[Action, ...] | None = None
        self._plays = -1  # how many plays lead the list; -1 until counted
        self._extra: tuple[Action, ...] = ()  # the DRAW and PASS after them

    @property
    def items(self) -> tuple[Action, ...]:
        items = self._items
        if items is None:
            if self._plays < 0:
                self._count()
            extra = self._extra
            items = self._items = (*plays_now(self._state), *extra) if self._plays else extra
        return items

    def _count(self) -> int:
        s = self._state
        seat = s.turn
        plays = 0
        extra: tuple[Action, ...] = ()
        if s.phase == "play" and seat is not None:
            if not s.engine_laid:
                if s._bcount:
                    extra = (_DRAWS[seat],)
            else:
                plays = play_count(s)
                if draw_refusal(s, plays > 0) is None:
                    extra = (_DRAWS[seat],)
                if pass_refusal(s, plays > 0) is None:
                    extra += (_PASSES[seat],)
        self._plays = plays
        self._extra = extra
        return plays + len(extra)

    def __contains__(self, action: object) -> bool:
        try:
            apply(self._state, action)  # type: ignore[arg-type]
        except RulesError:
            return False
        return True

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items)

    def __len__(self) -> int:
        plays = self._plays
        if plays < 0:
            return self._count()
        return plays + len(self._extra)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, i: int) -> Action:
        if self._items is None and type(i) is int and i >= 0:
            plays = self._plays
            if plays < 0:
                self._count()
                plays = self._plays
            if i < plays:
                s = self._state
                picked = s._picked = play_at(s, i)
                return picked[0]
            if i - plays < len(self._extra):
                return self._extra[i - plays]
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


def legal_actions(state: State) -> LegalActions:
    """What the seat to act may do now (see `LegalActions`)."""
    return state.legal_actions
