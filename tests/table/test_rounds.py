"""Rounds from start to end: who leads, the hunt for the engine, leftover tiles shown
with open hands, the round summary, the end of the game and the next one."""

from __future__ import annotations

from hardware.events import Button

CHAIN = ["9-1", "1-2", "2-3", "3-4", "4-5", "5-6", "6-7", "7-8"]  # from the 9-9 engine
LEFT = ["0-0", "8-0", "8-1", "8-2", "8-3", "8-4", "8-5", "8-6"]


def two_seats_one_out(rig_factory, rounds):
    """Tournament, two seats (double-9, 8 tiles): Ana lays her whole hand as her
    first-turn train and goes out."""
    rig = rig_factory(rules={"preset": "tournament", "rounds": rounds}, seats=2)
    rig.start(0, 1)
    for tile in CHAIN:
        rig.tap(0, tile)
    return rig


def test_open_hands_end_with_each_seat_showing_its_leftover_tiles(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=2)
    view = rig.view
    assert view["phase"] == "round_over" and view["turn"] is None
    assert view["prompt"] == "Tap your leftover tiles on your own pad, then PASS (Bo 0/8)"
    # The wall fills the round in as seats show: Ana went out, Bo is still to show.
    assert view["revealed"] == [0, None] and view["went_out"] == 0
    rig.tap(1, "9-1")  # a tile on the table: the engine says no when Bo presses PASS
    for tile in LEFT[:7]:
        rig.tap(1, tile)
    view = rig.press(1, Button.PASS)
    assert "9-1" in view["rejection"]["text"]
    assert view["prompt"].endswith("(Bo 8/8)")
    view = rig.tap(1, "9-1")  # tapped again: taken back
    assert view["prompt"].endswith("(Bo 7/8)")
    rig.tap(1, LEFT[7])
    view = rig.press(1, Button.PASS)
    pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in LEFT))
    assert view["scores"] == [[0, pips]] and view["totals"] == [0, pips]
    assert view["round_engines"] == ["9-9"]
    assert view["revealed"] is None and view["went_out"] == 0
    assert view["prompt"] == "Round 1 over (Ana went out): hold DRAW for round 2"


def test_the_summary_stays_until_draw_is_held_then_the_table_asks_who_leads(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=2)
    for tile in LEFT:
        rig.tap(1, tile)
    rig.press(1, Button.PASS)
    view = rig.press(0)
    assert view["phase"] == "round_over"
    assert "hold DRAW" in view["rejection"]["text"]
    view = rig.hold(1)
    assert view["phase"] == "deal" and view["engine"] == "8-8"
    assert view["prompt"] == "Round 2: put the 8-8 in the hub; the first seat to press DRAW leads"
    view = rig.press(1)
    assert view["phase"] == "play" and view["round"] == 2 and view["turn"] == 1
    assert [s["hand"] for s in view["seats"]] == [8, 8]


def test_the_game_ends_with_the_ranking_and_a_new_one_keeps_the_seats(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=1)
    for tile in LEFT:
        rig.tap(1, tile)
    view = rig.press(1, Button.PASS)
    assert view["phase"] == "game_over"
    assert view["ranking"] == [0, 1]
    assert view["prompt"] == "Game over: Ana wins. Hold DRAW for a new game with the same seats"
    [game] = rig.journal.games()
    assert game.winner == "Ana"
    view = rig.hold(1)
    assert view["phase"] == "play" and view["round"] == 1 and view["scores"] == []
    assert [s["name"] for s in view["seats"]] == ["Ana", "Bo"]
    assert len(rig.journal.games()) == 2


def test_the_undo_card_takes_back_the_move_that_ended_the_game_and_its_result(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=1)
    for tile in LEFT:
        rig.tap(1, tile)
    assert rig.press(1, Button.PASS)["phase"] == "game_over"
    view = rig.card("undo")  # Bo's PASS is taken back: his tiles are still shown
    assert view["phase"] == "round_over" and view["ranking"] is None
    assert view["prompt"].endswith("(Bo 8/8)")
    [game] = rig.journal.games()
    assert game.finished is None and game.winner is None
    again = rig.restart()  # the game is open again, where it was
    assert again.view["prompt"] == view["prompt"]
    view = again.press(1, Button.PASS)
    assert view["phase"] == "game_over" and view["ranking"] == [0, 1]
    [game] = again.journal.games()
    assert game.finished is not None and game.winner == "Ana"
    again.journal.close()


def test_draw_after_a_game_goes_back_to_the_lobby_with_the_seats_joined(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=1)
    for tile in LEFT:
        rig.tap(1, tile)
    rig.press(1, Button.PASS)
    view = rig.press(1)  # Bo leaves
    assert view["phase"] == "lobby"
    assert [s["joined"] for s in view["seats"]] == [True, False]
    view = rig.press(1)
    assert [s["joined"] for s in view["seats"]] == [True, True]


def test_the_holder_taps_the_engine_or_the_seats_hunt_for_it(rig_factory):
    rig = rig_factory(rules="classic")  # the engine is dealt: whoever holds it leads
    view = rig.start(0, 1, 2, 3)
    assert view["phase"] == "deal" and view["engine"] == "12-12"
    assert view["prompt"] == (
        "Round 1: take 15 tiles each. Whoever has the 12-12, tap it on your own pad; "
        "nobody? Ana: press DRAW"
    )
    view = rig.tap(2, "12-3")
    assert view["rejection"]["text"] == "First find the 12-12: tap it on your own pad."
    assert "Ana's turn to draw" in rig.press(1)["rejection"]["text"]
    view = rig.press(0)
    assert [s["hand"] for s in view["seats"]] == [16, 15, 15, 15]
    assert view["boneyard"] == 91 - 61
    assert view["prompt"].endswith("nobody? Bo: press DRAW")
    view = rig.tap(2, "12-12")  # Cy had it: Cy lays it and leads
    assert view["phase"] == "play" and view["engine_laid"] and view["turn"] == 2
    assert [s["hand"] for s in view["seats"]] == [16, 15, 14, 15]
    assert [e["t"] for e in rig.entries()] == ["hunt", "holder"]
    again = rig.restart()
    assert again.view["seats"] == view["seats"]


def test_a_chicken_foot_grows_where_the_tapped_tile_fits(rig_factory):
    rig = rig_factory(rules={"preset": "tournament", "chicken_foot": True})
    rig.start(0, 1, 2, 3)
    # Ana's first-turn line goes on along one branch of its 5-5 (docs/rules.md, "The options", "one
    # connected line"); the next seats fill the other two, each on the empty branch it fits.
    for tile in ("12-5", "5-5", "5-1"):
        rig.tap(0, tile)
    rig.press(0, Button.PASS)
    # Bo's first turn lays its tile on the double and cannot start his own train: under
    # tournament he draws first, and his marker goes up.
    rig.tap(0, "5-2")
    rig.press(1)
    view = rig.press(1, Button.PASS)
    branches = view["trains"][0]["branches"]
    assert [b["tiles"] for b in branches] == [["5-1"], ["5-2"], []]
    assert view["trains"][1]["open"]
    rig.tap(0, "5-3")
    rig.press(2)
    rig.press(2, Button.PASS)
    rig.tap(3, "12-6")
    rig.press(3, Button.PASS)
    view = rig.tap(0, "2-4")
    assert [b["tiles"] for b in view["trains"][0]["branches"]][1] == ["5-2", "2-4"]
    assert view["last_play"] == {"seat": 0, "train": "0", "tile": "2-4"}


def test_a_seat_down_to_one_tile_is_announced(rig_factory):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1}, seats=2)
    rig.start(0, 1)
    for tile in CHAIN[:6]:
        view = rig.tap(0, tile)
    assert view["alerts"] == [] and not view["seats"][0]["one_tile"]
    view = rig.tap(0, CHAIN[6])
    assert view["alerts"] == ["Ana has one tile left"]
    assert view["seats"][0]["one_tile"] and not view["seats"][1]["one_tile"]


def test_the_undo_card_reaches_back_over_the_end_of_a_round(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=2)
    for tile in LEFT:
        rig.tap(1, tile)
    rig.press(1, Button.PASS)
    rig.hold(0)
    rig.press(0)  # Ana leads round 2
    assert rig.card("undo")["prompt"].endswith("the first seat to press DRAW leads")
    assert rig.card("undo")["prompt"] == "Round 1 over (Ana went out): hold DRAW for round 2"
    view = rig.card("undo")  # Bo's leftover tiles are back to be shown
    assert view["phase"] == "round_over" and view["prompt"].endswith("(Bo 8/8)")
    assert view["scores"] == []


def test_the_new_game_card_after_a_game_keeps_the_seats_and_admin_is_answered(rig_factory):
    rig = two_seats_one_out(rig_factory, rounds=1)
    for tile in LEFT:
        rig.tap(1, tile)
    rig.press(1, Button.PASS)
    view = rig.card("admin")
    assert view["rejection"]["text"] == "The admin card is not for playing: the table ignores it."
    view = rig.card("new_game")
    assert view["phase"] == "play" and [s["name"] for s in view["seats"]] == ["Ana", "Bo"]
