"""The common core of docs/rules.md, "The common core" and the details of section 6."""

import pytest
from rules_helpers import hand, house, move, run, start, tiles, train_tiles

from firmware_py.rules import (
    MEXICAN,
    BadTile,
    IllegalMove,
    Laid,
    Options,
    StartRound,
    Tile,
    apply,
    legal_actions,
    new_game,
)


def test_tiles_are_unordered_pairs_shared_by_identity():
    assert Tile.parse("5-3") is Tile.parse("3-5") is Tile(3, 5)
    assert str(Tile(3, 5)) == "5-3"
    assert Tile(6, 6).is_double and Tile(6, 6).pips == 12
    assert Tile(12, 5).other(12) == 5 and Tile(12, 5).matches(5)
    assert str(Laid(Tile(12, 5), 5)) == "5-12"
    for text in ("5/3", "5-", "a-b", "19-1", "5-3-1"):
        with pytest.raises(BadTile):
            Tile.parse(text)


def test_a_double_n_game_counts_the_engine_down_for_n_plus_one_rounds():
    options = Options.preset("classic", set=6, engine="set_aside", first_turn_out_waits=False)
    state = new_game(options, 2)
    engines = []
    while state.phase != "game_over":
        e = 6 - state.round
        leader = Tile(e, 5 if e == 6 else 6)
        state = apply(state, StartRound(((leader,), tiles("4-3")), tiles("2-1")))
        engines.append(str(state.engine))
        state = apply(state, move(f"0 play {leader} on 0"))
    assert engines == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    assert state.totals == (0, 7 * 7)


def test_open_hands_round_is_scored_from_reveals():
    state = apply(new_game(house(), 2), StartRound((3, 1), None))
    state = run(state, "0 play 9-4 on 0", "1 play 9-2 on 1")
    assert state.phase == "round_over" and state.awaiting_reveal == (0,)
    assert state.went_out == 1
    state = run(state, "0 reveal 6-5 0-0")
    assert state.scores == ((11, 0),)


def test_a_reveal_must_name_tiles_that_can_still_be_in_that_hand():
    state = apply(new_game(house(), 2), StartRound((3, 1), None))
    state = run(state, "0 play 9-4 on 0", "1 play 9-2 on 1")
    with pytest.raises(IllegalMove, match="already on the table"):
        apply(state, move("0 reveal 9-4 6-6"))
    with pytest.raises(IllegalMove, match="on the table"):
        apply(state, move("0 reveal 9-9 6-6"))
    with pytest.raises(IllegalMove, match="holds 2 tile"):
        apply(state, move("0 reveal 5-5"))
    with pytest.raises(IllegalMove, match="named twice"):
        apply(state, move("0 reveal 5-5 5-5"))
    with pytest.raises(IllegalMove, match="nothing to reveal"):
        apply(state, move("1 reveal"))
    state = run(state, "0 reveal 8-7 0-0")
    assert state.scores == ((15, 0),)


def test_a_revealed_tile_cannot_be_revealed_by_another_seat():
    state = apply(new_game(house(), 3), StartRound((2, 1, 2), None))
    state = run(state, "0 play 9-4 on 0", "1 play 9-2 on 1")
    with pytest.raises(IllegalMove, match="seat 0"):
        run(state, "0 reveal 8-7", "2 reveal 8-7 1-1")


def test_play_must_match_the_open_end_and_is_laid_against_it():
    state = start(house(), ["9-5 5-3 4-2", "9-1 1-0"], "8-8")
    with pytest.raises(IllegalMove, match="doesn't match the open 9 of seat 0's train"):
        apply(state, move("0 play 4-2 on 0"))
    state = run(state, "0 play 5-9 on 0", "1 play 9-1 on 1", "0 play 3-5 on 0")
    assert train_tiles(state, 0) == ["9-5", "5-3"]


def test_the_seat_may_play_its_own_train_the_mexican_train_and_open_trains_only():
    state = start(house(), ["9-5 5-3 1-4", "9-1 1-0 8-6"], "8-8 7-7")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1")
    with pytest.raises(IllegalMove, match="Seat 1's train is closed"):
        apply(state, move("0 play 1-4 on 1"))
    state = run(state, "0 play 5-3 on 0", "1 draw")  # 8-8 does not play: marker up
    assert state.trains[1].open and state.turn == 0
    state = run(state, "0 play 1-4 on 1")
    assert train_tiles(state, 1) == ["9-1", "1-4"]


def test_an_unplayable_draw_puts_the_marker_up_and_playing_own_train_takes_it_off():
    state = start(house(), ["9-5 4-4", "9-1 1-0 6-6"], "8-8 5-2")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert state.trains[0].open and state.turn == 1 and hand(state, 0) == ["4-4", "8-8"]
    state = run(state, "1 play 1-0 on 1", "0 draw", "0 play 5-2 on 0")
    assert not state.trains[0].open
    assert train_tiles(state, 0) == ["9-5", "5-2"]


def test_with_an_empty_boneyard_the_seat_passes_and_its_marker_goes_up():
    state = start(house(), ["9-5 4-4", "9-1 1-0"])
    with pytest.raises(IllegalMove, match="boneyard is empty"):
        run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 pass")
    assert state.trains[0].open and state.turn == 1


def test_a_double_earns_another_tile_in_the_same_turn():
    state = start(house(), ["9-5 5-5 5-3 1-1", "9-1 1-0"], "8-8")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0")
    assert state.turn == 0 and [str(t) for _, t in state.pending_doubles] == ["5-5"]
    state = run(state, "0 play 5-3 on 0")
    assert state.turn == 1 and state.pending_doubles == ()


def test_a_pending_double_must_be_satisfied_first_even_on_a_closed_train():
    state = start(house(), ["9-5 5-5 4-4", "9-1 5-2 1-0"], "8-7")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0", "0 draw")
    assert state.turn == 1 and state.trains[0].open
    with pytest.raises(IllegalMove, match="Seat 1 must satisfy the 5-5 on seat 0's train first"):
        apply(state, move("1 play 1-0 on 1"))
    state = run(state, "1 play 5-2 on 0")
    assert state.pending_doubles == ()


def test_the_duty_to_satisfy_moves_round_the_table():
    state = start(house(), ["9-5 5-5 4-4", "9-1 1-0", "9-2 5-3 2-2"], "8-7 6-6")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "2 play 9-2 on 2")
    state = run(state, "0 play 5-5 on 0", "0 draw", "1 draw")
    assert state.turn == 2 and state.trains[1].open
    state = run(state, "2 play 5-3 on 0")
    assert state.pending_doubles == () and state.turn == 0


def test_going_out_ends_the_round_and_scores_the_other_hands():
    state = start(house(), ["9-5", "9-1 6-6 0-0"], "8-8")
    state = run(state, "0 play 9-5 on 0")
    assert state.phase == "round_over"
    assert state.scores == ((0, 22),) and state.totals == (0, 22) and state.went_out == 0


def test_a_blocked_round_is_scored_like_any_other():
    state = start(house(), ["9-5 4-4", "9-1 3-3"])
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 pass")
    assert state.phase == "play"
    state = run(state, "1 pass")
    assert state.phase == "round_over" and state.blocked
    assert state.scores == ((8, 6),)


def test_a_marker_that_opens_a_play_for_a_seat_that_passed_keeps_the_round_going():
    # Boneyard empty. Seat 0 passes with 2-1 (nothing fits); seat 1 passes and its
    # marker opens its train at 2: seat 0 can play again, so the round is not blocked.
    state = start(house(), ["9-8 2-1", "9-2 4-4", "9-3 0-0"])
    state = run(state, "0 play 9-8 on 0", "1 play 9-2 on 1", "2 play 9-3 on 2")
    state = run(state, "0 pass", "1 pass", "2 pass")  # seat 2's open 3 helps nobody
    assert state.phase == "play" and state.turn == 0
    assert move("0 play 2-1 on 1") in legal_actions(state)
    state = run(state, "0 play 2-1 on 1")
    assert state.phase == "round_over" and not state.blocked and state.went_out == 0


def test_with_open_hands_a_train_opened_while_passing_gives_every_seat_another_turn():
    # The table cannot know whether seat 0 holds a 2: the run of passes starts again.
    state = apply(new_game(house(), 3), StartRound((18, 18, 18), None))
    assert state.boneyard_count == 0
    state = run(state, "0 play 9-8 on 0", "1 play 9-2 on 1", "2 play 9-3 on 2")
    state = run(state, "0 pass", "1 pass", "2 pass", "0 pass")
    assert state.phase == "play"
    state = run(state, "1 pass")
    assert state.phase == "round_over" and state.blocked


def test_a_round_over_waits_for_the_next_start_round_and_the_last_one_ends_the_game():
    options = house(rounds=2)
    state = start(options, ["9-5", "9-1 2-0"])
    state = run(state, "0 play 9-5 on 0")
    assert state.phase == "round_over" and state.turn is None and state.ranking is None
    with pytest.raises(IllegalMove, match="round is over"):
        apply(state, move("1 play 9-1 on 1"))
    state = apply(state, StartRound((tiles("8-4 3-3"), tiles("8-1")), ()))
    assert state.round == 2 and str(state.engine) == "8-8" and state.phase == "play"
    state = run(state, "0 play 8-4 on 0", "1 play 8-1 on 1")
    assert state.phase == "game_over"
    assert state.scores == ((0, 12), (6, 0)) and state.totals == (6, 12)
    assert state.ranking == (0, 1)
    with pytest.raises(IllegalMove, match="game is over"):
        apply(state, StartRound(None, None))


def test_out_of_turn_play_is_refused_with_whose_turn_it_is():
    state = start(house(), ["9-5", "9-1"], "8-8")
    with pytest.raises(IllegalMove, match="It's seat 0's turn"):
        apply(state, move("1 play 9-1 on 1"))


def test_a_tile_not_in_hand_is_refused():
    state = start(house(), ["9-5", "9-1"], "8-8")
    with pytest.raises(IllegalMove, match="doesn't hold the 9-1"):
        apply(state, move("0 play 9-1 on 0"))


def test_after_a_draw_only_the_drawn_tile_may_be_played():
    state = start(house(), ["9-5 5-0", "9-1 1-1 6-6"], "5-2")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert state.turn == 0 and hand(state, 0) == ["5-0", "5-2"]
    with pytest.raises(IllegalMove, match="may only play the 5-2 just drawn"):
        apply(state, move("0 play 5-0 on 0"))
    state = run(state, "0 play 5-2 on 0")
    assert train_tiles(state, 0) == ["9-5", "5-2"]


def test_hunt_for_the_engine_draws_seat_by_seat_from_the_starter():
    state = start("classic", ["5-3", "4-2"], "1-0 8-8 9-9 7-7", starter=1)
    assert not state.engine_laid and state.turn == 1
    with pytest.raises(IllegalMove, match="must draw to find the 9-9"):
        apply(state, move("1 pass"))
    state = run(state, "1 draw", "0 draw", "1 draw")
    assert state.engine_laid and state.turn == 1
    assert hand(state, 1) == ["4-2", "1-0"] and hand(state, 0) == ["5-3", "8-8"]
    assert state.boneyard_count == 1


def test_the_holder_lays_the_engine_and_leads():
    state = start("classic", ["5-3", "9-9 4-2"], "1-0")
    assert state.engine_laid and state.turn == 1 and hand(state, 1) == ["4-2"]


def test_mexican_train_is_open_once_started_and_its_first_tile_matches_the_engine():
    state = start(house(), ["9-5 4-4", "9-1 1-0"], "8-8")
    assert not state.trains[MEXICAN].open
    state = run(state, "0 play 9-5 on mexican")
    assert state.trains[MEXICAN].open and train_tiles(state, MEXICAN) == ["9-5"]


def test_states_are_immutable_values():
    before = start(house(), ["9-5 4-4", "9-1 1-0"], "8-8")
    after = apply(before, move("0 play 9-5 on 0"))
    assert hand(before, 0) == ["9-5", "4-4"] and hand(after, 0) == ["4-4"]
    assert train_tiles(before, 0) == []
    with pytest.raises(AttributeError):
        Tile(1, 1).high = 2  # type: ignore[misc]


def test_a_draw_naming_a_tile_takes_that_tile_wherever_it_lies_in_the_boneyard():
    # Tracked hands: the table does not know the face-down order, the tap tells it.
    state = start(house(), ["9-5", "8-1"], boneyard="4-3 7-2 6-0")
    state = run(state, "0 draw 7-2")
    assert hand(state, 0) == ["9-5", "7-2"]
    assert state.boneyard_count == 2
    assert state.turn == 1  # the 7-2 does not fit: marker up, turn over
    state = run(state, "1 draw")  # an unnamed draw still takes the next one
    assert hand(state, 1) == ["8-1", "4-3"]
    with pytest.raises(IllegalMove, match="The 7-2 isn't in the boneyard"):
        apply(state, move("0 draw 7-2"))


def test_a_game_before_its_first_round_has_no_trains_yet():
    assert new_game(Options.preset("classic"), 4).trains == {}
