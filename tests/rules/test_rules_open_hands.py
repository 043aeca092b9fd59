"""Open hands: the table sees plays only; hands are counts, rounds are scored from reveals."""

import pytest
from rules_helpers import house, move, run

from firmware_py.rules import IllegalMove, Options, StartRound, apply, legal_actions, new_game


def _open(options=None, hands=(3, 3), starter=None):
    return apply(new_game(options or house(), len(hands)), StartRound(tuple(hands), None, starter))


def test_hands_are_counts_and_the_boneyard_is_what_the_set_leaves():
    state = _open()
    assert not state.known_hands and state.hands == (None, None)
    assert state.hand_counts == (3, 3) and state.boneyard_count == 55 - 1 - 6
    state = run(state, "0 play 9-4 on 0")
    assert state.hand_counts == (2, 3)


def test_a_tile_on_the_table_or_outside_the_set_cannot_be_played():
    state = run(_open(), "0 play 9-4 on 0")
    with pytest.raises(IllegalMove, match="already on the table"):
        apply(state, move("1 play 9-4 on 1"))
    with pytest.raises(IllegalMove, match="not part of the double-9 set"):
        apply(state, move("1 play 9-12 on 1"))


def test_an_unseen_draw_is_followed_by_a_pass_and_the_marker_goes_up():
    state = run(_open(), "0 draw")
    assert state.turn == 0 and state.hand_counts == (4, 3)
    assert move("0 pass") in legal_actions(state)
    state = run(state, "0 pass")
    assert state.turn == 1 and state.trains[0].open


def test_a_named_draw_binds_the_tile_to_that_hand():
    state = run(_open(), "0 draw 8-7")
    assert state.turn == 1  # 8-7 plays nowhere: the turn is over, marker up
    assert state.trains[0].open
    with pytest.raises(IllegalMove, match="in seat 0's hand"):
        apply(state, move("1 play 8-7 on 0"))


def test_open_hands_legal_view_lists_every_tile_the_seat_may_hold():
    state = _open()
    plays = [a for a in legal_actions(state) if hasattr(a, "train")]
    # every 9-x except the set-aside 9-9, on the own train or the Mexican train
    assert len(plays) == 9 * 2


def test_with_the_engine_held_the_starter_lays_it_from_its_hand():
    state = _open(Options.preset("classic"), hands=(15, 15), starter=1)
    assert state.engine_laid and state.turn == 1 and state.hand_counts == (15, 14)
    assert state.boneyard_count == 55 - 30
