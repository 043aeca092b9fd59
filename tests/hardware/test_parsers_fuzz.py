"""Random and corrupted byte streams: no exception escapes a parser, and no tag is ever
reported from a frame whose checksum is wrong."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hardware.rfid import pn532
from hardware.rfid.keyboard import Keyboard
from hardware.rfid.lines import Lines
from hardware.rfid.pn532 import Framer, Info, Pn532, parse_targets, target_data
from hardware.rfid.protocol import ReaderSilent, Seen
from hardware.rfid.rdm6300 import NO_CARD, Rdm6300, encode

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def feed_in_pieces(feed, stream: bytes, cuts: list[int]) -> list:
    out = []
    start = 0
    for cut in [*sorted({c % (len(stream) + 1) for c in cuts}), len(stream)]:
        out += feed(stream[start:cut])
        start = cut
    return out


def corrupt(frame: bytes, data: st.DataObject, first: int, last: int) -> bytes:
    """One byte of `frame[first:last]` changed to another value."""
    position = data.draw(st.integers(first, last - 1))
    value = data.draw(st.integers(0, 255).filter(lambda v: v != frame[position]))
    return frame[:position] + bytes([value]) + frame[position + 1:]


uids5 = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())
uids7 = st.binary(min_size=7, max_size=7).map(lambda b: b.hex().upper())
cuts = st.lists(st.integers(0, 10_000), max_size=6)


@FUZZ
@given(st.binary(max_size=400), cuts)
def test_rdm6300_survives_any_bytes(stream, pieces):
    parser = Rdm6300()
    readings = feed_in_pieces(lambda b: parser.receive(b, 0.0), stream, pieces)
    assert all(isinstance(r, Seen) and len(r.uid) == 10 for r in readings)


@FUZZ
@given(st.data(), st.lists(st.tuples(st.sampled_from(["good", "bad", "noise"]), uids5),
                           max_size=12), cuts)
def test_rdm6300_reports_every_good_frame_and_never_a_corrupted_one(data, chunks, pieces):
    stream = b""
    expected = []
    for kind, uid in chunks:
        if kind == "good":
            stream += encode(uid)
            if uid != NO_CARD:  # the all-zero frame is a false reading, never a card
                expected.append(uid)
        elif kind == "bad":
            frame = encode(uid)
            bad = corrupt(frame, data, 0, len(frame))
            # A hex letter changed only in case is the same frame, not a corrupted one.
            assume(bad.upper() != frame.upper())
            stream += bad
        else:
            stream += data.draw(st.binary(max_size=30))
    parser = Rdm6300()
    readings = feed_in_pieces(lambda b: parser.receive(b, 0.0), stream, pieces)
    assert [r.uid for r in readings] == expected


@FUZZ
@given(st.binary(max_size=400), cuts)
def test_lines_survive_any_bytes(stream, pieces):
    parser = Lines()
    feed_in_pieces(lambda b: parser.receive(b, 0.0), stream, pieces)


@FUZZ
@given(st.lists(uids7, max_size=10), st.binary(max_size=60).filter(lambda b: b"\n" not in b))
def test_lines_after_any_noise_line_are_read(uids, noise):
    parser = Lines()
    stream = noise + b"\n" + b"".join(f"{u}\r\n".encode() for u in uids)
    assert [r.uid for r in parser.receive(stream, 0.0)] == uids


@FUZZ
@given(st.binary(max_size=600), cuts)
def test_the_pn532_framer_survives_any_bytes(stream, pieces):
    framer = Framer()
    for item in feed_in_pieces(framer.feed, stream, pieces):
        if isinstance(item, Info):
            parse_targets(item.payload[1:])


def poll_answer(uid: str) -> bytes:
    return pn532.frame(pn532.CHIP, bytes([0x4B]) + target_data([uid]))


@FUZZ
@given(st.data(), st.lists(st.tuples(st.sampled_from(["good", "bad", "noise"]), uids7),
                           max_size=10), cuts)
def test_the_pn532_framer_never_passes_a_corrupted_frame(data, chunks, pieces):
    stream = b""
    good, poisoned = set(), set()
    for kind, uid in chunks:
        if kind == "good":
            stream += poll_answer(uid)
            good.add(uid)
        elif kind == "bad":
            frame = poll_answer(uid)
            # The preamble and postamble are not checked by anyone: corrupt the rest.
            stream += corrupt(frame, data, 1, len(frame) - 1)
            poisoned.add(uid)
        else:
            stream += data.draw(st.binary(max_size=30))
    assume(not good & poisoned)
    framer = Framer()
    reported = set()
    for item in feed_in_pieces(framer.feed, stream, pieces):
        if isinstance(item, Info) and item.payload[:1] == b"\x4b":
            reported.update(parse_targets(item.payload[1:]) or [])
    assert not reported & poisoned


@FUZZ
@given(st.lists(st.tuples(st.binary(max_size=80), st.floats(0, 0.3)), max_size=30))
def test_the_pn532_conversation_survives_any_bytes_and_timing(steps):
    chip = Pn532(poll_interval=0.05, response_timeout=0.1)
    now = 0.0
    chip.start(now)
    for data, pause in steps:
        now += pause
        readings = chip.receive(data, now)
        assert all(isinstance(r, Seen) for r in readings)
        try:
            chip.tick(now)
        except ReaderSilent:
            now += 1.0
            chip.start(now)


@pytest.mark.parametrize("uid", ["04A22B3C4D5E6F", "DEADBEEF"])
def test_the_pn532_conversation_reports_a_tag_after_noise(uid):
    chip = Pn532(poll_interval=0.05, response_timeout=0.2)
    chip.start(0.0)
    ack = pn532.ACK
    chip.receive(b"\x00\xff\x13" + ack + pn532.frame(pn532.CHIP, b"\x15"), 0.0)
    chip.tick(0.0)
    chip.receive(b"\xff" * 9 + ack + pn532.frame(pn532.CHIP, b"\x33"), 0.0)
    chip.tick(0.0)
    assert chip.receive(b"\x55\x00" + ack + poll_answer(uid), 0.01) == [Seen(uid)]


@FUZZ
@given(st.lists(st.sampled_from([4, 5, 7]), min_size=2, max_size=4), st.data())
def test_line_uids_joined_by_lost_newlines_are_never_a_tag(sizes, data):
    uids = [data.draw(st.binary(min_size=n, max_size=n)).hex().upper() for n in sizes]
    parser = Lines()
    assert parser.receive("".join(uids).encode() + b"\r\n", 0.0) == []
    assert parser.bad_frames == 1


@FUZZ
@given(st.binary(max_size=400), cuts)
def test_typed_lines_survive_any_bytes(stream, pieces):
    parser = Keyboard()
    for reading in feed_in_pieces(lambda b: parser.receive(b, 0.0), stream, pieces):
        assert len(reading.uid) in (8, 10, 14)


@FUZZ
@given(st.lists(st.integers(0, 2**32 - 1), min_size=2, max_size=3))
def test_typed_numbers_run_together_are_never_a_tag(numbers):
    parser = Keyboard()
    assert parser.receive("".join(f"{n:010d}" for n in numbers).encode() + b"\n", 0.0) == []
