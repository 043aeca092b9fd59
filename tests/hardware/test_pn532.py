import pytest

from hardware.rfid import pn532
from hardware.rfid.pn532 import (
    ACK,
    NACK,
    Ack,
    Framer,
    Garbled,
    Info,
    Nack,
    Pn532,
    command,
    frame,
    parse_targets,
    target_data,
)
from hardware.rfid.protocol import ReaderSilent, Seen

UID_A = "04A22B3C4D5E6F"
UID_B = "DEADBEEF"


def answer(code: int, body: bytes = b"") -> bytes:
    return ACK + frame(pn532.CHIP, bytes([code + 1]) + body)


def test_frames_carry_length_and_data_checksums():
    # GetFirmwareVersion as the manual shows it: 00 00 FF 02 FE D4 02 2A 00.
    assert command(0x02, b"") == bytes.fromhex("0000FF02FED4022A00")
    assert frame(pn532.ERROR_TFI, b"") == bytes.fromhex("0000FF01FF7F8100")


def test_the_framer_splits_acks_nacks_and_information_frames():
    framer = Framer()
    stream = ACK + NACK + frame(0xD5, b"\x15") + b"\x00"
    assert framer.feed(stream) == [Ack(), Nack(), Info(0xD5, b"\x15")]
    assert framer.bad_frames == 0


def test_the_framer_waits_for_a_frame_cut_anywhere():
    data = frame(0xD5, b"\x4b" + target_data([UID_A]))
    for cut in range(1, len(data) - 1):  # the last byte is the postamble, not needed
        framer = Framer()
        assert framer.feed(data[:cut]) == []
        assert framer.feed(data[cut:]) == [Info(0xD5, b"\x4b" + target_data([UID_A]))]


def test_a_wrong_data_checksum_is_counted_and_the_next_frame_still_read():
    framer = Framer()
    bad = bytearray(frame(0xD5, b"\x4b" + target_data([UID_A])))
    bad[-2] ^= 0x01
    assert framer.feed(bytes(bad) + frame(0xD5, b"\x15")) == [Garbled(), Info(0xD5, b"\x15")]
    assert framer.bad_frames == 1


def test_a_wrong_length_checksum_is_counted():
    framer = Framer()
    assert framer.feed(bytes.fromhex("0000FF03FED5150000")) == [Garbled()]
    assert framer.bad_frames == 1


def test_extended_frames_are_understood():
    data = bytes([0xD5, 0x4B]) + target_data([UID_A])
    length = len(data)
    extended = (bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, length, -length & 0xFF]) + data
                + bytes([-sum(data) & 0xFF, 0x00]))
    assert Framer().feed(extended) == [Info(0xD5, data[1:])]


def test_targets_of_both_uid_sizes_and_an_ats_are_read():
    ats_target = bytes([2, 0x03, 0x44, 0x20, 4]) + bytes.fromhex(UID_B) + bytes([3, 0x78, 0x80])
    body = target_data([UID_A])[1:]
    assert parse_targets(bytes([2]) + body + ats_target) == [UID_A, UID_B]
    assert parse_targets(bytes([0])) == []


@pytest.mark.parametrize("body", [b"", b"\x03", b"\x01\x01\x00\x44\x00\x07\x04",
                                  bytes([1, 1, 0, 0x44, 0, 5]) + bytes(5),
                                  target_data([UID_A]) + b"\x00"])
def test_target_data_that_does_not_add_up_is_refused(body):
    assert parse_targets(body) is None


def started(now: float = 0.0) -> tuple[Pn532, bytes]:
    chip = Pn532(poll_interval=0.05, response_timeout=0.2)
    return chip, chip.start(now)


def test_the_conversation_wakes_configures_then_polls_for_two_targets():
    chip, out = started()
    assert out.startswith(pn532.WAKEUP)
    assert out.endswith(command(pn532.SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01])))
    assert not chip.ready
    assert chip.receive(answer(pn532.SAM_CONFIGURATION), 0.01) == []
    assert chip.tick(0.01) == command(pn532.RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0x01]))
    chip.receive(answer(pn532.RF_CONFIGURATION), 0.02)
    assert chip.ready
    assert chip.tick(0.02) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))
    # Nothing more until the answer comes.
    assert chip.tick(0.03) == b""
    readings = chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET,
                                   target_data([UID_A, UID_B])), 0.04)
    assert readings == [Seen(UID_A), Seen(UID_B)]
    # The next poll waits for the poll interval.
    assert chip.tick(0.05) == b""
    assert chip.tick(0.071) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))


def ready_chip() -> Pn532:
    chip, _ = started()
    chip.receive(answer(pn532.SAM_CONFIGURATION), 0.0)
    chip.tick(0.0)
    chip.receive(answer(pn532.RF_CONFIGURATION), 0.0)
    chip.tick(0.0)
    return chip


def test_a_garbled_answer_is_asked_for_again_with_a_nack():
    chip = ready_chip()
    bad = bytearray(frame(pn532.CHIP, b"\x4b" + target_data([UID_A])))
    bad[-2] ^= 0xFF
    assert chip.receive(ACK + bytes(bad), 0.01) == []
    assert chip.bad_frames == 1
    assert chip.tick(0.01) == NACK
    assert chip.receive(frame(pn532.CHIP, b"\x4b" + target_data([UID_A])), 0.02) == [
        Seen(UID_A)]


def test_an_error_frame_or_a_foreign_answer_reports_no_tag():
    chip = ready_chip()
    assert chip.receive(answer(0x02, b"\x32\x01\x06\x07"), 0.01) == []
    assert chip.receive(ACK + frame(pn532.ERROR_TFI, b""), 0.01) == []
    assert chip.tick(0.1) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))


def test_a_missed_answer_is_asked_again_then_the_reader_is_given_up():
    chip = ready_chip()
    retry = chip.tick(0.25)
    assert retry == pn532.WAKEUP + command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))
    assert chip.tick(0.3) == b""
    chip.tick(0.5)
    with pytest.raises(ReaderSilent, match="did not answer 3 times"):
        chip.tick(0.75)


def test_an_answer_resets_the_count_of_misses():
    chip = ready_chip()
    chip.tick(0.25)
    chip.tick(0.5)
    chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([])), 0.6)
    chip.tick(0.7)
    chip.tick(0.95)
    chip.tick(1.2)  # two misses again: still trying
    with pytest.raises(ReaderSilent):
        chip.tick(1.45)


def test_a_new_connection_starts_over_and_keeps_the_count_of_bad_frames():
    chip = ready_chip()
    chip.receive(bytes.fromhex("0000FF03FED5150000"), 0.0)
    assert chip.start(1.0).startswith(pn532.WAKEUP)
    assert not chip.ready
    assert chip.bad_frames == 1


def test_an_empty_pad_is_polled_less_often():
    chip = ready_chip()  # polled at 0.0
    chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([])), 0.01)
    assert chip.tick(0.06) == b""
    assert chip.tick(0.1) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))
