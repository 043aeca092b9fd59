"""EM-18 readers: the RDM6300's twelve digits with no frame, found after a pause."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.events import ReaderOnline, TagPlaced, TagRemoved
from hardware.rfid import open_reader
from hardware.rfid.em18 import PAUSE_S, Em18
from hardware.rfid.fake import FakeRdm6300, em18_frame
from hardware.rfid.protocol import Seen

UID = "67003B51C6"
READING = b"67003B51C6CB"  # its XOR is CB, as in the RDM6300's frame


def opened() -> Em18:
    parser = Em18()
    parser.start(0.0)
    return parser


def test_a_reading_after_a_pause_is_the_tag_an_rdm6300_reads():
    parser = opened()
    assert parser.receive(READING, 1.0) == [Seen(UID)]
    assert parser.receive(READING + READING, 1.01) == [Seen(UID), Seen(UID)]
    assert parser.bad_frames == 0


def test_a_reading_split_across_reads_is_joined():
    parser = opened()
    assert parser.receive(READING[:5], 1.0) == []
    assert parser.receive(READING[5:], 1.004) == [Seen(UID)]


def test_what_comes_right_after_opening_waits_for_a_pause():
    parser = opened()
    assert parser.receive(READING[4:] + READING, 0.001) == []  # opened mid-reading
    assert parser.receive(READING, 1.0) == [Seen(UID)]


def test_a_wrong_xor_is_counted_and_the_rest_dropped_until_a_pause():
    parser = opened()
    assert parser.receive(b"67003B51C6CA" + READING, 1.0) == []
    assert parser.bad_frames == 1
    assert parser.receive(READING, 1.0 + PAUSE_S) == [Seen(UID)]


def test_a_reading_cut_short_by_a_pause_is_counted():
    parser = opened()
    assert parser.receive(READING[:7], 1.0) == []
    assert parser.receive(READING, 1.5) == [Seen(UID)]
    assert parser.bad_frames == 1


@given(st.lists(st.tuples(st.binary(min_size=5, max_size=5), st.booleans()), max_size=8),
       st.binary(max_size=40))
def test_after_any_bytes_and_a_pause_a_good_reading_is_its_tag_and_a_bad_one_none(
        readings, noise):
    parser = opened()
    now = 1.0
    for body, good in readings:
        parser.receive(noise, now)  # anything at all, then a pause
        now += 1.0
        uid = body.hex().upper()
        data = em18_frame(uid)
        if not good:
            data = data[:-2] + f"{int(data[-2:], 16) ^ 0x5A:02X}".encode()
        assert [r.uid for r in parser.receive(data, now)] == ([uid] if good else [])
        now += 1.0


def test_a_card_on_an_em18_is_placed_then_removed(cable, events):
    fake = FakeRdm6300(cable, frame=em18_frame)
    reader = open_reader("0", str(cable.path), "em18", events, removal_ms=100)
    try:
        assert events.take(1) == [ReaderOnline("0")]
        fake.place(UID)  # read again every 65 ms: each reading follows a pause
        assert events.take(1) == [TagPlaced("0", UID)]
        fake.lift(UID)
        assert events.take(1) == [TagRemoved("0", UID)]
        assert reader.bad_frames <= 1  # a reading cut by the opening at most
    finally:
        reader.close()
        fake.close()
