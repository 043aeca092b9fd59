"""Joining, starting, presets and cards before and between games."""

from __future__ import annotations

import json
import queue
import time

from hardware.events import RANDOM_UID, Button, ReaderOnline, TagPlaced, TagRemoved
from hardware.rfid import open_reader
from hardware.rfid.fake import FakeRdm6300, PtyCable

UID = "67003B51C6"


def test_the_lobby_names_the_set_the_game_will_use(rig_factory):
    rig = rig_factory()  # four seats of classic: a double-12 set, not the double-9 of two
    assert rig.view["set"] == 12 and rig.view["rounds"] == 13
    rig.press(0)
    assert rig.view["set"] == 12
    rig.press(2)
    assert rig.view["set"] == 9  # two joined: two are dealt from a double-9


def test_draw_joins_and_a_second_draw_leaves(rig_factory):
    rig = rig_factory()
    assert rig.view["phase"] == "lobby"
    assert [s["joined"] for s in rig.press(1)["seats"]] == [False, True, False, False]
    rig.press(3)
    assert [s["joined"] for s in rig.press(1)["seats"]] == [False, False, False, True]


def test_holding_draw_starts_with_the_joined_seats_and_the_first_to_join_leads(rig_factory):
    rig = rig_factory(rules="tournament")
    view = rig.start(2, 0, 3)
    assert view["phase"] == "play"
    # In a game the view numbers the players' seats 0, 1, 2 clockwise.
    assert [s["seat"] for s in view["seats"]] == [0, 1, 2]
    assert [s["name"] for s in view["seats"]] == ["Ana", "Cy", "Di"]
    assert view["turn"] == 1  # Cy: tournament lets the table choose who leads
    assert [t["id"] for t in view["trains"]] == ["0", "1", "2", "mexican"]
    assert view["engine"] == "9-9"  # three players: a double-9 set
    assert "Put the 9-9 in the hub" in view["prompt"]
    # The pads keep the table's numbers: pad 2 is Cy's train, pad 3 Di's.
    view = rig.tap(2, "9-5")
    assert [t["tiles"] for t in view["trains"]] == [[], ["9-5"], [], []]
    view = rig.tap(3, "9-1")
    assert view["rejection"]["seat"] == 1
    assert [t["tiles"] for t in view["trains"]] == [[], ["9-5"], [], []]
    meta = rig.journal.open_game()[1]
    assert meta["players"] == ["Ana", "Cy", "Di"]


def test_start_needs_a_joined_seat_and_two_players(rig_factory):
    rig = rig_factory()
    rig.press(0)
    view = rig.hold(1)
    assert view["phase"] == "lobby"
    assert "join first" in view["rejection"]["text"]
    view = rig.hold(0)
    assert view["phase"] == "lobby"
    assert "two seats" in view["rejection"]["text"]
    assert rig.journal.open_game() is None


def test_an_unsupported_player_count_is_refused_with_the_engine_sentence(rig_factory):
    rig = rig_factory(rules="simple")  # simple deals for 4 to 10 players
    view = rig.start(0, 1)
    assert view["phase"] == "lobby"
    assert view["rejection"]["text"] == (
        "The simple rules cannot be played by 2 players: they are for 4-10 players."
    )


def test_new_game_card_starts_and_next_preset_card_cycles(rig_factory):
    rig = rig_factory(rules="classic")
    assert rig.card("next_preset")["preset"] == "tournament"
    assert rig.card("next_preset")["preset"] == "family"
    rig.press(0)
    rig.press(1)
    view = rig.card("new_game")
    assert view["phase"] != "lobby"
    assert view["preset"] == "family"
    view = rig.card("next_preset")
    assert view["preset"] == "family"
    assert "between games" in view["rejection"]["text"]


def test_new_game_card_during_a_game_asks_again_then_abandons(rig_factory):
    rig = rig_factory()
    rig.start(0, 1)
    assert "again" in rig.card("new_game")["rejection"]["text"]
    view = rig.card("new_game")
    assert view["phase"] == "lobby"
    assert rig.journal.open_game() is None
    assert [s["joined"] for s in view["seats"]] == [True, True, False, False]


def dip(rig, pad: str, uid: str, at: float) -> None:
    """One dip of a tag whose frames paused for the removal time: read as two taps."""
    rig.send(TagPlaced(pad, uid, at))
    rig.send(TagRemoved(pad, uid, at + 0.4))
    rig.send(TagPlaced(pad, uid, at + 0.45))
    rig.send(TagRemoved(pad, uid, at + 0.9))


def test_one_dip_of_the_new_game_card_read_as_two_taps_does_not_abandon(rig_factory):
    rig = rig_factory()
    rig.start(0, 1)
    at = time.monotonic() + 10.0
    dip(rig, "mexican", "Cnew_game", at)
    view = rig.view
    assert view["phase"] != "lobby" and "again" in view["rejection"]["text"]
    rig.send(TagPlaced("mexican", "Cnew_game", at + 2.0))  # lifted and tapped again
    assert rig.view["phase"] == "lobby"


def test_one_dip_of_the_undo_card_undoes_once(rig_factory):
    rig = rig_factory(rules="tournament")
    rig.start(1, 0)
    rig.tap(1, "9-5")
    assert rig.tap(1, "5-4")["trains"][1]["tiles"] == ["9-5", "5-4"]
    dip(rig, "mexican", "Cundo", time.monotonic() + 10.0)
    assert rig.view["trains"][1]["tiles"] == ["9-5"]


def test_a_phone_on_a_pad_is_named_as_such(rig_factory):
    rig = rig_factory()
    rig.send(TagPlaced("2", RANDOM_UID))  # any card with a random UID, reported once
    assert rig.view["rejection"]["text"] == "A phone or bank card lies on Cy's pad: take it away."


def test_strangers_are_answered_never_a_crash(rig_factory):
    rig = rig_factory()
    rig.send(TagPlaced("2", "DEADBEEF"))
    assert "Unknown tag DEADBEEF" in rig.view["rejection"]["text"]
    view = rig.press(9)
    assert "Seat 9" in view["rejection"]["text"]
    view = rig.press(1, Button.PASS)
    assert "Press DRAW" in view["rejection"]["text"]
    rig.start(0, 1)
    view = rig.press(3)
    assert "Di is not in this game" in view["rejection"]["text"]
    json.dumps(view)


def test_a_card_whose_frames_pause_during_one_dip_is_one_tap(rig_factory, tmp_path):
    # Bytes to events through the real reader, events to the table.
    rig = rig_factory()
    rig.start(0, 1)
    events: queue.Queue = queue.Queue()
    cable = PtyCable(tmp_path / "pad-mexican")
    card = FakeRdm6300(cable)
    reader = open_reader("mexican", str(cable.path), "rdm6300", events, removal_ms=100)
    try:
        assert events.get(timeout=10) == ReaderOnline("mexican")
        card.place(UID)
        got = [events.get(timeout=10)]
        card.fade(0.15)  # at the edge of the coil: removed, then read again
        got += [events.get(timeout=10), events.get(timeout=10)]
        card.lift(UID)
        got.append(events.get(timeout=10))
    finally:
        reader.close()
        card.close()
        cable.close()
    assert got == [TagPlaced("mexican", UID), TagRemoved("mexican", UID),
                   TagPlaced("mexican", UID), TagRemoved("mexican", UID)]
    for event in got:  # the card is the new-game card
        rig.send(type(event)(event.pad, "Cnew_game", event.at))
    view = rig.view
    assert view["phase"] != "lobby" and "again" in view["rejection"]["text"]


def test_a_press_refused_again_is_published_again_for_the_sleeping_screens(rig_factory):
    # The screens wake on every view the service publishes (display.client): a press
    # that leaves the same refusal standing must still be published, or a seat
    # pressing PASS at an idle table would find the screens still asleep.
    rig = rig_factory()
    first = rig.press(1, Button.PASS)
    assert "Press DRAW" in first["rejection"]["text"]
    before = rig.changes
    again = rig.press(1, Button.PASS)
    assert again == first and rig.changes == before + 1
