"""The simulated table end to end: mock pins and fake readers through the real adapters."""

from __future__ import annotations

import queue
import time
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import SeatButtons
from hardware.events import (
    Button,
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ReaderOffline,
    ReaderOnline,
    TagPlaced,
    TagRemoved,
)
from hardware.rfid.fake import FakePn532
from hardware.rfid.pn532 import SAM_CONFIGURATION
from hardware.rfid.presence import REANNOUNCE_S
from hardware.sim import SimError, SimulatedTable
from hardware.tags import Binding


def table(events, registry, protocol: str = "rdm6300", **options) -> SimulatedTable:
    sim = SimulatedTable(2, ["0", "1", "mexican"], events, registry=registry,
                         protocol=protocol, set_size=6, removal_ms=200, pass_hold_s=0.05,
                         **options)
    assert sorted(events.take(3), key=lambda e: e.pad) == [
        ReaderOnline("0"), ReaderOnline("1"), ReaderOnline("mexican")]
    return sim


@pytest.mark.parametrize("protocol", ["rdm6300", "pn532", "lines"])
def test_taps_reach_the_queue_as_the_registry_s_tags(events, registry, protocol):
    with table(events, registry, protocol) as sim:
        assert sim.enroll_set() == 28 + 2 + 1 + 5
        assert sim.enroll_set() == 0
        sim.tap("1", "6-5")
        placed, removed = events.take(2)
        assert isinstance(placed, TagPlaced) and placed.pad == "1"
        assert registry.lookup(placed.uid) == Binding("tile", "6-5")
        assert removed == TagRemoved("1", placed.uid)
        sim.place("mexican", "marker:mexican")
        (marker,) = events.take(1)
        assert registry.lookup(marker.uid) == Binding("marker", "mexican")
        sim.tap("mexican", "5-6")
        sim.lift("mexican", Binding("marker", "mexican"))
        if protocol == "rdm6300":
            # EM4100 cards have no anti-collision: the lying marker hides the tile.
            assert events.take(1) == [TagRemoved("mexican", marker.uid)]
        else:
            assert {(type(e), e.uid) for e in events.take(3)} == {
                (TagPlaced, sim.uid("6-5")), (TagRemoved, sim.uid("6-5")),
                (TagRemoved, marker.uid)}
        time.sleep(0.3)
        assert events.empty()


def placed(seen: list) -> int:
    return sum(isinstance(e, TagPlaced) for e in seen)


@pytest.mark.parametrize("protocol", ["rdm6300", "pn532", "lines"])
def test_unplug_and_replug_while_tiles_are_tapped(events, registry, protocol):
    with table(events, registry, protocol) as sim:
        sim.enroll_set()
        tiles = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-5"]
        seen: list = []
        for tile in tiles[:3]:
            sim.tap("0", tile)
        while placed(seen) < 3:
            seen += events.take(1)
        sim.unplug("0")
        while not isinstance(seen[-1], ReaderOffline):
            seen += events.take(1)
        for tile in tiles[3:5]:
            sim.tap("0", tile)  # lost with the cable
        sim.replug("0")
        while not isinstance(seen[-1], ReaderOnline):
            seen += events.take(1)
        for tile in tiles[5:]:
            sim.tap("0", tile)
        # Every tap placed and removed, the offline and the online.
        while len(seen) < 2 * 6 + 2:
            seen += events.take(1)
        # Nothing more comes, not even after another removal time.
        with pytest.raises(queue.Empty):
            events.get(timeout=0.15)
        states = [type(e) for e in seen if isinstance(e, ReaderOffline | ReaderOnline)]
        assert states == [ReaderOffline, ReaderOnline]
        # Each tap placed once, in order, and removed once after it was placed.
        assert [registry.lookup(e.uid).value for e in seen if isinstance(e, TagPlaced)] == (
            tiles[:3] + tiles[5:])
        for uid in (sim.uid(t) for t in tiles[:3] + tiles[5:]):
            assert [type(e) for e in seen if getattr(e, "uid", None) == uid] == [
                TagPlaced, TagRemoved]
        assert sim.reader("0").bad_frames == 0


def test_garbled_bytes_are_counted_and_the_next_tap_still_arrives(events, registry):
    with table(events, registry) as sim:
        sim.enroll_set()
        sim.garble("0", b"\x0267003B51C6CA\x03\xff\x02\x02")
        sim.tap("0", "3-3")
        placed, _ = events.take(2)
        assert placed == TagPlaced("0", sim.uid("3-3"))
        # A wrong checksum, and two frames cut short by the next STX.
        assert sim.reader("0").bad_frames == 3


def test_buttons_press_and_hold(events, registry):
    with table(events, registry) as sim:
        sim.press(1, Button.DRAW)
        sim.hold(0, "pass")
        assert events.take(5) == [
            ButtonPressed(1, Button.DRAW), ButtonReleased(1, Button.DRAW),
            ButtonPressed(0, Button.PASS), ButtonHeld(0, Button.PASS),
            ButtonReleased(0, Button.PASS)]


def test_a_press_is_over_before_the_next_button_goes_down_on_a_loaded_machine(
    events, registry, monkeypatch
):
    """A release is reported by a timer, which a loaded machine may start late: the next
    press of another seat must not come out before it (CI once saw Ana's PASS before Bo
    had let go of DRAW)."""
    late = SeatButtons._timer
    monkeypatch.setattr(SeatButtons, "_timer", staticmethod(
        lambda delay, action, *args: late(delay + 0.1, action, *args)))
    with table(events, registry) as sim:
        sim.press(1, Button.DRAW)
        sim.press(0, Button.PASS)
        assert events.take(4) == [
            ButtonPressed(1, Button.DRAW), ButtonReleased(1, Button.DRAW),
            ButtonPressed(0, Button.PASS), ButtonReleased(0, Button.PASS)]


def test_a_press_held_up_longer_than_a_hold_is_still_a_press(events, registry, monkeypatch):
    """On a loaded machine the thread pressing a simulated button may be held up between
    its two edges for longer than a hold: holding PASS would take the last move back."""
    with table(events, registry) as sim:
        slept = time.sleep
        late = SimpleNamespace(sleep=lambda s: slept(s + 0.2), monotonic=time.monotonic)
        monkeypatch.setattr("hardware.sim.time", late)
        sim.press(0, Button.PASS)  # PASS holds after 0.05 s; each level lasts 0.2 s more
        assert events.take(2) == [ButtonPressed(0, Button.PASS), ButtonReleased(0, Button.PASS)]
        slept(0.3)
        assert events.empty()


def test_what_the_table_does_not_have_is_refused(events, registry):
    with table(events, registry) as sim:
        with pytest.raises(SimError, match="seats 0 to 1, not 5"):
            sim.press(5, Button.DRAW)
        with pytest.raises(SimError, match="not '7'"):
            sim.tap("7", "6-6")
        with pytest.raises(SimError, match="enroll_set"):
            sim.tap("0", "6-6")
    with pytest.raises(SimError, match="MockFactory"):
        SimulatedTable(1, [], events, registry=registry, pin_factory=object)


def test_an_existing_mock_factory_may_be_given(events, registry):
    factory = MockFactory()
    with SimulatedTable(1, [], events, registry=registry, pin_factory=factory) as sim:
        sim.press(0, Button.PASS)
        assert events.take(2) == [ButtonPressed(0, Button.PASS), ButtonReleased(0, Button.PASS)]
    factory.close()


@pytest.mark.parametrize("protocol", ["pn532", "lines"])
def test_a_marker_lying_through_a_replug_is_neither_lost_nor_placed_again(
        events, registry, protocol):
    with table(events, registry, protocol) as sim:
        sim.enroll_set()
        sim.place("1", "marker:1")
        (placed,) = events.take(1)
        sim.unplug("1")
        assert isinstance(events.take(1)[0], ReaderOffline)
        sim.replug("1")  # a line hub restarts with its cable and says what lies on it
        assert events.take(1) == [ReaderOnline("1")]
        sim.tap("1", "6-6")
        assert [type(e) for e in events.take(2)] == [TagPlaced, TagRemoved]
        with pytest.raises(queue.Empty):  # not even once the hub's time to say it again ran out
            events.get(timeout=REANNOUNCE_S + 0.3)
        sim.lift("1", "marker:1")
        assert events.take(1) == [TagRemoved("1", placed.uid)]


def test_a_simulated_pn532_loses_its_power_with_its_cable(events, registry):
    # A PN532 board is powered through its USB serial adapter: a replug restarts it
    # asleep and with its power-up settings, as the real reader loop then finds it.
    with table(events, registry, "pn532") as sim:
        sim.enroll_set()
        sim.place("1", "marker:1")
        (placed,) = events.take(1)
        chip = sim._fake("1")
        assert isinstance(chip, FakePn532)
        sim.unplug("1")
        assert chip.asleep
        assert isinstance(events.take(1)[0], ReaderOffline)
        asked = len(chip.commands)
        sim.replug("1")
        assert events.take(1) == [ReaderOnline("1")]
        assert chip.commands[asked] == SAM_CONFIGURATION  # woken and set up first
        sim.tap("1", "6-6")
        assert [type(e) for e in events.take(2)] == [TagPlaced, TagRemoved]
        sim.lift("1", "marker:1")
        assert events.take(1) == [TagRemoved("1", placed.uid)]


def test_a_tile_tapped_again_is_read_again_however_late_its_reader_let_go(events, registry):
    # On a loaded machine a reader can report a tile gone long after its removal time;
    # laid again before that, the tile is read as the same stay and the tap is lost.
    with table(events, registry, "pn532") as sim:
        sim.enroll_set()
        assert sim.let_go("1", "6-6") is None  # never tapped there
        chip = sim._fake("1")
        sim.tap("1", "6-6")
        chip.brown_out(0.3)  # dark: the reader cannot see the tile go until it is back
        gone = sim.let_go("1", "6-6")
        placed, removed = events.take(2)
        assert isinstance(placed, TagPlaced)
        assert removed == TagRemoved("1", placed.uid) and removed.at == gone
        sim.tap("1", "6-6")
        assert events.take(1) == [TagPlaced("1", placed.uid)]
        assert events.empty() or isinstance(events.take(1)[0], TagRemoved)
