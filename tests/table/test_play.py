"""Playing with open hands: taps play, DRAW and PASS act for the seat to play, refusals
leave the game as it was, undo is journaled, and a restart resumes exactly."""

from __future__ import annotations

import json

from hardware.events import Button, ReaderOffline, TagPlaced, TagRemoved

# Tournament rules, four seats: double-12, engine set aside, Bo joined first and leads.


def started(rig_factory, **kwargs):
    rig = rig_factory(rules="tournament", **kwargs)
    rig.start(1, 0, 2, 3)
    return rig


def train(view, seat):
    return next(t for t in view["trains"] if t["id"] == str(seat))


def test_the_table_names_the_engine_and_who_leads(rig_factory):
    view = started(rig_factory).view
    assert view["phase"] == "play"
    assert view["engine"] == "12-12" and view["engine_laid"]
    assert view["turn"] == 1
    assert view["prompt"] == (
        "Each seat takes 12 tiles. Put the 12-12 in the hub. "
        "Bo: lay your train, then PASS (or DRAW if you cannot start it)"
    )
    assert [s["hand"] for s in view["seats"]] == [12, 12, 12, 12]
    assert view["boneyard"] == 91 - 1 - 4 * 12


def test_a_tap_plays_that_tile_on_the_pads_train_oriented_as_laid(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    view = rig.tap(1, "10-5")
    assert train(view, 1)["tiles"] == ["12-5", "5-10"]
    assert view["last_play"] == {"seat": 1, "train": "1", "tile": "5-10"}
    assert view["seats"][1]["hand"] == 10
    assert [e["action"] for e in rig.entries()] == [
        {"seat": 1, "play": "12-5", "on": 1},
        {"seat": 1, "play": "10-5", "on": 1},
    ]


def test_a_refused_tap_shows_the_engines_sentence_and_changes_nothing(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    before = rig.view
    view = rig.tap(1, "7-3")
    assert view["rejection"] == {
        "seat": 1, "text": "That tile doesn't match the open 5 of Bo's train.",
    }
    assert {k: v for k, v in view.items() if k != "rejection"} == {
        k: v for k, v in before.items() if k != "rejection"
    }
    assert len(rig.entries()) == 1
    # The next accepted move clears the refusal.
    assert rig.tap(1, "5-3")["rejection"] is None


def test_a_press_at_another_seat_is_not_your_turn(rig_factory):
    rig = started(rig_factory)
    for button in (Button.DRAW, Button.PASS):
        view = rig.press(2, button)
        assert view["rejection"] == {"seat": 2, "text": "Not your turn: it's Bo's turn."}
        assert view["turn"] == 1 and view["boneyard"] == 42
    assert rig.entries() == []


def test_draw_and_pass_act_for_the_seat_to_play_and_the_marker_goes_out(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    view = rig.press(1, Button.PASS)
    assert view["turn"] == 2
    view = rig.press(2)
    assert view["seats"][2]["hand"] == 13 and view["boneyard"] == 41
    assert view["prompt"] == "Cy: play the drawn tile or PASS"
    view = rig.press(2, Button.PASS)
    assert view["turn"] == 3
    assert train(view, 2)["open"] and view["seats"][2]["marker_expected"]
    assert "Cy: put your marker out" in view["alerts"]


def test_sensed_markers_are_compared_and_a_mismatch_never_blocks_play(rig_factory):
    rig = started(rig_factory)
    rig.readers_online()
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    rig.press(2)
    view = rig.press(2, Button.PASS)
    assert view["seats"][2]["marker_sensed"] is False
    assert "Cy: put your marker out" in view["alerts"]
    rig.send(TagPlaced("2", "M2"))
    view = rig.view
    assert view["seats"][2]["marker_sensed"] is True
    assert view["alerts"] == []
    rig.send(TagPlaced("0", "M0"))  # Ana's marker out on a closed train
    assert "Ana: take your marker back" in rig.view["alerts"]
    view = rig.tap(3, "12-1")  # play goes on all the same
    assert train(view, 3)["tiles"] == ["12-1"]
    rig.send(TagRemoved("0", "M0"))
    assert rig.view["alerts"] == []


def test_reader_health_is_shown_and_an_offline_pad_senses_nothing(rig_factory):
    rig = started(rig_factory)
    rig.readers_online()
    rig.send(ReaderOffline("2", "unplugged"))
    view = rig.view
    assert {"pad": "2", "online": False, "reason": "unplugged"} in view["readers"]
    assert {"pad": "mexican", "online": True, "reason": None} in view["readers"]
    assert view["seats"][2]["marker_sensed"] is None
    assert view["seats"][1]["marker_sensed"] is False


def test_a_pending_double_is_announced_in_order(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    view = rig.tap(1, "5-5")
    assert view["pending_doubles"] == [{"train": "1", "tile": "5-5", "order": 1}]
    assert view["prompt"] == "Bo: satisfy the 5-5 on Bo's train"
    view = rig.press(1, Button.PASS)  # the first-turn train ends on the double
    assert view["turn"] == 2
    assert view["prompt"] == "Cy: satisfy the 5-5 on Bo's train"
    view = rig.tap(2, "12-6")
    assert "5-5" in view["rejection"]["text"]
    assert view["pending_doubles"] == [{"train": "1", "tile": "5-5", "order": 1}]


def test_the_undo_card_undoes_again_and_again_and_is_journaled(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    rig.tap(1, "5-3")
    assert train(rig.card("undo"), 1)["tiles"] == ["12-5"]
    assert train(rig.card("undo"), 1)["tiles"] == []
    view = rig.card("undo")
    assert view["rejection"]["text"] == "There is nothing to undo."
    assert [e["t"] for e in rig.entries()] == ["action", "action", "undo", "undo"]


def test_holding_pass_undoes_only_your_own_last_move(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    rig.press(1, Button.PASS)
    view = rig.hold(3, Button.PASS)
    assert "Di has nothing to undo" in view["rejection"]["text"]
    view = rig.hold(1, Button.PASS)  # Bo's PASS is undone: his turn again
    assert view["turn"] == 1 and train(view, 1)["tiles"] == ["12-5"]
    assert rig.entries()[-1] == {"t": "undo", "by": 1}
    # Holding PASS never also acts as a plain PASS.
    assert [e["t"] for e in rig.entries()] == ["action", "action", "undo"]


def test_a_restart_resumes_exactly_where_the_game_was(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    rig.tap(1, "5-5")
    rig.press(1)
    rig.card("undo")
    rig.tap(1, "5-2")
    rig.press(1, Button.PASS)
    before = rig.view
    again = rig.restart()
    after = again.view
    assert {k: v for k, v in after.items() if k != "readers"} == {
        k: v for k, v in before.items() if k != "readers"
    }
    assert again.press(2, Button.PASS)["rejection"]["text"] == "Draw a tile before passing."


def test_the_public_view_is_json_and_shows_no_hand(rig_factory):
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    view = rig.view
    json.dumps(view)
    assert set(view) == {
        "version", "seq", "language", "wall_language", "phase", "preset", "options", "hand_mode",
        "set", "round", "rounds",
        "engine", "engine_laid", "turn", "seats", "trains", "pending_doubles", "boneyard",
        "prompt", "rejection", "alerts", "scores", "round_engines", "totals", "ranking",
        "readers", "last_play", "revealed", "went_out", "stage",
    }
    assert all(isinstance(s["hand"], int) for s in view["seats"])
    assert view["options"] == {
        "engine": "set_aside", "first_turn": "train", "double_follow": "anywhere",
        "chicken_foot": False, "double_blank": 0,
    }
    assert (view["set"], view["round"], view["rounds"]) == (12, 1, 13)


def test_under_classic_a_seat_that_cannot_start_its_train_passes_without_drawing(rig_factory):
    # the Lithuanian text: a seat that cannot start its train on its first turn puts its marker up;
    # "they do not draw from the boneyard" (`first_turn_draw` off).
    rig = rig_factory(rules="classic")
    rig.start(0, 1, 2, 3)
    rig.tap(2, "12-12")  # Cy holds the engine and leads
    rig.tap(2, "12-3")
    view = rig.press(2, Button.PASS)
    assert view["turn"] == 3
    boneyard = view["boneyard"]
    view = rig.press(3)  # DRAW
    assert view["rejection"] == {
        "seat": 3,
        "text": "A seat that cannot start its train on its first turn does not draw: press PASS.",
    }
    assert view["boneyard"] == boneyard and view["seats"][3]["hand"] == 15
    view = rig.press(3, Button.PASS)
    assert view["turn"] == 0 and view["boneyard"] == boneyard
    assert train(view, 3)["open"] and view["seats"][3]["marker_expected"]
    assert [e["action"] for e in rig.entries() if "action" in e][-1] == {"seat": 3, "pass": True}


def _satisfied_by_cy(rig_factory):
    """Tournament: Bo's first-turn line ends on 5-5, which Cy satisfies on Bo's pad on
    her own first turn."""
    rig = started(rig_factory)
    rig.tap(1, "12-5")
    rig.tap(1, "5-5")
    rig.press(1, Button.PASS)
    view = rig.tap(1, "5-2")
    assert view["turn"] == 2 and view["pending_doubles"] == []
    assert view["prompt"] == "Cy: lay your train, then PASS (or DRAW if you cannot start it)"
    return rig


def test_a_first_turn_that_satisfied_a_double_draws_if_it_cannot_start_under_tournament(
    rig_factory,
):
    # The Persian text: "players unable to start their train must draw"; the tile Cy lays
    # on Bo's double does not use up that draw.
    rig = _satisfied_by_cy(rig_factory)
    view = rig.press(2)  # DRAW
    assert view["rejection"] is None and view["seats"][2]["hand"] == 12
    assert view["prompt"] == "Cy: play the drawn tile or PASS"
    view = rig.press(2, Button.PASS)
    assert view["turn"] == 3 and train(view, 2)["open"]
    assert "Cy: put your marker out" in view["alerts"]


def test_a_first_turn_that_satisfied_a_double_may_stop_there_under_tournament(rig_factory):
    # A seat holding a tile to start its train may stop after the double: the table,
    # which does not see Cy's tiles, takes her PASS without a draw as that, and asks for
    # no marker. It once refused it ("Draw a tile before passing.").
    rig = _satisfied_by_cy(rig_factory)
    view = rig.press(2, Button.PASS)
    assert view["rejection"] is None and view["turn"] == 3
    assert not train(view, 2)["open"] and view["seats"][2]["hand"] == 11
    assert not any(alert.startswith("Cy:") for alert in view["alerts"])


def test_a_first_turn_that_satisfied_a_double_is_told_to_pass_under_classic(rig_factory):
    # The Lithuanian text: a seat that cannot start its train on its first turn puts its
    # marker up and does not draw, though it laid a tile on the double.
    rig = rig_factory(rules="classic")
    rig.start(0, 1, 2, 3)
    rig.tap(2, "12-12")  # Cy holds the engine and leads
    rig.tap(2, "12-3")
    rig.tap(2, "3-3")
    rig.press(2, Button.PASS)
    view = rig.tap(2, "3-1")  # Di satisfies the double on Cy's pad
    assert view["turn"] == 3 and view["pending_doubles"] == []
    assert view["prompt"] == "Di: lay your train, then PASS (at once if you cannot start it)"
    boneyard = view["boneyard"]
    view = rig.press(3)  # DRAW
    assert view["rejection"] == {
        "seat": 3,
        "text": "A seat that cannot start its train on its first turn does not draw: press PASS.",
    }
    view = rig.press(3, Button.PASS)
    assert view["turn"] == 0 and view["boneyard"] == boneyard
    assert train(view, 3)["open"] and "Di: put your marker out" in view["alerts"]
