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


def test_a_reveal_must_hold_every_tile_seen_going_into_that_hand():
    # Seat 1 draws 3-3 by name (it does not start its train); seat 0 goes out.
    over = run(_open(Options.preset("tournament"), hands=(2, 2), starter=0),
               "0 play 9-5 on 0", "0 pass", "1 draw 3-3", "0 play 5-1 on 0")  # fmt: skip
    assert over.awaiting_reveal == (1,)
    with pytest.raises(IllegalMove, match="Seat 1 drew the 3-3 and has not laid it"):
        apply(over, move("1 reveal 8-1 7-2 6-0"))
    assert run(over, "1 reveal 8-1 7-2 3-3").scores == ((0, 24),)


def test_a_named_tile_laid_since_is_not_asked_for():
    state = run(_open(hands=(3, 3)), "0 play 9-4 on 0", "1 draw 9-3", "1 play 9-3 on 1",
                "0 play 4-2 on 0", "1 play 3-1 on 1", "0 play 2-0 on 0")  # fmt: skip
    assert state.awaiting_reveal == (1,)
    assert run(state, "1 reveal 6-5 7-8").scores[-1] == (0, 26)


def _dry(options: Options) -> object:
    """Open hands on a double-6 set with every tile dealt: seat 0 (which lays 6-6) ends
    its train on 5, seat 1 on 5 too, and the Mexican train is not started."""
    state = _open(options, hands=(14, 14), starter=0)
    assert state.boneyard_count == 0
    return run(state, "0 play 6-5 on 0", "0 pass", "1 play 6-4 on 1", "1 play 4-5 on 1",
               "1 pass")  # fmt: skip


def test_a_dry_round_is_blocked_once_no_seat_that_passed_may_hold_a_tile_for_the_new_end():
    # Seat 0 passes facing 5 and 6; seat 1's marker then opens its train at 5, which seat 0
    # has shown it cannot play on (`must_play`): one pass each and the round is blocked.
    classic6 = Options.preset("classic", set=6, rounds=1)
    blocked = run(_dry(classic6), "0 pass", "1 pass")
    assert blocked.phase == "round_over" and blocked.blocked
    assert blocked.awaiting_reveal == (0, 1)


def test_without_must_play_a_pass_shows_nothing_and_the_run_of_passes_starts_again():
    free = Options.preset("classic", set=6, rounds=1, must_play=False)
    state = run(_dry(free), "0 pass", "1 pass")
    assert state.phase == "play" and state.turn == 0  # seat 0 may hold a 5 after all
    assert run(state, "0 pass").phase == "round_over"


def test_a_tile_drawn_unseen_may_be_the_one_a_seat_lacked():
    # Under classic seat 0 passes its first turn without drawing: it holds no 9 for its
    # train. A tile it later draws unseen may be a 9, so nothing is known to be lacking.
    state = run(_open(Options.preset("classic"), hands=(15, 15), starter=1),
                "1 play 9-5 on 1", "1 pass", "0 pass")  # fmt: skip
    assert state._lacks[0]  # passed on its first turn without a tile for its train
    drew = run(state, "1 draw")
    assert drew._lacks == state._lacks
    assert run(drew, "1 pass", "0 draw")._lacks[0] == 0


def test_a_named_draw_that_satisfies_a_carried_double_must_be_laid_but_an_unseen_one_is_trusted():
    # docs/rules.md, core rule 9 (the Lithuanian text "Tai turi būti daroma", it must be done): seat
    # 0 lays 5-5 and follows up on the Mexican train, leaving 5-5 to seat 1.
    state = run(_open(hands=(5, 5)), "0 play 9-5 on 0", "1 play 9-1 on 1",
                "0 play 5-5 on 0", "0 play 9-3 on mexican")  # fmt: skip
    named = run(state, "1 draw 5-2")
    with pytest.raises(IllegalMove) as refused:
        apply(named, move("1 pass"))
    assert refused.value.code == "must_satisfy_drawn"
    assert move("1 pass") not in legal_actions(named)
    assert [str(a) for a in legal_actions(named)] == [str(move("1 play 5-2 on 0"))]
    # Unseen, the drawn tile may be anything: the table's PASS says it did not fit.
    unseen = run(state, "1 draw")
    assert move("1 pass") in legal_actions(unseen)
    passed = run(unseen, "1 pass")
    assert passed.turn == 0 and passed.trains[1].open
    assert [str(t) for _, t in passed.pending_doubles] == ["5-5"]


@pytest.mark.parametrize(("preset", "marker"), [("tournament", False), ("classic", True)])
def test_a_first_turn_that_satisfied_a_double_may_stop_there_at_an_open_table(preset, marker):
    # Seat 1 satisfies seat 0's 5-5 on its first turn and passes without drawing. Holding
    # a 9 it may stop there (test_rules_options.py, "..._may_stop_though_it_could_start");
    # the open table cannot see whether it holds one, and takes the PASS at its word.
    # Under tournament a seat without a 9 would have had to draw first, so the PASS says
    # it holds one: no marker. Under classic such a seat passes too, and the PASS says
    # nothing: marker up. The tournament table once refused that PASS ("Draw a tile before
    # passing"), and a simulated game stalled on it.
    hands = (4, 2) if preset == "classic" else (3, 2)
    state = run(_open(Options.preset(preset), hands=hands, starter=0),
                "0 play 9-5 on 0", "0 play 5-5 on 0", "0 pass", "1 play 5-2 on 0")  # fmt: skip
    assert move("1 pass") in legal_actions(state)
    stopped = run(state, "1 pass")
    assert stopped.turn == 0 and stopped.trains[1].open is marker
    assert stopped.hand_counts[1] == 1


def test_with_nothing_left_to_draw_such_a_pass_says_nothing():
    # The same stop with the boneyard empty: a seat that cannot start its train passes
    # without drawing too, as there is no tile to draw, so the marker goes up, as the
    # players' own game (hands seen) has it when the seat cannot start.
    every_tile_dealt = Options.preset("classic", set=6, first_turn_draw=True)
    state = run(_open(every_tile_dealt, hands=(14, 14), starter=0),
                "0 play 6-5 on 0", "0 play 5-5 on 0", "0 pass", "1 play 5-2 on 0")  # fmt: skip
    assert state.boneyard_count == 0
    passed = run(state, "1 pass")
    assert passed.turn == 0 and passed.trains[1].open
