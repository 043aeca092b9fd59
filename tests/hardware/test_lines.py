from hardware.rfid.lines import MAX_LINE, Lines, encode
from hardware.rfid.protocol import Arrived, Left, Seen


def test_one_uid_per_line_with_any_line_ending():
    parser = Lines()
    readings = parser.receive(b"04A22B3C\r\n04:a2:2b:3d\n04 A2 2B 3E\r", 0.0)
    assert readings == [Seen("04A22B3C"), Seen("04A22B3D"), Seen("04A22B3E")]
    assert parser.bad_frames == 0


def test_plus_and_minus_say_placed_and_removed():
    parser = Lines()
    assert parser.receive(encode("04A22B3C", "+") + encode("04A22B3C", "-"), 0.0) == [
        Arrived("04A22B3C"), Left("04A22B3C")]


def test_a_line_waits_for_its_end():
    parser = Lines()
    assert parser.receive(b"04A2", 0.0) == []
    assert parser.receive(b"2B3C\n", 0.0) == [Seen("04A22B3C")]


def test_lines_that_are_not_uids_are_counted_and_skipped():
    parser = Lines()
    stream = b"hello\n04A\n\xff\xfe\n+\n\n\n04A22B3C\n"
    assert parser.receive(stream, 0.0) == [Seen("04A22B3C")]
    assert parser.bad_frames == 4


def test_an_endless_line_is_dropped_and_the_next_one_read():
    parser = Lines()
    assert parser.receive(b"A" * (MAX_LINE * 3), 0.0) == []
    assert parser.receive(b"\n04A22B3C\n", 0.0) == [Seen("04A22B3C")]
    assert parser.bad_frames == 1


def test_two_uids_joined_by_a_lost_newline_are_not_a_tag():
    parser = Lines()
    # 4 + 4 bytes and 5 + 5 bytes: sizes of real tags, but not of what this reader sends.
    readings = parser.receive(b"04A22B3C04A22B3D\r\n67003B51C667003B51C7\r\n04A22B3E\r\n", 0.0)
    assert readings == [Seen("04A22B3E")]
    assert parser.bad_frames == 2


def test_a_reader_configured_for_eight_byte_uids_is_read():
    parser = Lines(uid_bytes=(8,))
    assert parser.receive(b"E004015012345678\r\n04A22B3C\r\n", 0.0) == [Seen("E004015012345678")]
    assert parser.bad_frames == 1
