import time

import pytest
import serial

from hardware.rfid.fake import FakeRdm6300
from hardware.rfid.protocol import Seen
from hardware.rfid.rdm6300 import Rdm6300, encode

VECTOR = b"\x0267003B51C6CB\x03"
UID = "67003B51C6"


def test_the_reference_frame_gives_its_uid():
    parser = Rdm6300()
    assert parser.receive(VECTOR, 0.0) == [Seen("67003B51C6")]
    assert parser.bad_frames == 0


def test_encode_writes_the_reference_frame():
    assert encode("67003b51c6") == VECTOR


def test_a_frame_split_across_reads_is_joined():
    parser = Rdm6300()
    assert parser.receive(VECTOR[:5], 0.0) == []
    assert parser.receive(VECTOR[5:], 0.0) == [Seen("67003B51C6")]


def test_lower_case_hex_is_accepted():
    parser = Rdm6300()
    assert parser.receive(b"\x0267003b51c6cb\x03", 0.0) == [Seen("67003B51C6")]


def test_a_wrong_checksum_is_dropped_and_counted():
    parser = Rdm6300()
    assert parser.receive(b"\x0267003B51C6CA\x03", 0.0) == []
    assert parser.bad_frames == 1


def test_garbage_before_between_and_inside_frames_is_skipped():
    parser = Rdm6300()
    stream = b"\xff\x00noise" + VECTOR + b"\x03\x03" + b"\x026700" + VECTOR + b"zz\x02\x02"
    assert parser.receive(stream, 0.0) == [Seen("67003B51C6"), Seen("67003B51C6")]
    # The torn frame "\x026700" and the empty one "\x02" are counted.
    assert parser.bad_frames == 2


def test_a_missing_end_byte_or_a_foreign_byte_drops_the_frame():
    parser = Rdm6300()
    assert parser.receive(b"\x0267003B51C6CB\x04", 0.0) == []
    assert parser.receive(b"\x0267003G51C6CB\x03", 0.0) == []
    assert parser.bad_frames == 2
    assert parser.receive(VECTOR, 0.0) == [Seen("67003B51C6")]


def frames_for(cable, seconds: float) -> list[tuple[float, str]]:
    """When each frame the fake module sends over `seconds` came, and its UID."""
    parser = Rdm6300()
    port = serial.serial_for_url(str(cable.path), baudrate=9600, timeout=0.01)
    try:
        frames: list[tuple[float, str]] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            frames += [(time.monotonic(), r.uid) for r in parser.receive(port.read(64), 0.0)]
        return frames
    finally:
        port.close()


@pytest.fixture
def module(cable):
    fake = FakeRdm6300(cable)
    yield fake
    fake.close()


def test_the_fake_module_repeats_a_lying_card_every_65_ms(cable, module):
    module.place(UID)
    frames = frames_for(cable, 1.3)
    assert {uid for _, uid in frames} == {UID} and len(frames) >= 5
    # About every 65 ms: never faster; later only on a loaded machine.
    interval = (frames[-1][0] - frames[0][0]) / (len(frames) - 1)
    assert 0.06 <= interval <= 0.2


def test_two_cards_on_the_fake_module_give_no_frame_at_all(cable, module):
    module.place(UID)
    module.place("0100000001")
    module.tap("0100000002")
    assert frames_for(cable, 0.5) == []
    module.lift("0100000001")
    assert {uid for _, uid in frames_for(cable, 0.3)} == {UID}


def test_the_all_zero_frame_is_no_card_and_is_counted():
    # A known false reading of these modules: ten zeros, checksum 00, no card near.
    parser = Rdm6300()
    assert parser.receive(encode("0000000000") + VECTOR, 0.0) == [Seen(UID)]
    assert parser.bad_frames == 1


def test_an_id12la_frame_with_cr_lf_before_etx_is_read():
    parser = Rdm6300()
    assert parser.receive(b"\x0267003B51C6CB\r\n\x03" + VECTOR, 0.0) == [Seen(UID), Seen(UID)]
    assert parser.bad_frames == 0
    # Anything else between the checksum and ETX is still a bad frame.
    assert parser.receive(b"\x0267003B51C6CB\n\r\x03\x0267003B51C6CB\r\x03", 0.0) == []
    assert parser.bad_frames == 2
