from hardware.rfid.protocol import Seen
from hardware.rfid.rdm6300 import Rdm6300, encode

VECTOR = b"\x0267003B51C6CB\x03"


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
