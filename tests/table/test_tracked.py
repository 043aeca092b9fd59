"""Tracked hands: the deal and every draw are tapped on the seat's own pad."""

from __future__ import annotations

from tracked_deal import HANDS, dealt

from firmware_py.rules import Tile, set_tiles
from hardware.events import Button, ReaderOffline, ReaderOnline


def test_the_deal_counts_the_tiles_each_seat_taps_on_its_own_pad(rig_factory):
    rig = rig_factory(rules="tournament", hand_mode="tracked")
    view = rig.start(0, 1, 2, 3)
    assert view["phase"] == "deal"
    assert view["prompt"] == (
        "Round 1: put the 12-12 in the hub, then tap your dealt tiles on your own pad "
        "(Ana 0/12, Bo 0/12, Cy 0/12, Di 0/12)"
    )
    view = rig.tap(1, "12-12")
    assert view["rejection"]["text"] == "The 12-12 is this round's engine: put it in the hub."
    view = rig.tap("mexican", "3-1")
    assert view["rejection"]["text"] == "Tap your dealt tiles on your own pad."
    rig.tap(1, "3-1")
    view = rig.tap(2, "1-3")
    assert view["rejection"]["text"] == "The 3-1 has already been dealt."
    assert [s["hand"] for s in view["seats"]] == [0, 1, 0, 0]
    assert view["boneyard"] == 91 - 1 - 1


def test_the_round_starts_when_every_hand_is_complete(rig_factory):
    rig = dealt(rig_factory)
    view = rig.view
    assert view["phase"] == "play" and view["turn"] == 0
    assert [s["hand"] for s in view["seats"]] == [12, 12, 12, 12]
    assert rig.table.moment.state.hands == tuple(tuple(h) for h in HANDS)
    view = rig.tap(0, "5-5")
    assert view["rejection"]["text"] == "Ana doesn't hold the 5-5."


def test_a_draw_waits_for_the_drawn_tile_on_the_seats_own_pad(rig_factory):
    rig = dealt(rig_factory)
    rig.tap(0, "12-0")
    rig.press(0, Button.PASS)
    view = rig.press(1)
    assert view["prompt"] == "Bo: tap the tile you drew on your own pad"
    assert view["seats"][1]["hand"] == 12
    assert rig.press(1, Button.PASS)["rejection"]["text"] == (
        "Bo: tap the tile you drew on your own pad."
    )
    assert rig.tap(2, "8-5")["rejection"]["text"] == "Bo: tap the tile you drew on your own pad."
    assert rig.tap(1, "10-10")["rejection"]["text"] == (
        "The 10-10 was dealt: tap a tile from the boneyard.")
    view = rig.tap(1, "6-2")  # any face-down tile: their order is unknown
    assert view["seats"][1]["hand"] == 13 and view["boneyard"] == 90 - 48 - 1
    assert rig.table.moment.state.hands[1][-1] is Tile(6, 2)
    assert view["turn"] == 2  # the 6-2 cannot start Bo's train: his turn is over


def test_draws_in_any_order_survive_undo_and_restart(rig_factory):
    rig = dealt(rig_factory)
    rig.tap(0, "12-0")
    rig.press(0, Button.PASS)
    rig.press(1)
    rig.tap(1, "8-5")
    rig.press(2)
    rig.tap(2, "6-2")
    view = rig.card("undo")
    assert view["prompt"] == "Cy: tap the tile you drew on your own pad"
    rig.tap(2, "7-7")
    before = rig.view
    assert [s["hand"] for s in before["seats"]] == [11, 13, 13, 12]
    assert before["turn"] == 3
    again = rig.restart()
    assert {k: v for k, v in again.view.items() if k != "readers"} == {
        k: v for k, v in before.items() if k != "readers"
    }
    hands = again.table.moment.state.hands
    assert hands == rig.table.moment.state.hands
    assert (hands[1][-1], hands[2][-1]) == (Tile(8, 5), Tile(7, 7))


def test_a_drawn_tile_whose_pad_is_offline_is_asked_for_once_it_is_back(rig_factory):
    rig = dealt(rig_factory)
    rig.readers_online()
    rig.tap(0, "12-0")
    rig.press(0, Button.PASS)
    view = rig.press(1)  # Bo draws: the tile is to be tapped on his pad
    assert view["prompt"] == "Bo: tap the tile you drew on your own pad"
    rig.send(ReaderOffline("1", "unplugged"))
    assert rig.view["prompt"] == (
        "Bo: your pad's reader is offline; reconnect it to tap the tile you drew, "
        "or hold PASS to take the DRAW back"
    )
    view = rig.hold(1, Button.PASS)
    assert view["seats"][1]["hand"] == 12 and view["turn"] == 1
    rig.send(ReaderOnline("1"))
    view = rig.press(1)
    assert view["prompt"] == "Bo: tap the tile you drew on your own pad"


def test_a_refused_tap_never_says_whose_hand_holds_the_tile(rig_factory):
    # The public view (and so the view socket, which carries nothing else) shows hands as
    # counts only: a refusal must not tell the table where a hidden tile is.
    rig = rig_factory(rules="tournament", hand_mode="tracked")
    rig.start(0, 1, 2, 3)
    names = [s["name"] for s in rig.view["seats"]]
    for e, hand in enumerate(HANDS):
        for tile in hand[:3]:
            rig.tap(e, str(tile))
    for hand in HANDS:
        for tile in hand[:3]:
            for pad in range(4):
                text = rig.tap(pad, str(tile))["rejection"]["text"]
                assert text == f"The {tile} has already been dealt."
                assert not any(name in text for name in names)
    rig.journal.close()
    rig = dealt(rig_factory)
    rig.tap(0, "12-0")
    rig.press(0, Button.PASS)
    rig.press(1)  # Bo draws: the tile he taps must come from the boneyard
    for holder in (0, 2, 3):
        for tile in rig.table.moment.state.hands[holder]:
            text = rig.tap(1, str(tile))["rejection"]["text"]
            assert text == f"The {tile} was dealt: tap a tile from the boneyard."
            assert names[holder] not in text


def test_a_drawn_tile_that_satisfies_the_double_owed_must_be_laid_on_it(rig_factory):
    # docs/rules.md, core rule 9 over `drawn_tile: may_play` (the Lithuanian text "Tai turi būti
    # daroma", it must be done): Ana's first-turn line ends on 5-5; Bo holds no 5, draws 5-1 and may
    # not keep it.
    plain = [t for t in reversed(set_tiles(12)) if not t.matches(5) and t is not Tile(12, 12)]
    hands = [[Tile(12, 5), Tile(5, 5), *plain[:10]], plain[10:22], plain[22:34], plain[34:46]]
    rig = rig_factory(rules="tournament", hand_mode="tracked")
    rig.start(0, 1, 2, 3)
    for e, hand in enumerate(hands):
        for tile in hand:
            rig.tap(e, str(tile))
    rig.tap(0, "12-5")
    rig.tap(0, "5-5")
    rig.press(0, Button.PASS)
    rig.press(1)
    view = rig.tap(1, "5-1")
    assert view["turn"] == 1
    assert rig.press(1, Button.PASS)["rejection"]["text"] == (
        "The 5-1 you drew satisfies the 5-5 on Ana's train: lay it there."
    )
    view = rig.tap(0, "5-1")
    assert view["turn"] == 1 and rig.table.moment.state.pending_doubles == ()
    # Its first turn goes on (a line on its own train, or PASS).
    assert rig.press(1, Button.PASS)["turn"] == 2
