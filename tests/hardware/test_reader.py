"""Readers on real ptys: bytes in, events out, through unplugging and bad wiring."""

from __future__ import annotations

import threading
import time

import pytest
import serial

from hardware.events import RANDOM_UID, ReaderOffline, ReaderOnline, TagPlaced, TagRemoved
from hardware.rfid import Reader, UnknownProtocol, open_reader
from hardware.rfid.fake import RANDOM_CARD, FakeLines, FakePn532, FakeRdm6300
from hardware.rfid.pn532 import SAM_CONFIGURATION
from hardware.rfid.rdm6300 import Rdm6300, encode

UID = "67003B51C6"


def test_a_tag_read_again_and_again_is_placed_once_and_removed_after_its_silence(
        cable, events):
    reader = open_reader("0", str(cable.path), "rdm6300", events, removal_ms=80)
    try:
        assert events.take(1) == [ReaderOnline("0")]
        cable.write(encode(UID) * 3)
        cable.write(encode(UID))
        placed, removed = events.take(2)
        assert placed == TagPlaced("0", UID)
        assert removed == TagRemoved("0", UID)
        assert removed.at - placed.at >= 0.08
        assert events.empty()
    finally:
        reader.close()


def test_bad_frames_are_counted_and_do_not_hide_the_next_tag(cable, events):
    reader = open_reader("0", str(cable.path), "rdm6300", events, removal_ms=50)
    try:
        events.take(1)
        cable.write(b"\x0267003B51C6CA\x03\x02\x02zz" + encode(UID))
        assert events.take(1) == [TagPlaced("0", UID)]
        # A wrong checksum, a frame cut by the next STX, a frame with a foreign byte.
        assert reader.bad_frames == 3
    finally:
        reader.close()


def test_a_missing_port_is_offline_once_then_online_when_it_appears(cable, events):
    cable.unplug()
    reader = open_reader("mexican", str(cable.path), "lines", events)
    try:
        (offline,) = events.take(1)
        assert isinstance(offline, ReaderOffline)
        assert f"cannot open {cable.path}" in offline.reason
        assert not reader.online
        cable.plug()
        assert events.take(1) == [ReaderOnline("mexican")]
        assert reader.online
        cable.write(b"+04A22B3C\r\n")
        assert events.take(1) == [TagPlaced("mexican", "04A22B3C")]
    finally:
        reader.close()


def test_a_port_taken_by_another_program_is_reported(cable, events):
    first = open_reader("0", str(cable.path), "rdm6300", events)
    assert events.take(1) == [ReaderOnline("0")]
    second_events = type(events)()
    second = open_reader("1", str(cable.path), "rdm6300", second_events)
    try:
        (offline,) = second_events.take(1)
        assert isinstance(offline, ReaderOffline)
        assert "lock" in offline.reason
    finally:
        first.close()
        second.close()


def test_a_pn532_that_stops_answering_goes_offline_and_back_online(cable, events):
    chip = FakePn532(cable)
    reader = open_reader("2", str(cable.path), "pn532", events, removal_ms=100)
    try:
        assert events.take(1) == [ReaderOnline("2")]
        chip.answering = False
        (offline,) = events.take(1)
        assert isinstance(offline, ReaderOffline)
        assert "did not answer" in offline.reason
        chip.answering = True
        assert events.take(1) == [ReaderOnline("2")]
        chip.tap("04A22B3C4D5E6F")
        assert events.take(2) == [TagPlaced("2", "04A22B3C4D5E6F"),
                                   TagRemoved("2", "04A22B3C4D5E6F")]
    finally:
        reader.close()
        chip.close()


def test_a_pn532_sees_a_marker_and_a_tile_on_one_pad(cable, events):
    chip = FakePn532(cable)
    reader = open_reader("3", str(cable.path), "pn532", events, removal_ms=100)
    try:
        events.take(1)
        chip.place("04000000000001")
        chip.tap("04000000000002")
        assert events.take(3) == [TagPlaced("3", "04000000000001"),
                                   TagPlaced("3", "04000000000002"),
                                   TagRemoved("3", "04000000000002")]
        chip.lift("04000000000001")
        assert events.take(1) == [TagRemoved("3", "04000000000001")]
    finally:
        reader.close()
        chip.close()


def test_a_defect_in_a_parser_is_reported_and_the_reader_goes_on(cable, events, monkeypatch):
    real = Rdm6300.receive
    calls = []

    def failing_once(self, data, now):
        calls.append(data)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return real(self, data, now)

    monkeypatch.setattr(Rdm6300, "receive", failing_once)
    reader = open_reader("0", str(cable.path), "rdm6300", events, removal_ms=50)
    try:
        events.take(1)
        cable.write(b"x")
        online, offline = ReaderOnline("0"), events.take(1)[0]
        assert isinstance(offline, ReaderOffline) and "internal error" in offline.reason
        assert events.take(1) == [online]
        cable.write(encode(UID))
        assert events.take(1) == [TagPlaced("0", UID)]
        assert reader.is_alive()
    finally:
        reader.close()


def test_close_stops_the_thread_at_once_even_while_idle(cable, events):
    fake = FakeRdm6300(cable, repeat_s=0.02)
    reader = open_reader("0", str(cable.path), "rdm6300", events)
    events.take(1)
    fake.place(UID)
    events.take(1)
    reader.close(timeout=1.0)
    assert not reader.is_alive()
    fake.close()
    assert events.empty()
    assert not any(t.name == "rfid-0" for t in threading.enumerate())


def test_an_unknown_protocol_is_refused_by_name(events):
    with pytest.raises(UnknownProtocol, match="expected one of rdm6300, pn532, lines"):
        open_reader("0", "loop://", "wiegand", events)


def test_reopening_backs_off_exponentially_up_to_five_seconds(events, monkeypatch):
    waits: list[float] = []

    class Clock(threading.Event):
        """The reader's pause between attempts, recorded instead of waited."""

        def wait(self, timeout=None):
            waits.append(timeout)
            if len(waits) == 9:
                self.set()
            return self.is_set()

    def unplugged(url, **options):
        raise serial.SerialException(f"could not open port {url}")

    monkeypatch.setattr(serial, "serial_for_url", unplugged)
    reader = Reader("0", "/dev/roundhouse/pad-0", Rdm6300(), events, removal_s=0.3)
    reader._closing = Clock()
    reader.run()
    assert waits == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0, 5.0]
    # One outage, one event, however many attempts.
    assert events.take(1)[0].reason.startswith("cannot open /dev/roundhouse/pad-0")
    assert events.empty()


def reconnect(cable, events, pad: str) -> None:
    cable.unplug()
    assert isinstance(events.take(1)[0], ReaderOffline)
    cable.plug()
    assert events.take(1) == [ReaderOnline(pad)]


MARKER, TILE = "04000000000001", "04000000000002"


def test_a_marker_a_restarted_hub_announces_again_stays_placed_through_a_replug(
        cable, events):
    hub = FakeLines(cable)
    reader = open_reader("1", str(cable.path), "lines", events, removal_ms=100)
    try:
        events.take(1)
        hub.place(MARKER)
        assert events.take(1) == [TagPlaced("1", MARKER)]
        reconnect(cable, events, "1")
        hub.restart()  # it says +MARKER again, nothing more
        hub.place(TILE)
        assert events.take(1) == [TagPlaced("1", TILE)]
        hub.lift(MARKER)
        assert events.take(1) == [TagRemoved("1", MARKER)]
    finally:
        reader.close()


def test_a_marker_a_restarted_hub_forgot_is_removed_and_placed_again_when_laid_back(
        cable, events):
    # The hub restarted with its cable: it never says -UID for what it said before.
    hub = FakeLines(cable, announces_on_start=False)
    reader = open_reader("1", str(cable.path), "lines", events, removal_ms=100)
    try:
        events.take(1)
        hub.place(MARKER)
        events.take(1)
        reconnect(cable, events, "1")
        hub.restart()
        assert events.take(1) == [TagRemoved("1", MARKER)]
        hub.lift(MARKER)  # lifted and laid back: the hub says +MARKER
        hub.place(MARKER)
        assert events.take(1) == [TagPlaced("1", MARKER)]
    finally:
        reader.close()


def test_a_marker_lying_on_a_pn532_through_a_replug_is_neither_lost_nor_placed_again(
        cable, events):
    chip = FakePn532(cable)
    reader = open_reader("2", str(cable.path), "pn532", events, removal_ms=100)
    try:
        events.take(1)
        chip.place(MARKER)
        assert events.take(1) == [TagPlaced("2", MARKER)]
        reconnect(cable, events, "2")
        chip.tap(TILE)
        assert events.take(2) == [TagPlaced("2", TILE), TagRemoved("2", TILE)]
        chip.lift(MARKER)
        assert events.take(1) == [TagRemoved("2", MARKER)]
    finally:
        reader.close()
        chip.close()


def test_a_pn532_that_answers_late_after_each_opening_comes_online_without_an_outage(
        cable, events):
    # Behind a USB serial adapter the first answer may come a second late after a reopen.
    chip = FakePn532(cable, first_answer_s=0.9)
    reader = open_reader("2", str(cable.path), "pn532", events, removal_ms=100)
    try:
        assert events.take(1) == [ReaderOnline("2")]
        cable.unplug()
        chip.reset()  # the replugged cable powers the chip up again
        assert isinstance(events.take(1)[0], ReaderOffline)
        cable.plug()
        assert events.take(1) == [ReaderOnline("2")]
        chip.tap(TILE)
        assert events.take(2) == [TagPlaced("2", TILE), TagRemoved("2", TILE)]
    finally:
        reader.close()
        chip.close()


def test_a_card_with_a_random_uid_lying_on_a_pn532_is_one_tag_placed_once(cable, events):
    # A phone or a bank card answers every activation with a new UID 08xxxxxx.
    chip = FakePn532(cable)
    reader = open_reader("2", str(cable.path), "pn532", events, removal_ms=100)
    try:
        events.take(1)
        chip.place(RANDOM_CARD)
        assert events.take(1) == [TagPlaced("2", RANDOM_UID)]
        polls, deadline = chip.answered_polls, time.monotonic() + 10.0
        while chip.answered_polls < polls + 20:  # twenty more reads, each a new UID
            assert time.monotonic() < deadline, "the pad was not polled"
            threading.Event().wait(0.01)
        assert events.empty()
        chip.lift(RANDOM_CARD)
        assert events.take(1) == [TagRemoved("2", RANDOM_UID)]
    finally:
        reader.close()
        chip.close()


# A sag the reader rides out: longer than the PN532 driver's wait for one answer (0.25 s),
# so the chip's restart is seen, and over well before its third unanswered command
# (0.75 s). A command sent just before the sag is lost with it, its wait counted from its
# sending, and on a loaded machine the fake chip's thread may take a while to read it:
# the sag must end even then before the second command is resent.
SAG_S = 0.3


def test_a_marker_lying_through_a_pn532_brown_out_does_not_flicker(cable, events):
    chip = FakePn532(cable)
    reader = open_reader("2", str(cable.path), "pn532", events, removal_ms=100)
    try:
        events.take(1)
        chip.place(MARKER)
        assert events.take(1) == [TagPlaced("2", MARKER)]
        polls, asked = chip.answered_polls, len(chip.commands)
        chip.brown_out(SAG_S)  # three removal times dark, then a restarted chip
        deadline = time.monotonic() + 10.0
        while chip.answered_polls < polls + 5:  # it answers again, seeing the marker
            assert time.monotonic() < deadline, "the chip never answered again"
            threading.Event().wait(0.01)
        # Restarted, it is set up again (as after power-up), though its polls are answered.
        while SAM_CONFIGURATION not in chip.commands[asked:]:
            assert time.monotonic() < deadline, "the restarted chip was not set up again"
            threading.Event().wait(0.01)
        chip.tap(TILE)
        assert events.take(2) == [TagPlaced("2", TILE), TagRemoved("2", TILE)]
        chip.lift(MARKER)
        assert events.take(1) == [TagRemoved("2", MARKER)]
    finally:
        reader.close()
        chip.close()


def test_a_marker_lifted_during_a_pn532_brown_out_is_removed_once_it_answers_again(
        cable, events):
    chip = FakePn532(cable)
    reader = open_reader("2", str(cable.path), "pn532", events, removal_ms=100)
    try:
        events.take(1)
        chip.place(MARKER)
        events.take(1)
        chip.brown_out(SAG_S)
        chip.lift(MARKER)
        assert events.take(1) == [TagRemoved("2", MARKER)]
        chip.tap(TILE)  # and the pad reads on
        assert events.take(2) == [TagPlaced("2", TILE), TagRemoved("2", TILE)]
    finally:
        reader.close()
        chip.close()
