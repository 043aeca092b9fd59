"""A game keeps the readings of the rules version it was journaled under: the engine's
corrections apply to games started after them, never to one under way."""

from __future__ import annotations

import dataclasses

import pytest

from firmware_py.rules import (
    RULES_VERSION,
    BadOptions,
    IllegalMove,
    Options,
    Pass,
    Play,
    StartRound,
    Tile,
    apply,
    new_game,
)
from firmware_py.rules import Draw as DrawTile

T = Tile.parse


def satisfied_then_stuck(readings: int):
    """Tournament, first turns: seat 0 lays a line ending on a double, seat 1 satisfies it
    and cannot start its own train."""
    options = dataclasses.replace(Options.preset("tournament"), readings=readings)
    s = new_game(options, 2)
    s = apply(s, StartRound(((T("9-4"), T("4-4"), T("1-0")), (T("4-2"), T("3-1"))),
                            (T("9-5"), T("8-0"), T("7-7")), starter=0))
    for action in (Play(0, T("9-4"), 0), Play(0, T("4-4"), 0), Pass(0), Play(1, T("4-2"), 0)):
        s = apply(s, action)
    return s


def test_today_the_seat_draws_for_its_train_and_may_not_pass_first():
    s = satisfied_then_stuck(RULES_VERSION)
    with pytest.raises(IllegalMove):
        apply(s, Pass(1))
    after = apply(s, DrawTile(1))
    assert after.hand_counts[1] == 2


def test_a_game_of_version_2_goes_on_as_it_was_played():
    s = satisfied_then_stuck(2)
    with pytest.raises(IllegalMove):
        apply(s, DrawTile(1))
    after = apply(s, Pass(1))
    assert after.turn == 0 and not after.trains[1].open  # no marker went up then


def test_the_readings_are_not_an_option_of_the_rules():
    options = dataclasses.replace(Options.preset("tournament"), readings=1)
    assert "readings" not in options.to_full_json()
    assert Options.from_json(options.to_full_json()).readings == RULES_VERSION
    with pytest.raises(BadOptions, match="rules version"):
        dataclasses.replace(options, readings=RULES_VERSION + 1)
