"""A state written by `state_to_stored` and read back is the same state: every field of
the same kind and value, the same legal moves, the same next states."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.bots import make_bot, play_game
from firmware_py.rules import (
    PRESETS,
    STATE_SCHEMA,
    Options,
    RulesError,
    State,
    StateUnreadable,
    apply,
    legal_actions,
    new_game,
    state_from_stored,
    state_to_json,
    state_to_stored,
)
from firmware_py.rules.flags import Flags
from firmware_py.rules.position import Position
from firmware_py.rules.statecodec import FIELDS, NOT_STORED
from firmware_py.rules.trains import Train

RULES = [
    *(PRESETS[name] for name in sorted(PRESETS)),
    Options.preset("tournament", chicken_foot=True),
    Options.preset("hub", doubles_order="reverse", draw="until_playable"),
    Options.preset("classic", set=12, hand_size=14),
]
PLAYERS = {"simple": (4, 5, 6), "family": (3, 4)}


def same(a: object, b: object, where: str = "state") -> None:
    """`a` and `b` alike in kind and value all the way down (tiles by identity)."""
    assert type(a) is type(b), (where, a, b)
    if isinstance(a, tuple | list):
        assert len(a) == len(b), (where, a, b)  # type: ignore[arg-type]
        for k, (x, y) in enumerate(zip(a, b, strict=True)):  # type: ignore[call-overload]
            same(x, y, f"{where}[{k}]")
    elif isinstance(a, Train):
        for name in ("owner", "start", "tiles", "open", "open_end", "branches"):
            same(getattr(a, name), getattr(b, name), f"{where}.{name}")
    elif isinstance(a, Position):
        for name in FIELDS:
            same(getattr(a, name), getattr(b, name), f"{where}.{name}")
        assert a.options is b.options
        # The flags are drawn again from the options: the legal moves and the next move,
        # compared below, are what they decide.
        assert type(b._flags) is Flags
    else:
        assert a == b, (where, a, b)


def read_back(state: State) -> State:
    # Through JSON text, as the journal keeps it.
    return state_from_stored(json.loads(json.dumps(state_to_stored(state))), state.options)


def test_every_field_of_a_position_is_stored():
    # All but the options (the game's own), the flags drawn from them and the memo. The
    # class lists its fields when interpreted; compiled, every field must still be one a
    # state has.
    state = new_game(RULES[0], 4)
    slots = getattr(Position, "__slots__", None)
    if slots is not None:
        assert set(FIELDS) == set(slots) - set(NOT_STORED)
    for name in (*FIELDS, *NOT_STORED):
        getattr(state, name)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(RULES))), st.integers(0, 2**32), st.integers(0, 2))
def test_every_state_of_a_game_reads_back_the_same(rules_index, seed, size):
    options = dataclasses.replace(RULES[rules_index], rounds=2)
    counts = PLAYERS.get(options.name, (2, 4, 8))
    players = counts[size % len(counts)]
    try:
        options.deal_for(players)
    except RulesError:
        players = 2
    bots = [make_bot("random" if seat % 2 else "greedy") for seat in range(players)]
    moves: list[tuple[State, Any, State]] = []
    play_game(options, bots, seed, watch=lambda *move: moves.append(move))
    for before, action, after in [(new_game(options, players), None, None), *moves]:
        back = read_back(before)
        same(before, back)
        assert state_to_stored(back) == state_to_stored(before)
        assert state_to_json(back) == state_to_json(before)
        if before.phase == "play":
            assert list(legal_actions(back)) == list(legal_actions(before))
        if action is not None:
            # The next move plays the same from either.
            same(apply(back, action), after)
    same(read_back(moves[-1][2]), moves[-1][2])


@pytest.mark.parametrize("change", [
    lambda s: s.pop("_owe"),
    lambda s: s.update(_counts=[1, "2"]),
    lambda s: s.update(_trains=[[0, 6, [999], False, []]]),
    lambda s: s.update(phase="half-time"),
    lambda s: s.update(_hands=[[0, 1], [2]] * 3),
    lambda s: s.update(extra=1),
])
def test_a_stored_state_that_is_not_one_written_is_refused(change):
    options = PRESETS["classic"]
    state = new_game(options, 2)
    stored = state_to_stored(state)
    change(stored)
    with pytest.raises(StateUnreadable):
        state_from_stored(stored, options)
    assert STATE_SCHEMA >= 1
