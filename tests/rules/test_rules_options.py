"""Every option of docs/rules.md, "The options" changes what the engine does.

Each test plays the same position under two values of one option and checks the
difference a player would notice; ignoring the option would make one half fail.
"""

import pytest
from rules_helpers import hand, house, move, run, start, tiles, train_tiles

from firmware_py.rules import (
    BadDeal,
    BadOptions,
    IllegalMove,
    Options,
    StartRound,
    apply,
    deal,
    legal_actions,
    new_game,
    ranking,
)


def _pending(state):
    return [str(tile) for _, tile in state.pending_doubles]


def test_deal_table_override_changes_set_and_hand_size():
    assert Options.preset("tournament").deal_for(4) == (12, 12)
    custom = Options.from_json({"preset": "tournament", "deal": {"4": [12, 9]}})
    assert custom.deal_for(4) == (12, 9)
    state = new_game(custom, 4)
    start_round = deal(state, 7)
    assert [len(h) for h in start_round.hands] == [9, 9, 9, 9]
    assert custom.to_json() == {"preset": "tournament", "deal": {"4": [12, 9]}}
    two_sets = Options.from_json({"preset": "hub", "deal": {"2": [[9, 8], [12, 10]]}})
    assert two_sets.deal_for(2) == (9, 8)
    assert Options.preset("hub", deal=two_sets.deal, set=12).deal_for(2) == (12, 10)
    assert Options.from_json(two_sets.to_json()) == two_sets


def test_set_picks_the_preset_deal_for_that_set():
    assert Options.preset("hub").deal_for(3) == (12, 16)
    assert Options.preset("hub", set=9).deal_for(3) == (9, 13)
    state = new_game(Options.preset("hub", set=9), 3)
    start_round = deal(state, 1)
    assert str(start_round.engine) == "9-9"
    assert [len(h) for h in start_round.hands] == [13, 13, 13]
    with pytest.raises(BadDeal, match="double-9"):
        Options.preset("hub", set=9).deal_for(5)


def test_rounds_sets_the_length_of_the_game():
    for rounds, phase, ranked in ((1, "game_over", (0, 1)), (None, "round_over", None)):
        state = start(house(rounds=rounds), ["9-5", "9-1"], "8-8")
        state = run(state, "0 play 9-5 on 0")
        assert state.phase == phase and state.ranking == ranked


def test_engine_set_aside_is_dealt_to_nobody_and_the_starter_leads():
    aside = new_game(Options.preset("tournament"), 2)
    dealt = deal(aside, 3)
    assert all(dealt.engine not in h for h in dealt.hands) and dealt.engine not in dealt.boneyard
    state = apply(aside, StartRound((tiles("5-3"), tiles("9-2")), tiles("1-1"), starter=1))
    assert state.engine_laid and state.turn == 1


def test_engine_holder_lays_it_and_leads_wherever_the_starter_is():
    held = Options.preset("tournament", engine="holder")
    state = apply(
        new_game(held, 2), StartRound((tiles("5-3"), tiles("9-9 9-2")), tiles("1-1"), starter=0)
    )
    assert state.turn == 1 and hand(state, 1) == ["9-2"]
    dealt = deal(new_game(held, 2), 3)
    assert sum(h.count(dealt.engine) for h in dealt.hands) + dealt.boneyard.count(dealt.engine) == 1


def test_starter_rotate_moves_the_lead_each_round():
    for starter, lead in (("chosen", 0), ("rotate", 1)):
        state = start(house(starter=starter), ["9-5", "9-1"], "8-8")
        state = run(state, "0 play 9-5 on 0")
        state = apply(state, StartRound((tiles("8-1"), tiles("8-2")), tiles("3-3")))
        assert state.turn == lead


def test_first_turn_train_lays_a_line_until_pass_single_ends_after_one_tile():
    hands = ["9-9 9-5 5-3 8-1", "9-2 2-0 7-7"]
    train = start("classic", hands, "6-6 4-1")
    train = run(train, "0 play 9-5 on 0", "0 play 5-3 on 0")
    assert train.turn == 0 and train_tiles(train, 0) == ["9-5", "5-3"]
    train = run(train, "0 pass")
    assert train.turn == 1 and not train.trains[0].open
    single = start(Options.preset("classic", first_turn="single"), hands, "6-6 4-1")
    single = run(single, "0 play 9-5 on 0")
    with pytest.raises(IllegalMove, match="It's seat 1's turn"):
        apply(single, move("0 play 5-3 on 0"))


def test_first_turn_elsewhere_lets_the_first_tile_start_the_mexican_train():
    hands = ["9-5 5-3", "9-2 2-0"]
    with pytest.raises(IllegalMove, match="only play on its own train"):
        apply(start(house(first_turn_elsewhere=False), hands, "6-6"), move("0 play 9-5 on mexican"))
    state = run(start(house(first_turn_elsewhere=True), hands, "6-6"), "0 play 9-5 on mexican")
    assert train_tiles(state, "mexican") == ["9-5"]


def test_first_turn_out_waits_lets_the_others_take_their_first_turn():
    hands = ["9-9 9-5 5-3", "9-2 2-0 7-7"]
    waits = run(start("classic", hands, "6-6"), "0 play 9-5 on 0", "0 play 5-3 on 0")
    assert waits.phase == "play" and waits.turn == 1 and waits.went_out == 0
    waits = run(waits, "1 play 9-2 on 1", "1 play 2-0 on 1", "1 pass")
    assert waits.phase == "round_over" and waits.scores == ((0, 14),)
    at_once = start(Options.preset("classic", first_turn_out_waits=False), hands, "6-6")
    at_once = run(at_once, "0 play 9-5 on 0", "0 play 5-3 on 0")
    assert at_once.phase == "round_over" and at_once.scores == ((0, 27),)


HANDS = ["9-5 5-5 9-1 1-1 7-4", "9-2 2-0 5-3 1-3"]


def _after_two_doubles(**overrides):
    """Seat 0 lays 5-5 on its train and 1-1 on the Mexican train, then fails to follow."""
    state = start(house(**overrides), HANDS, "6-3 8-8")
    return run(
        state,
        "0 play 9-1 on mexican",
        "1 play 9-2 on 1",
        "0 play 9-5 on 0",
        "1 play 2-0 on 1",
        "0 play 5-5 on 0",
        "0 play 1-1 on mexican",
        "0 draw",
    )


def test_double_follow_on_double_keeps_the_extra_tile_on_the_double():
    state = start(house(), ["9-5 5-5 9-1 5-2", "9-2 2-0 3-0"], "6-6")
    state = run(state, "0 play 9-5 on 0", "1 play 9-2 on 1", "0 play 5-5 on 0")
    anywhere = run(state, "0 play 9-1 on mexican")
    assert anywhere.turn == 1 and _pending(anywhere) == ["5-5"]
    follow = start(house(double_follow="on_double"), ["9-5 5-5 9-1 5-2", "9-2 2-0 3-0"], "6-6")
    follow = run(follow, "0 play 9-5 on 0", "1 play 9-2 on 1", "0 play 5-5 on 0")
    with pytest.raises(IllegalMove, match="must satisfy the 5-5"):
        apply(follow, move("0 play 9-1 on mexican"))
    follow = run(follow, "0 play 5-2 on 0")
    assert _pending(follow) == []


def test_doubles_per_turn_limits_the_doubles_in_one_turn():
    state = _after_two_doubles()
    assert _pending(state) == ["5-5", "1-1"] and state.turn == 1
    start_state = start(house(doubles_per_turn=1), HANDS, "6-3 8-8")
    limited = run(
        start_state,
        "0 play 9-1 on mexican",
        "1 play 9-2 on 1",
        "0 play 9-5 on 0",
        "1 play 2-0 on 1",
        "0 play 5-5 on 0",
    )
    with pytest.raises(IllegalMove, match="At most 1 double"):
        apply(limited, move("0 play 1-1 on mexican"))


def test_doubles_order_decides_which_pending_double_comes_first():
    played = _after_two_doubles()
    with pytest.raises(IllegalMove, match="must satisfy the 5-5"):
        apply(played, move("1 play 1-3 on mexican"))
    assert _pending(run(played, "1 play 5-3 on 0")) == ["1-1"]
    reverse = _after_two_doubles(doubles_order="reverse")
    assert _pending(reverse) == ["1-1", "5-5"]
    with pytest.raises(IllegalMove, match="must satisfy the 1-1"):
        apply(reverse, move("1 play 5-3 on 0"))
    assert _pending(run(reverse, "1 play 1-3 on mexican")) == ["5-5"]


def test_open_double_blocks_can_be_relaxed():
    blocks = _after_two_doubles()
    with pytest.raises(IllegalMove, match="must satisfy"):
        apply(blocks, move("1 play 1-3 on mexican"))
    relaxed = _after_two_doubles(open_double_blocks=False)
    relaxed = run(relaxed, "1 play 1-3 on mexican")
    assert _pending(relaxed) == ["5-5"] and relaxed.turn == 0


def test_dead_double_releases_the_block():
    hands = ["9-5 5-5 9-1 4-4", "9-2 2-0 2-1"]
    for releases, pending in ((False, ["5-5"]), (True, [])):
        state = start(house(dead_double_releases=releases), hands, "6-3 8-8")
        state = run(state, "0 play 9-5 on 0", "1 play 9-2 on 1", "0 play 5-5 on 0", "0 draw")
        assert _pending(state) == pending
        if releases:
            state = run(state, "1 play 2-0 on 1")
            assert train_tiles(state, 1) == ["9-2", "2-0"]
        else:
            with pytest.raises(IllegalMove, match="must satisfy the 5-5"):
                apply(state, move("1 play 2-0 on 1"))


def test_chicken_foot_needs_three_tiles_on_a_double():
    hands = ["9-5 5-5 5-3 5-2 7-7", "9-2 5-1 2-0 3-3"]
    plain = start(house(), hands, "6-6 8-8")
    plain = run(plain, "0 play 9-5 on 0", "1 play 9-2 on 1", "0 play 5-5 on 0", "0 play 5-3 on 0")
    assert _pending(plain) == [] and train_tiles(plain, 0) == ["9-5", "5-5", "5-3"]
    foot = start(house(chicken_foot=True), hands, "6-6 8-8")
    foot = run(foot, "0 play 9-5 on 0", "1 play 9-2 on 1", "0 play 5-5 on 0")
    with pytest.raises(IllegalMove, match="has branches"):
        apply(foot, move("0 play 5-3 on 0"))
    foot = run(foot, "0 play 5-3 on 0 branch 1")
    assert _pending(foot) == ["5-5"] and foot.turn == 1
    assert [len(b.tiles) for b in foot.trains[0].branches] == [0, 1, 0]
    foot = run(foot, "1 play 5-1 on 0 branch 0", "0 play 5-2 on 0 branch 2")
    assert _pending(foot) == []
    assert [str(e) for _, e in foot.trains[0].ends()] == ["1", "3", "2"]


def test_a_first_turn_line_through_a_chicken_foot_double_stays_one_line():
    # docs/rules.md, "The options", `first_turn: train`: "as many tiles as it likes on its own
    # train, as one connected line"; with the Persian text's chicken-foot variation a double in that
    # line grows three ends, and the line goes on along one of them.
    hands = ["9-5 5-5 5-1 5-2 1-0 8-8", "9-3 5-3 6-6"]
    foot = Options.preset("tournament", chicken_foot=True)
    state = run(start(foot, hands, "7-7 7-0", starter=0), "0 play 9-5 on 0", "0 play 5-5 on 0")
    five_one = tiles("5-1")[0]
    assert {a.branch for a in legal_actions(state) if getattr(a, "tile", None) is five_one} == {
        0,
        1,
        2,
    }
    state = run(state, "0 play 5-1 on 0 branch 0")
    with pytest.raises(IllegalMove, match="first turn is a line on seat 0's train"):
        apply(state, move("0 play 5-2 on 0 branch 1"))
    assert move("0 play 5-2 on 0 branch 1") not in legal_actions(state)
    state = run(state, "0 play 1-0 on 0 branch 0", "0 pass")
    assert [len(b.tiles) for b in state.trains[0].branches] == [2, 0, 0]
    assert _pending(state) == ["5-5"] and state.turn == 1
    # Without a foot the line is the train's one end, as before.
    plain = run(
        start("tournament", hands, "7-7 7-0", starter=0),
        "0 play 9-5 on 0",
        "0 play 5-5 on 0",
        "0 play 5-1 on 0",
        "0 play 1-0 on 0",
        "0 pass",
    )
    assert train_tiles(plain, 0) == ["9-5", "5-5", "5-1", "1-0"] and _pending(plain) == []


def test_draw_until_playable_keeps_the_seat_drawing():
    hands = ["9-5 4-4", "9-1 1-0 6-6"]
    one = run(start(house(), hands, "8-8 7-7 5-2"), "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert one.turn == 1 and one.trains[0].open
    until = start(house(draw="until_playable"), hands, "8-8 7-7 5-2")
    until = run(until, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert until.turn == 0
    with pytest.raises(IllegalMove, match="Keep drawing"):
        apply(until, move("0 pass"))
    until = run(until, "0 draw", "0 draw", "0 play 5-2 on 0")
    assert until.turn == 1 and hand(until, 0) == ["4-4", "8-8", "7-7"]


def test_drawn_tile_must_play_forbids_keeping_a_playable_draw():
    hands = ["9-5 4-4", "9-1 1-0 6-6"]
    may = run(
        start(house(), hands, "5-2"), "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw", "0 pass"
    )
    assert may.turn == 1 and may.trains[0].open
    must = start(house(drawn_tile="must_play"), hands, "5-2")
    must = run(must, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    with pytest.raises(IllegalMove, match="must play the 5-2 you drew"):
        apply(must, move("0 pass"))


def test_must_play_forbids_drawing_with_a_playable_tile():
    hands = ["9-5 5-3 4-4", "9-1 1-0 6-6"]
    free = run(start(house(), hands, "8-8"), "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")
    assert free.turn == 1
    must = run(start(house(must_play=True), hands, "8-8"), "0 play 9-5 on 0", "1 play 9-1 on 1")
    assert move("0 draw") not in legal_actions(must)
    with pytest.raises(IllegalMove, match="You can play the 5-3, so you may not draw"):
        apply(must, move("0 draw"))


def test_last_double_ends_round_at_once_or_owes_the_follow_up():
    hands = ["9-5 5-5", "9-1 1-0 6-6"]
    ends = start(house(last_double_ends_round=True), hands, "8-8")
    ends = run(ends, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0")
    assert ends.phase == "round_over" and ends.scores == ((0, 13),)
    owes = start(house(), hands, "8-8")
    owes = run(owes, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0")
    assert owes.phase == "play" and owes.turn == 0
    owes = run(owes, "0 draw")
    assert owes.turn == 1 and hand(owes, 0) == ["8-8"]


@pytest.mark.parametrize("blank", [0, 25, 50])
def test_double_blank_prices_the_0_0(blank):
    state = start(house(double_blank=blank), ["9-5", "9-1 0-0"], "8-8")
    state = run(state, "0 play 9-5 on 0")
    assert state.scores == ((0, 10 + blank),)


def test_tie_break_splits_equal_totals():
    scores = ((5, 0, 10), (5, 10, 0), (0, 0, 0))
    totals = (10, 10, 10)
    shared = Options.preset("tournament")
    assert ranking(shared, scores, totals) == (0, 1, 2)
    # Seats 1 and 2 have two zero rounds, seat 0 one; 1 and 2 both score 10 otherwise.
    assert ranking(Options.preset("classic"), scores, totals) == (1, 2, 0)
    lowest = Options.preset("classic", tie_break=("lowest_round",))
    assert ranking(shared, ((8, 5), (0, 0), (12, 15)), (20, 20)) == (0, 1)
    assert ranking(lowest, ((8, 5), (0, 0), (12, 15)), (20, 20)) == (1, 0)


def test_one_tile_alert_names_the_seats_down_to_one_tile():
    hands = ["9-5 4-4", "9-1 1-0 6-6"]
    on = run(start(house(one_tile_alert=True), hands, "8-8"), "0 play 9-5 on 0")
    assert on.one_tile == (0,)
    off = run(start(house(), hands, "8-8"), "0 play 9-5 on 0")
    assert off.one_tile == ()


def test_house_rule_is_a_preset_plus_overrides_and_round_trips_through_json():
    rule = Options.from_json({"preset": "hub", "doubles_order": "reverse", "double_blank": 25})
    assert rule == Options.preset("hub", doubles_order="reverse", double_blank=25)
    assert rule.to_json() == {"preset": "hub", "doubles_order": "reverse", "double_blank": 25}
    assert Options.from_json(rule.to_json()) == rule
    assert Options.from_json("family") == Options.preset("family")


def test_start_round_checks_the_deal():
    state = new_game(Options.preset("tournament"), 2)
    with pytest.raises(Exception, match="9-9"):
        apply(state, StartRound((tiles("9-9"), tiles("5-3")), ()))
    with pytest.raises(Exception, match="twice"):
        apply(state, StartRound((tiles("5-3"), tiles("3-5")), ()))
    with pytest.raises(Exception, match="3 hands"):
        apply(state, StartRound((tiles("5-3"), tiles("4-1"), tiles("2-2")), ()))


# ---- first_turn_draw, must_play and drawn_tile, hand_size, positions -----------------


@pytest.mark.parametrize("preset", ["classic", "tournament", "simple"])
@pytest.mark.parametrize("first_turn_draw", [True, False])
def test_first_turn_draw_decides_whether_a_seat_unable_to_start_draws(preset, first_turn_draw):
    # tournament: 2 players, 9-9 set aside; classic: 9-9 held by seat 0; simple: 4 seats.
    options = Options.preset(preset, first_turn_draw=first_turn_draw)
    if preset == "simple":
        hands = ["12-12 12-5 8-0", "7-3 2-0", "12-2 9-0", "12-3 11-0"]
        lead = "0 play 12-5 on 0"
    else:
        hands = ["9-9 9-5 8-0", "7-3 2-0"] if preset == "classic" else ["9-5 8-0", "7-3 2-0"]
        lead = "0 play 9-5 on 0"
    engine = "12" if preset == "simple" else "9"
    state = run(start(options, hands, f"{engine}-1 6-6"), lead, "0 pass")
    assert state.turn == 1
    if first_turn_draw:
        # the Persian text: "players unable to start their train must draw"; the drawn tile may
        # start it.
        assert move("1 pass") not in legal_actions(state)
        with pytest.raises(IllegalMove, match="Draw a tile before passing"):
            apply(state, move("1 pass"))
        drawn = run(state, "1 draw")
        assert drawn.turn == 1 and hand(drawn, 1) == ["7-3", "2-0", f"{engine}-1"]
        started = run(drawn, f"1 play {engine}-1 on 1")
        assert train_tiles(started, 1) == [f"{engine}-1"]
    else:
        # the Lithuanian text: "they do not draw from the boneyard"; the Greek text: the player
        # stops.
        assert [str(a) for a in legal_actions(state)] == [str(move("1 pass"))]
        with pytest.raises(IllegalMove, match="does not draw"):
            apply(state, move("1 draw"))
        passed = run(state, "1 pass")
        assert passed.turn == 2 % len(hands) and passed.trains[1].open
        assert passed.boneyard_count == 2 and hand(passed, 1) == ["7-3", "2-0"]


def test_first_turn_draw_off_holds_a_seat_that_can_start_its_train_to_it():
    # must_play: a seat that can start its train may not pass instead.
    state = start("classic", ["9-9 9-5 8-0", "9-3 2-0"], "9-1 6-6")
    state = run(state, "0 play 9-5 on 0", "0 pass")
    with pytest.raises(IllegalMove, match="You can play the 9-3, so you must play"):
        apply(state, move("1 pass"))
    with pytest.raises(IllegalMove, match="may not draw"):
        apply(state, move("1 draw"))


def test_first_turn_draw_off_still_draws_for_a_carried_double():
    # Core rule 9: a seat that cannot satisfy the double draws once, first turn or not.
    hands = ["9-9 9-5 5-5 8-0", "7-3 2-0"]
    state = run(start("classic", hands, "5-1 6-6"), "0 play 9-5 on 0", "0 play 5-5 on 0", "0 pass")
    assert _pending(state) == ["5-5"]
    with pytest.raises(IllegalMove, match="Draw a tile before passing"):
        apply(state, move("1 pass"))
    satisfied = run(state, "1 draw", "1 play 5-1 on 0")
    assert _pending(satisfied) == [] and train_tiles(satisfied, 0)[-1] == "5-1"


def _satisfied_on_first_turn(preset, first_turn_draw, boneyard="9-1 6-6"):
    """Seat 0's first-turn line ends on 5-5; seat 1 satisfies it with 5-2 on its own first
    turn and holds no 9 to start its own train."""
    options = Options.preset(preset, first_turn_draw=first_turn_draw)
    hands = ["9-9 9-5 5-5 9-8", "5-2 7-3"] if preset == "classic" else ["9-5 5-5 9-8", "5-2 7-3"]
    state = run(start(options, hands, boneyard), "0 play 9-5 on 0", "0 play 5-5 on 0", "0 pass")
    state = run(state, "1 play 5-2 on 0")
    assert _pending(state) == [] and state.turn == 1
    return state


@pytest.mark.parametrize("preset", ["classic", "tournament"])
@pytest.mark.parametrize("first_turn_draw", [True, False])
def test_satisfying_a_double_on_a_first_turn_leaves_the_duty_to_start_the_train(
    preset, first_turn_draw
):
    state = _satisfied_on_first_turn(preset, first_turn_draw)
    if first_turn_draw:
        # the Persian text "players unable to start their train must draw": the tile laid on the
        # double does not use up that draw, and the seat may not stop before it.
        assert move("1 draw") in legal_actions(state)
        assert move("1 pass") not in legal_actions(state)
        with pytest.raises(IllegalMove, match="Draw a tile before passing"):
            apply(state, move("1 pass"))
        drawn = run(state, "1 draw")
        assert drawn.turn == 1 and "9-1" in hand(drawn, 1)
        started = run(drawn, "1 play 9-1 on 1")
        assert train_tiles(started, 1) == ["9-1"] and started.turn == 1  # the line goes on
        passed = run(started, "1 pass")
        assert passed.turn == 0 and not passed.trains[1].open
    else:
        # the Lithuanian text: a seat that cannot start its train on its first turn puts its marker
        # up and does not draw, though it laid a tile on the double.
        assert [str(a) for a in legal_actions(state)] == [str(move("1 pass"))]
        with pytest.raises(IllegalMove, match="does not draw") as refused:
            apply(state, move("1 draw"))
        assert refused.value.code == "first_turn_no_draw"
        passed = run(state, "1 pass")
        assert passed.turn == 0 and passed.trains[1].open
        assert passed.boneyard_count == 2 and hand(passed, 1) == ["7-3"]


@pytest.mark.parametrize("preset", ["classic", "tournament"])
def test_a_first_turn_that_satisfied_a_double_and_cannot_start_ends_with_the_marker_up(preset):
    # The drawn tile does not start the train (tournament), or there is no draw (classic):
    # either way the turn ends with seat 1's marker up.
    state = _satisfied_on_first_turn(preset, preset == "tournament", boneyard="6-6 9-1")
    # (Under tournament the drawn 6-6 plays nowhere: the turn ends by itself.)
    state = run(state, "1 draw" if preset == "tournament" else "1 pass")
    assert state.turn == 0 and state.trains[1].open and train_tiles(state, 1) == []
    # The open train is anyone's to play on: seat 0 may now lay its 9-8 there.
    assert move("0 play 9-8 on 1") in legal_actions(state)


def test_a_first_turn_that_satisfied_a_double_may_decline_the_drawn_tile_marker_up():
    # tournament's `drawn_tile: may_play`: the drawn 9-1 would start the train; kept, the
    # train is not started and the marker goes up.
    state = run(_satisfied_on_first_turn("tournament", True), "1 draw", "1 pass")
    assert state.turn == 0 and state.trains[1].open and "9-1" in hand(state, 1)


def test_a_draw_for_the_double_leaves_the_first_turn_draw_for_the_train():
    # Seat 1 holds no 5: it draws for the double (core rule 9) and lays the drawn 5-1 on
    # it; it still cannot start its train, and draws again, its first turn's draw.
    state = run(start("tournament", ["9-5 5-5 9-8", "7-3 2-0"], "5-1 9-2 6-6"),
                "0 play 9-5 on 0", "0 play 5-5 on 0", "0 pass", "1 draw", "1 play 5-1 on 0")
    assert _pending(state) == [] and state.turn == 1
    with pytest.raises(IllegalMove, match="Draw a tile before passing"):
        apply(state, move("1 pass"))
    started = run(state, "1 draw", "1 play 9-2 on 1", "1 pass")
    assert train_tiles(started, 1) == ["9-2"] and not started.trains[1].open


@pytest.mark.parametrize("preset", ["classic", "tournament"])
def test_a_first_turn_that_satisfied_a_double_may_stop_though_it_could_start(preset):
    # Holding 9-3, seat 1 may start its line or stop after the double: a line stops at
    # will, and a seat that stops has not shown it cannot start (no marker, no draw).
    options = Options.preset(preset)
    hands = ["9-9 9-5 5-5 8-0", "5-2 9-3"] if preset == "classic" else ["9-5 5-5 8-0", "5-2 9-3"]
    state = run(start(options, hands, "9-1 6-6"), "0 play 9-5 on 0", "0 play 5-5 on 0", "0 pass",
                "1 play 5-2 on 0")  # fmt: skip
    assert move("1 play 9-3 on 1") in legal_actions(state)
    with pytest.raises(IllegalMove, match="may not draw"):
        apply(state, move("1 draw"))
    stopped = run(state, "1 pass")
    assert stopped.turn == 0 and not stopped.trains[1].open


@pytest.mark.parametrize("must_play", [True, False])
@pytest.mark.parametrize("drawn_tile", ["may_play", "must_play"])
def test_must_play_is_about_drawing_and_drawn_tile_about_the_tile_drawn(must_play, drawn_tile):
    options = house(must_play=must_play, drawn_tile=drawn_tile)
    # Seat 0 holds 5-3, which plays on its own train, and draws 5-1, which plays too.
    holding = run(start(options, ["9-5 5-3 8-1", "9-1 1-0 6-6"], "5-1 7-7"),
                  "0 play 9-5 on 0", "1 play 9-1 on 1")  # fmt: skip
    assert (move("0 draw") in legal_actions(holding)) is not must_play
    with pytest.raises(IllegalMove):  # nobody passes instead of drawing
        apply(holding, move("0 pass"))
    # Seat 0 holds nothing that plays, draws 5-1, which does.
    drew = run(start(options, ["9-5 8-1", "9-1 1-0 6-6"], "5-1 7-7"),
               "0 play 9-5 on 0", "1 play 9-1 on 1", "0 draw")  # fmt: skip
    assert drew.turn == 0
    if drawn_tile == "may_play":
        declined = run(drew, "0 pass")
        assert declined.turn == 1 and declined.trains[0].open and "5-1" in hand(declined, 0)
    else:
        with pytest.raises(IllegalMove, match="You must play the 5-1 you drew"):
            apply(drew, move("0 pass"))
        assert [str(a) for a in legal_actions(drew)] == [str(move("0 play 5-1 on 0"))]


@pytest.mark.parametrize("must_play", [True, False])
def test_must_play_with_an_empty_boneyard_forbids_passing_with_a_playable_tile(must_play):
    state = run(start(house(must_play=must_play), ["9-5 5-3", "9-1 1-0 6-6"]),
                "0 play 9-5 on 0", "1 play 9-1 on 1")  # fmt: skip
    if must_play:
        with pytest.raises(IllegalMove, match="You can play the 5-3, so you must play"):
            apply(state, move("0 pass"))
    else:
        assert run(state, "0 pass").trains[0].open


def test_hand_size_overrides_the_deal_table_and_deals_that_many():
    assert Options.preset("classic", hand_size=10).deal_for(4) == (12, 10)
    three = Options.preset("classic", set=12, hand_size=14)
    assert three.deal_for(3) == (12, 14)  # classic deals three seats double-9 only
    dealt = deal(new_game(three, 3), seed=7)
    assert [len(h) for h in dealt.hands] == [14, 14, 14] and len(dealt.boneyard) == 91 - 42
    assert Options.preset("tournament", set=18, hand_size=11).deal_for(14) == (18, 11)


def test_hand_size_must_leave_a_boneyard_and_a_player_count_of_2_to_14():
    with pytest.raises(BadDeal, match="3 hands of 31 from a double-12 set leave no boneyard: "
                                      "30 tiles per hand at most"):  # fmt: skip
        Options.preset("classic", set=12, hand_size=31).deal_for(3)
    with pytest.raises(BadDeal, match="do not deal for 15 players"):
        Options.preset("classic", set=18, hand_size=5).deal_for(15)
    with pytest.raises(BadDeal, match="do not deal for 3 players"):
        Options.preset("simple", hand_size=14).deal_for(3)  # no set, no table row


@pytest.mark.parametrize("value", [0, -1, True, 2.5, "12"])
def test_hand_size_takes_a_whole_number(value):
    with pytest.raises(BadOptions, match=r"option hand_size does not take .*: it takes a whole"):
        Options.preset("classic", hand_size=value)


def test_a_position_needs_a_set_but_no_deal_table():
    position = Options.preset("simple", set=12)
    state = start(position, ["12-12 12-5", "7-3", "11-2"])  # simple deals four to ten
    assert state.set_size == 12 and state.turn == 0
    counts = apply(new_game(position, 3), StartRound((5, 5, 5), None, 0))
    assert counts.boneyard_count == 91 - 15
    with pytest.raises(BadDeal, match="give the option set"):
        new_game(Options.preset("simple"), 3)
    with pytest.raises(BadDeal, match="do not deal for 3 players"):
        apply(new_game(position, 3), StartRound((5, None, 5), None, 0))  # the table deals one


def test_a_broken_deal_override_is_never_listed_as_supported():
    broken = Options.from_json({"preset": "classic", "deal": {"4": [12, 40]}})
    with pytest.raises(BadDeal) as refused:
        broken.deal_for(4)
    assert "40" not in str(refused.value).split("leave no boneyard")[1]
    with pytest.raises(BadDeal) as unsupported:
        broken.deal_for(1)
    listed = str(unsupported.value)
    assert "40 tiles" not in listed and "; 4 players" not in listed
    assert "5-6 players: double-12, 12 tiles" in listed


def test_a_drawn_tile_kept_under_may_play_does_not_block_the_round():
    # Seat 0 draws the last tile, 5-0, which plays, and keeps it: it can still play, so
    # seat 1's pass does not make every seat pass in a row (docs/rules.md, core rule 10).
    state = start("classic", ["9-9 9-5 8-1", "9-4 3-2"], "5-0")
    state = run(state, "0 play 9-5 on 0", "0 pass", "1 play 9-4 on 1", "1 pass",
                "0 draw", "0 pass", "1 pass")  # fmt: skip
    assert state.phase == "play" and state.turn == 0
    assert [str(a) for a in legal_actions(state)] == [str(move("0 play 5-0 on 0"))]
    must = start(Options.preset("classic", drawn_tile="must_play"), ["9-9 9-5 8-1", "9-4 3-2"],
                 "6-0")  # the drawn tile does not play: a plain pass  # fmt: skip
    must = run(must, "0 play 9-5 on 0", "0 pass", "1 play 9-4 on 1", "1 pass", "0 draw",
               "1 pass")  # fmt: skip
    assert must.phase == "round_over" and must.blocked


# ---- core rule 9 over drawn_tile ------------------------------------------------------
# docs/rules.md, core rule 9: a seat owing a double left by an earlier turn "lays the drawn tile on
# the double if it fits"; the Lithuanian text "Tai turi būti daroma" (it must be done), the Greek
# text "απαιτείται να τοποθετήσει μια πέτρα στο διπλασιασμό" (he is required to lay a stone on the
# double). `drawn_tile: may_play` governs every other drawn tile.


@pytest.mark.parametrize(
    ("preset", "overrides", "hands"),
    [
        ("classic", {}, ["9-9 9-5 5-5 8-0", "7-3 2-0"]),
        ("tournament", {}, ["9-5 5-5 8-0", "7-3 2-0"]),
        ("simple", {"set": 9}, ["9-9 9-5 5-5 8-0", "7-3 2-0"]),
    ],
)
def test_a_drawn_tile_that_satisfies_a_carried_double_must_be_laid_on_it(
    preset, overrides, hands
):
    options = Options.preset(preset, **overrides)
    assert options.drawn_tile == "may_play"
    # Seat 0's first-turn line ends on 5-5, left pending for seat 1, which holds no 5.
    state = run(start(options, hands, "5-1 6-6", starter=0),
                "0 play 9-5 on 0", "0 play 5-5 on 0", "0 pass", "1 draw")  # fmt: skip
    assert state.turn == 1 and "5-1" in hand(state, 1)
    with pytest.raises(IllegalMove) as refused:
        apply(state, move("1 pass"))
    assert refused.value.code == "must_satisfy_drawn"
    assert str(refused.value) == (
        "The 5-1 you drew satisfies the 5-5 on seat 0's train: lay it there."
    )
    assert [str(a) for a in legal_actions(state)] == [str(move("1 play 5-1 on 0"))]
    laid = run(state, "1 play 5-1 on 0")
    assert _pending(laid) == [] and train_tiles(laid, 0)[-1] == "5-1"


def _double_then_follow():
    """Seat 0 lays 5-5 and follows it up on the Mexican train: 5-5 is left to seat 1,
    which holds no 5 (house rules: single first turns)."""
    state = start(house(), ["9-5 5-5 9-3 4-4", "9-1 1-0 3-2"], "5-2 1-6 6-6 7-7")
    return run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0",
               "0 play 9-3 on mexican")  # fmt: skip


def test_the_duty_to_satisfy_outranks_may_play_but_only_for_the_double_owed():
    state = _double_then_follow()
    assert _pending(state) == ["5-5"] and state.turn == 1
    with pytest.raises(IllegalMove, match="satisfy the 5-5 on seat 0's train first"):
        apply(state, move("1 play 1-0 on 1"))
    drew = run(state, "1 draw")
    with pytest.raises(IllegalMove, match="The 5-2 you drew satisfies the 5-5"):
        apply(drew, move("1 pass"))
    assert move("1 pass") not in legal_actions(drew)
    assert _pending(run(drew, "1 play 5-2 on 0")) == []
    # A drawn tile that fits elsewhere (1-6 on its own train) but not the double does
    # not play: the turn is over, marker up, 5-5 still owed.
    other = start(house(), ["9-5 5-5 9-3 4-4", "9-1 1-0 3-2"], "1-6 5-2 6-6")
    other = run(other, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0",
                "0 play 9-3 on mexican", "1 draw")  # fmt: skip
    assert other.turn == 0 and other.trains[1].open and "6-1" in hand(other, 1)
    assert _pending(other) == ["5-5"]


def test_a_seat_may_still_keep_a_drawn_tile_that_would_follow_its_own_double():
    # Rule 8 is `drawn_tile`'s: seat 0 cannot follow its 5-5, draws 5-2, which would,
    # and keeps it (may_play); the double passes to seat 1 with seat 0's marker up.
    state = start(house(), ["9-5 5-5 4-4", "9-1 1-0"], "5-2 6-6")
    state = run(state, "0 play 9-5 on 0", "1 play 9-1 on 1", "0 play 5-5 on 0", "0 draw")
    assert move("0 pass") in legal_actions(state)
    kept = run(state, "0 pass")
    assert kept.turn == 1 and kept.trains[0].open and "5-2" in hand(kept, 0)
    assert _pending(kept) == ["5-5"]


@pytest.mark.parametrize("order", ["played", "reverse"])
def test_the_drawn_tile_must_satisfy_the_double_owed_first(order):
    # Seat 0 lays 5-5, then 3-3 on the Mexican train, cannot follow, draws 8-7 (no
    # play): both are left to seat 1, which draws 3-1. It satisfies 3-3 only.
    options = house(doubles_order=order)
    state = start(options, ["9-5 5-5 3-3 8-1", "9-3 2-0 6-4"], "8-7 3-1 6-6 7-7")
    state = run(state, "0 play 9-5 on 0", "1 play 9-3 on mexican", "0 play 5-5 on 0",
                "0 play 3-3 on mexican", "0 draw")  # fmt: skip
    assert state.turn == 1 and _pending(state) == (
        ["5-5", "3-3"] if order == "played" else ["3-3", "5-5"]
    )
    drew = run(state, "1 draw")
    if order == "played":  # 3-1 cannot go on 5-5: the turn is over, marker up
        assert drew.turn == 0 and drew.trains[1].open and "3-1" in hand(drew, 1)
    else:
        with pytest.raises(IllegalMove, match="The 3-1 you drew satisfies the 3-3"):
            apply(drew, move("1 pass"))
        assert _pending(run(drew, "1 play 3-1 on mexican")) == ["5-5"]



# ---- blocked rounds without must_play -------------------------------------------------


def test_without_must_play_a_round_is_not_blocked_while_a_seat_can_still_play():
    # Core rule 10: blocked only when the boneyard is empty and no seat can play. Seat 0
    # passes holding 5-3, which fits its own train (the house rule lets it).
    state = run(start(house(), ["9-5 5-3", "9-1 8-8"]), "0 play 9-5 on 0", "1 play 9-1 on 1")
    state = run(state, "0 pass", "1 pass")
    assert state.phase == "play" and not state.blocked and state.turn == 0
    state = run(state, "0 pass", "1 pass", "0 pass")  # as often as it likes
    assert state.phase == "play" and state.turn == 1
    out = run(state, "1 pass", "0 play 5-3 on 0")
    assert out.phase == "round_over" and not out.blocked and out.went_out == 0


def test_without_must_play_drawing_the_last_tile_while_holding_a_play_blocks_nothing():
    # Seat 0 draws the boneyard's last tile (6-6, which plays nowhere) though it holds 5-3.
    state = run(start(house(), ["9-5 5-3", "9-1 8-8"], "6-6"), "0 play 9-5 on 0",
                "1 play 9-1 on 1", "0 draw", "1 pass")  # fmt: skip
    assert state.boneyard_count == 0 and state.phase == "play" and state.turn == 0
    assert move("0 play 5-3 on 0") in legal_actions(state)


def test_without_must_play_a_round_is_blocked_once_nobody_can_play():
    state = run(start(house(), ["9-5 5-3 7-7", "9-1 8-8"]), "0 play 9-5 on 0",
                "1 play 9-1 on 1", "0 pass", "1 pass", "0 play 5-3 on 0")  # fmt: skip
    # Neither 7-7 nor 8-8 fits anywhere now: two passes in a row end the round, blocked.
    state = run(state, "1 pass")
    assert state.phase == "play"
    blocked = run(state, "0 pass")
    assert blocked.blocked and blocked.phase == "round_over"
    assert blocked.scores[-1] == (14, 16)
