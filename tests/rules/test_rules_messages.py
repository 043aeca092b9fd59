"""IllegalMove sentences: each names what is wrong so a player can put it right."""

import pytest
from rules_helpers import house, move, run, start

from firmware_py.rules import IllegalMove, StartRound, apply

HANDS = ["9-5 5-5 4-4 8-1", "9-1 1-0 6-6"]


def _refusal(state, text):
    with pytest.raises(IllegalMove) as refused:
        apply(state, move(text))
    return str(refused.value)


def test_refusals_read_as_sentences():
    begun = start(house(), HANDS, "8-8 7-7")
    assert _refusal(begun, "1 play 9-1 on 1") == "It's seat 0's turn."
    assert (
        _refusal(begun, "0 play 8-1 on 0")
        == "That tile doesn't match the open 9 of seat 0's train."
    )
    assert _refusal(begun, "0 play 6-6 on 0") == "Seat 0 doesn't hold the 6-6."
    assert _refusal(begun, "0 play 9-5 on 1") == "Seat 1's train is closed."
    assert _refusal(begun, "0 play 9-5 on 7") == "There is no train 7 at this table."
    assert _refusal(begun, "0 pass") == "Draw a tile before passing."
    drawn = run(begun, "0 draw")
    assert drawn.turn == 1
    doubled = run(start(house(), HANDS, "8-8 7-7"), "0 play 9-5 on 0", "1 play 9-1 on 1")
    doubled = run(doubled, "0 play 5-5 on 0", "0 draw")
    assert (
        _refusal(doubled, "1 play 1-0 on 1")
        == "Seat 1 must satisfy the 5-5 on seat 0's train first."
    )
    assert _refusal(doubled, "1 pass") == "Draw a tile before passing."


def test_drawing_twice_and_from_an_empty_boneyard_are_refused():
    state = start(house(draw="one", drawn_tile="may_play"), ["9-5 4-4", "9-1 2-0"], "5-2")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert _refusal(state, "0 draw") == "The boneyard is empty."
    state = start(house(), ["9-5 4-4", "9-1 2-0"], "5-2 3-3")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert _refusal(state, "0 draw") == "You have already drawn this turn."


def test_out_of_round_moves_say_where_the_game_is():
    over = run(start(house(rounds=1), ["9-5", "9-1"], "8-8"), "0 play 9-5 on 0")
    assert _refusal(over, "1 pass") == "The game is over."
    with pytest.raises(IllegalMove, match="The game is over"):
        apply(over, StartRound(None, None))
    between = run(start(house(), ["9-5", "9-1"], "8-8"), "0 play 9-5 on 0")
    assert _refusal(between, "1 pass") == "The round is over."


def test_a_first_turn_train_is_one_line():
    state = start("classic", ["9-9 9-5 5-3 9-4", "9-2 2-0"], "6-6")
    state = run(state, "0 play 9-5 on 0")
    assert (
        _refusal(state, "0 play 9-4 on mexican")
        == "Seat 0's first turn is a line on seat 0's train."
    )
    assert (
        _refusal(state, "0 draw") == "You have played this turn; press PASS to end your first turn."
    )
