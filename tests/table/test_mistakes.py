"""What a game night gets wrong: presses at the wrong seat in every stage, taps on the
wrong pad, cards at odd moments, undo reaching back over the deal. Each is answered on
screen and leaves the game and the journal as they were."""

from __future__ import annotations

from faults import tiny_disk
from tracked_deal import HANDS, dealt

from firmware_py.rules import Tile, set_tiles
from hardware.events import Button, ReaderOffline, TagPlaced, TagRemoved

CHAIN = ["9-1", "1-2", "2-3", "3-4", "4-5", "5-6", "6-7", "7-8"]  # from the 9-9 engine
LEFT = ["0-0", "8-0", "8-1", "8-2", "8-3", "8-4", "8-5", "8-6"]  # Bo's
NINES = ["9-0", "9-2", "9-3", "9-4", "9-5", "9-6", "9-7", "9-8"]  # Cy's


def same_game(before, after):
    """Everything but the refusal is as it was."""
    return {k: v for k, v in after.items() if k != "rejection"} == {
        k: v for k, v in before.items() if k != "rejection"
    }


def three_seats_ana_out(rig_factory, rounds=2):
    """Tournament, three seats (double-9, 8 tiles each): Ana lays her whole hand."""
    rig = rig_factory(rules={"preset": "tournament", "rounds": rounds}, seats=3)
    rig.start(0, 1, 2)
    for tile in CHAIN:
        rig.tap(0, tile)
    return rig


def played_out(rig_factory):
    """A one-round game at its final ranking: Ana out, Bo and Cy have shown their tiles."""
    rig = three_seats_ana_out(rig_factory, rounds=1)
    for seat, tiles in ((1, LEFT), (2, NINES)):
        for tile in tiles:
            rig.tap(seat, tile)
        rig.press(seat, Button.PASS)
    return rig


def test_the_wrong_seat_in_the_hunt_changes_nothing(rig_factory):
    rig = rig_factory(rules="classic")
    rig.start(0, 1, 2, 3)
    before = rig.view
    for seat, button in ((2, Button.DRAW), (0, Button.PASS)):
        view = rig.press(seat, button)
        assert view["rejection"]["seat"] == seat
        assert same_game(before, view)
    assert rig.view["rejection"]["text"] == "First find the 12-12: tap it on your own pad."
    assert rig.entries() == []


def test_in_a_later_round_pass_does_not_lead_and_draw_at_any_seat_does(rig_factory):
    rig = three_seats_ana_out(rig_factory)  # tournament: `starter: chosen`
    for seat, tiles in ((1, LEFT), (2, NINES)):
        for tile in tiles:
            rig.tap(seat, tile)
        rig.press(seat, Button.PASS)
    rig.hold(2)
    before, count = rig.view, len(rig.entries())
    view = rig.press(1, Button.PASS)
    assert view["rejection"] == {"seat": 1, "text": "Press DRAW to lead this round."}
    assert same_game(before, view) and len(rig.entries()) == count
    view = rig.tap(1, "5-5")
    assert view["rejection"]["text"] == "First choose who leads: the first seat to press DRAW."
    view = rig.press(2)
    assert view["phase"] == "play" and view["turn"] == 2


def test_buttons_during_the_reveal_and_the_summary_are_answered(rig_factory):
    rig = three_seats_ana_out(rig_factory)
    before = rig.view
    view = rig.press(1)
    assert view["rejection"] == {
        "seat": 1, "text": "Tap your leftover tiles on your own pad, then PASS.",
    }
    view = rig.tap("mexican", "8-0")
    assert view["rejection"]["text"] == "Tap your leftover tiles on your own pad."
    view = rig.tap(0, "8-0")  # Ana went out: nothing to show
    assert view["rejection"]["text"] == "Ana has already shown the leftover tiles."
    assert same_game(before, view) and rig.entries()[-1]["t"] == "action"
    for seat, tiles in ((1, LEFT), (2, NINES)):
        for tile in tiles:
            rig.tap(seat, tile)
        rig.press(seat, Button.PASS)
    before, count = rig.view, len(rig.entries())
    assert before["prompt"] == "Round 1 over (Ana went out): hold DRAW for round 2"
    for seat, button in ((0, Button.DRAW), (1, Button.PASS)):
        view = rig.press(seat, button)
        assert view["rejection"] == {
            "seat": seat, "text": "The round is over: hold DRAW for the next round.",
        }
        assert same_game(before, view)
    view = rig.tap(1, "8-0")
    assert view["rejection"]["text"] == "The round is over: hold DRAW for the next round."
    assert len(rig.entries()) == count


def test_holding_pass_reaches_back_over_the_end_of_a_round(rig_factory):
    rig = three_seats_ana_out(rig_factory)
    assert rig.view["phase"] == "round_over"
    view = rig.hold(1, Button.PASS)  # Ana went out, not Bo
    assert view["rejection"]["text"] == "Bo has nothing to undo: the last move was not yours."
    view = rig.hold(0, Button.PASS)  # Ana takes back the tile that ended the round
    assert view["phase"] == "play" and view["turn"] == 0
    assert view["trains"][0]["tiles"][-1] == "6-7"
    assert view["seats"][0]["hand"] == 1 and view["alerts"] == ["Ana has one tile left"]
    # The undo names who held PASS, so a replay checks it as the table did.
    assert rig.entries()[-1] == {"t": "undo", "by": 0}


LAY = "lay your train, then PASS (or DRAW if you cannot start it)"  # tournament's first turn


def test_the_undo_card_walks_a_tracked_game_back_into_the_deal(rig_factory):
    rig = dealt(rig_factory)
    rig.tap(0, "12-0")
    rig.press(0, Button.PASS)
    rig.press(1)
    rig.tap(1, "8-5")
    steps = [
        ("play", [11, 12, 12, 12], "Bo: tap the tile you drew on your own pad"),
        ("play", [11, 12, 12, 12], f"Bo: {LAY}"),
        ("play", [11, 12, 12, 12], f"Ana: {LAY}"),
        ("play", [12, 12, 12, 12], f"Put the 12-12 in the hub. Ana: {LAY}"),
        ("deal", [12, 12, 12, 11], None),
        ("deal", [12, 12, 12, 10], None),
    ]
    for phase, hands, prompt in steps:
        view = rig.card("undo")
        assert (view["phase"], [s["hand"] for s in view["seats"]]) == (phase, hands)
        if prompt is not None:
            assert view["prompt"] == prompt
    assert view["prompt"].endswith("(Ana 12/12, Bo 12/12, Cy 12/12, Di 10/12)")
    assert view["boneyard"] == 91 - 1 - 46
    # The tiles undone are tapped again; a tile still dealt is not.
    assert rig.tap(3, str(HANDS[2][0]))["rejection"]["text"] == (
        f"The {HANDS[2][0]} has already been dealt."
    )
    rig.tap(3, str(HANDS[3][-2]))
    view = rig.tap(3, str(HANDS[3][-1]))
    assert view["phase"] == "play" and view["turn"] == 0
    again = rig.restart()
    assert again.table.moment.state.hands == rig.table.moment.state.hands


def test_holding_pass_takes_back_a_tracked_draw_and_its_tile(rig_factory):
    rig = dealt(rig_factory)
    rig.tap(0, "12-0")
    rig.press(0, Button.PASS)
    rig.press(1)
    view = rig.tap("mexican", "8-5")  # the drawn tile on the wrong pad
    assert view["rejection"]["text"] == "Bo: tap the tile you drew on your own pad."
    assert view["seats"][1]["hand"] == 12
    view = rig.tap(1, "8-5")
    assert view["turn"] == 2 and view["seats"][1]["hand"] == 13
    view = rig.hold(2, Button.PASS)
    assert view["rejection"]["text"] == "Cy has nothing to undo: the last move was not yours."
    view = rig.hold(1, Button.PASS)
    assert view["turn"] == 1 and view["seats"][1]["hand"] == 12
    assert view["prompt"] == "Bo: tap the tile you drew on your own pad"
    view = rig.hold(1, Button.PASS)
    assert view["prompt"] == "Bo: lay your train, then PASS (or DRAW if you cannot start it)"
    assert [e["t"] for e in rig.entries()][-4:] == ["drawing", "action", "undo", "undo"]
    assert rig.table.moment.state.boneyard_count == 91 - 1 - 48


def test_markers_and_cards_during_the_deal_leave_the_deal_alone(rig_factory):
    rig = rig_factory(rules="tournament", hand_mode="tracked")
    rig.start(0, 1, 2, 3)
    rig.tap(1, "3-1")
    before = rig.view
    rig.tap(1, "M1")  # a marker on its pad is sensed, never dealt
    view = rig.card("next_preset")
    assert view["rejection"]["text"] == "The preset can change between games only."
    assert view["preset"] == "tournament"
    view = rig.tap(1, "13-1")
    assert view["rejection"]["text"] == "The 13-1 is not in this game's double-12 set."
    view = rig.press(2, Button.PASS)
    assert view["rejection"]["text"] == (
        "The deal is not finished: tap your dealt tiles on your own pad."
    )
    assert same_game(before, view)
    assert rig.entries() == [{"t": "dealt", "seat": 1, "tile": "3-1"}]
    view = rig.card("undo")
    assert [s["hand"] for s in view["seats"]] == [0, 0, 0, 0]


def test_a_new_game_after_the_ranking_can_have_fewer_seats(rig_factory):
    rig = played_out(rig_factory)
    before, games = rig.view, rig.journal.games()
    assert before["phase"] == "game_over"
    view = rig.press(0, Button.PASS)
    assert view["rejection"] == {
        "seat": 0, "text": "The game is over: hold DRAW for a new game with the same seats.",
    }
    assert same_game(before, view) and rig.journal.games() == games
    view = rig.press(2)  # Cy goes home: the lobby, Cy no longer joined
    assert view["phase"] == "lobby"
    assert [s["joined"] for s in view["seats"]] == [True, True, False]
    view = rig.hold(1)
    assert view["phase"] == "play" and [s["name"] for s in view["seats"]] == ["Ana", "Bo"]
    assert view["engine"] == "9-9" and [s["hand"] for s in view["seats"]] == [8, 8]
    assert view["turn"] == 0  # Ana joined first
    assert rig.journal.open_game()[1]["players"] == ["Ana", "Bo"]
    assert len(rig.journal.games()) == 2


def test_a_refused_reveal_names_the_seat_that_pressed_pass(rig_factory):
    rig = three_seats_ana_out(rig_factory)
    before = rig.view
    view = rig.press(1, Button.PASS)  # before tapping anything
    assert view["rejection"] == {"seat": 1, "text": "Bo holds 8 tiles, not 0."}
    view = rig.press(0, Button.PASS)  # Ana went out
    assert view["rejection"] == {"seat": 0, "text": "Ana has nothing to reveal."}
    assert same_game(before, view) and rig.entries()[-1]["t"] == "action"


def test_holding_draw_in_play_is_answered_and_draws_nothing(rig_factory):
    rig = rig_factory(rules="tournament")
    rig.start(1, 0, 2, 3)
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    before = rig.view
    for seat in (2, 3):  # the seat to play, held too long; another seat
        view = rig.hold(seat)
        assert view["rejection"] == {
            "seat": seat, "text": "Holding DRAW does nothing now: press it and let go.",
        }
        assert same_game(before, view)
    assert len(rig.entries()) == 2
    view = rig.press(2)
    assert view["seats"][2]["hand"] == 13 and view["rejection"] is None


def test_a_tile_tapped_at_the_ranking_says_how_to_go_on(rig_factory):
    rig = played_out(rig_factory)
    view = rig.tap(0, "5-5")
    assert view["phase"] == "game_over"
    assert view["rejection"]["text"] == (
        "The game is over: hold DRAW for a new game with the same seats."
    )


def test_a_pad_outside_the_game_keeps_the_capitals_of_its_seats_name(rig_factory):
    rig = rig_factory(rules="tournament", seats=3, names=("Ana", "Bo", "DeShawn"))
    rig.start(0, 1)
    view = rig.tap(2, "9-1")
    assert view["rejection"]["text"] == "DeShawn's pad is not a train of this game."
    assert view["trains"][0]["tiles"] == []


def test_markers_on_each_others_pads_are_named_where_they_lie(rig_factory):
    rig = rig_factory(rules="tournament")
    rig.start(1, 0, 2, 3)
    rig.readers_online()
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    for seat in (2, 3):  # Cy and Di draw and pass: their trains open
        rig.press(seat)
        rig.press(seat, Button.PASS)
    assert rig.view["alerts"] == ["Cy: put your marker out", "Di: put your marker out"]
    rig.send(TagPlaced("3", "M2"))
    rig.send(TagPlaced("2", "M3"))
    rig.send(TagPlaced("mexican", "M1"))  # Bo's train is closed
    view = rig.view
    assert view["alerts"] == [
        "Bo: take your marker back from the Mexican train's pad",
        "Cy: move your marker from Di's pad to your own pad",
        "Di: move your marker from Cy's pad to your own pad",
    ]
    assert [s["marker_sensed"] for s in view["seats"]] == [False, False, False, False]
    view = rig.tap(0, "12-1")  # play goes on all the same
    assert view["trains"][0]["tiles"] == ["12-1"]
    for pad, uid in (("3", "M2"), ("2", "M3"), ("mexican", "M1")):
        rig.send(TagRemoved(pad, uid))
    rig.send(TagPlaced("2", "M2"))
    rig.send(TagPlaced("3", "M3"))
    assert rig.view["alerts"] == []


def test_the_next_preset_card_at_the_ranking_shows_the_lobby_with_the_seats(rig_factory):
    rig = played_out(rig_factory)
    assert rig.view["phase"] == "game_over"
    view = rig.card("next_preset")
    assert view["phase"] == "lobby" and view["preset"] == "family"
    assert [s["joined"] for s in view["seats"]] == [True, True, True]
    assert view["rejection"] is None
    view = rig.hold(1)
    assert view["preset"] == "family" and [s["name"] for s in view["seats"]] == ["Ana", "Bo", "Cy"]
    assert rig.journal.open_game()[1]["preset"] == "family"


def test_a_restart_in_a_game_keeps_the_preset_chosen_for_it(rig_factory):
    rig = rig_factory(rules="classic")
    rig.card("next_preset")
    rig.start(0, 1)
    assert rig.view["preset"] == "tournament"
    again = rig.restart()
    assert again.view["preset"] == "tournament"
    again.card("new_game")
    view = again.card("new_game")  # abandoned: the lobby as it was before the power cut
    assert view["phase"] == "lobby" and view["preset"] == "tournament"


def test_a_leftover_tile_shown_by_another_seat_or_from_another_set_is_refused(rig_factory):
    rig = three_seats_ana_out(rig_factory)
    rig.tap(1, "8-0")
    before, count = rig.view, len(rig.entries())
    view = rig.tap(2, "0-8")
    assert view["rejection"]["text"] == "The 8-0 is already shown by Bo."
    view = rig.tap(2, "12-5")  # a tile of the double-12 box, not of this double-9 game
    assert view["rejection"]["text"] == "The 12-5 is not in this game's double-9 set."
    assert same_game(before, view) and len(rig.entries()) == count
    assert view["prompt"].endswith("(Bo 1/8, Cy 0/8)")
    for tile in [LEFT[0], *LEFT[2:]]:
        rig.tap(1, tile)
    view = rig.press(1, Button.PASS)
    assert view["prompt"].endswith("(Cy 0/8)")
    view = rig.tap(2, "8-3")  # Bo's, revealed
    assert view["rejection"]["text"] == "The 8-3 is already shown by Bo."


def test_the_seat_whose_tap_starts_the_round_can_take_it_back(rig_factory):
    rig = dealt(rig_factory)  # Di's last dealt tile started the round
    assert rig.view["phase"] == "play"
    view = rig.hold(0, Button.PASS)
    assert view["rejection"]["text"] == "Ana has nothing to undo: the last move was not yours."
    view = rig.hold(3, Button.PASS)
    assert view["phase"] == "deal" and [s["hand"] for s in view["seats"]] == [12, 12, 12, 11]
    assert rig.entries()[-1] == {"t": "undo", "by": 3}


def test_the_holder_who_taps_the_engine_can_take_it_back(rig_factory):
    rig = rig_factory(rules="classic")
    rig.start(0, 1, 2, 3)
    view = rig.tap(2, "12-12")
    assert view["phase"] == "play" and view["turn"] == 2
    view = rig.hold(2, Button.PASS)
    assert view["phase"] == "deal" and view["prompt"].endswith("nobody? Ana: press DRAW")
    assert [s["hand"] for s in view["seats"]] == [15, 15, 15, 15]


def test_abandoning_needs_the_new_game_card_twice_in_a_row(rig_factory):
    rig = rig_factory(rules="tournament")
    rig.start(1, 0, 2, 3)
    asked = "A game is running: tap the new-game card again to abandon it."
    for between in (lambda: rig.tap(1, "7-3"), lambda: rig.card("undo")):
        assert rig.card("new_game")["rejection"]["text"] == asked
        between()  # a refused tile, a refused undo: the question is forgotten
        view = rig.card("new_game")
        assert view["phase"] == "play" and view["rejection"]["text"] == asked
        rig.press(2)  # a press (refused too) forgets it as well
    rig.card("new_game")
    rig.send(TagPlaced("0", "M0"))  # a marker is sensed, not an input
    view = rig.card("new_game")
    assert view["phase"] == "lobby" and rig.journal.open_game() is None


def test_a_tracked_hunt_draw_that_turns_up_the_engine_lets_that_seat_lead(rig_factory):
    rig = rig_factory(rules={"preset": "classic", "set": 6}, hand_mode="tracked", seats=2)
    rig.start(0, 1)
    tiles = [t for t in set_tiles(6) if t is not Tile(6, 6)]
    for e in range(2):
        for tile in tiles[7 * e : 7 * e + 7]:
            rig.tap(e, str(tile))
    view = rig.view
    assert view["phase"] == "deal" and view["prompt"] == "Ana: press DRAW to look for the 6-6"
    assert rig.press(1)["rejection"]["text"] == "Not your turn: it's Ana's turn."
    rig.press(0)
    view = rig.tap(0, "6-6")
    assert view["phase"] == "play" and view["engine_laid"] and view["turn"] == 0
    assert [s["hand"] for s in view["seats"]] == [7, 7] and view["boneyard"] == 28 - 15
    # Ana leads: nothing drawn is waiting to be played.
    assert view["prompt"] == "Ana: lay your train, then PASS (at once if you cannot start it)"


def test_a_reader_going_offline_mid_turn_leaves_reminders_at_the_changes(rig_factory):
    rig = rig_factory(rules="tournament")
    rig.start(1, 0, 2, 3)
    rig.readers_online()
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    rig.press(2)
    rig.press(2, Button.PASS)  # Cy's train opens; his marker goes out
    rig.send(TagPlaced("2", "M2"))
    rig.tap(3, "12-1")
    rig.press(3, Button.PASS)
    rig.tap(0, "12-3")
    rig.press(0, Button.PASS)
    rig.send(ReaderOffline("2", "unplugged"))  # while Bo is playing
    offline = "The reader of Cy's pad is offline: unplugged"
    view = rig.view
    assert view["seats"][2]["marker_sensed"] is None and view["alerts"] == [offline]
    assert {"pad": "2", "online": False, "reason": "unplugged"} in view["readers"]
    # The alert belongs to the seat whose pad it is: its panel shows it.
    assert rig.table.view().to_json()["alerts"][0]["seat"] == 2
    view = rig.tap(1, "5-2")
    assert view["turn"] == 2 and view["alerts"] == [offline]
    view = rig.tap(2, "12-6")  # Cy's train closes: the table reminds him without seeing
    assert view["trains"][2]["tiles"] == ["12-6"] and not view["trains"][2]["open"]
    assert view["turn"] == 3 and view["alerts"] == [offline, "Cy: take your marker back"]
    view = rig.press(3)
    assert view["seats"][3]["hand"] == 12 and view["alerts"] == [offline]


FULL = "The table's disk is full: nothing was lost. Free some space."


def test_a_full_disk_keeps_the_move_that_ends_the_game_and_its_result_together(
        rig_factory, tmp_path):
    with tiny_disk(tmp_path) as disk:  # the rig's journal lives in tmp_path
        rig = three_seats_ana_out(rig_factory, rounds=1)
        for tile in LEFT:
            rig.tap(1, tile)
        rig.press(1, Button.PASS)
        for tile in NINES:
            rig.tap(2, tile)
        before, entries = rig.view, rig.entries()
        disk.fill()
        view = rig.press(2, Button.PASS)  # the last reveal: it would end the game
        assert view["rejection"] == {"seat": None, "text": FULL}
        assert same_game(before, view) and rig.entries() == entries
        assert rig.journal.games()[0].finished is None
        disk.free()
        over = rig.press(2, Button.PASS)
        assert over["phase"] == "game_over" and over["rejection"] is None
        [game] = rig.journal.games()
        assert game.finished and game.winner == "Ana"

        # Undoing at the ranking takes back the move and the result in one write.
        entries = rig.journal.entries(game.id)
        disk.fill()
        view = rig.card("undo")
        assert view["rejection"]["text"] == FULL and same_game(over, view)
        assert rig.journal.games() == [game] and rig.journal.entries(game.id) == entries
        disk.free()
        view = rig.card("undo")
        assert view["phase"] == "round_over" and view["rejection"] is None
        assert rig.journal.games()[0].finished is None
        again = rig.restart()
        assert again.view["phase"] == "round_over"
