import time
from collections.abc import Iterator

import pytest
import serial

from hardware.rfid import pn532
from hardware.rfid.fake import FakePn532, PtyCable
from hardware.rfid.pn532 import (
    ACK,
    NACK,
    Ack,
    Frame,
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
from hardware.rfid.presence import Presence
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
    for cut in range(1, len(data)):  # up to its postamble, which is checked too
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


def test_a_frame_without_its_postamble_is_counted():
    framer = Framer()
    bad = frame(0xD5, b"\x15")[:-1] + b"\x55"
    assert framer.feed(bad + frame(0xD5, b"\x33")) == [Garbled(), Info(0xD5, b"\x33")]


def test_a_frame_whose_length_runs_into_the_next_one_is_refused_even_when_its_sums_match():
    # Cut short after "04 A2": its declared length swallows the ACK and three bytes of
    # the next frame, and both the checksum and the postamble happen to match.
    cut = frame(0xD5, b"\x4b" + target_data(["04A2FF01"]))[:12]
    filler = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF])
    data = cut[5:] + filler
    mixture = cut + filler + bytes([-sum(data) & 0xFF, 0x00])
    # Rebuild the header so that its length covers the mixture, as the cut one did.
    mixture = bytes([0, 0, 0xFF, len(data), -len(data) & 0xFF]) + mixture[5:]
    following = frame(0xD5, b"\x4b" + target_data([UID_B]))
    assert Framer().feed(mixture + following)[-1] == Info(0xD5, b"\x4b" + target_data([UID_B]))
    assert Garbled() in Framer().feed(mixture + following)


def test_extended_frames_are_understood():
    data = bytes([0xD5, 0x4B]) + target_data([UID_A])
    length = len(data)
    extended = (bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, length, -length & 0xFF]) + data
                + bytes([-sum(data) & 0xFF, 0x00]))
    assert Framer().feed(extended) == [Info(0xD5, data[1:])]


def test_targets_of_both_uid_sizes_and_an_ats_are_read():
    ats_target = bytes([2, 0x03, 0x04, 0x20, 4]) + bytes.fromhex(UID_B) + bytes([3, 0x78, 0x80])
    body = target_data([UID_A])[1:]
    assert parse_targets(bytes([2]) + body + ats_target) == [UID_A, UID_B]
    assert parse_targets(bytes([0])) == []


@pytest.mark.parametrize("body", [b"", b"\x03", b"\x01\x01\x00\x44\x00\x07\x04",
                                  bytes([1, 1, 0, 0x44, 0, 5]) + bytes(5),
                                  target_data([UID_A]) + b"\x00",
                                  # SENS_RES says a double-size UID; NFCIDLength says 4.
                                  bytes([1, 1, 0, 0x44, 0, 4]) + bytes.fromhex(UID_B),
                                  # Numbered 2 without a first one.
                                  bytes([1, 2, 0, 0x04, 0, 4]) + bytes.fromhex(UID_B),
                                  # SEL_RES: the UID is not complete (cascade bit).
                                  bytes([1, 1, 0, 0x04, 0x04, 4]) + bytes.fromhex(UID_B),
                                  # No anticollision frame bit, or two of them.
                                  bytes([1, 1, 0, 0x00, 0, 4]) + bytes.fromhex(UID_B),
                                  bytes([1, 1, 0, 0x03, 0, 4]) + bytes.fromhex(UID_B),
                                  # The cascade tag as the first byte of a single UID.
                                  bytes([1, 1, 0, 0x04, 0, 4]) + bytes.fromhex("88112233"),
                                  # One tag twice.
                                  bytes([2]) + target_data([UID_B])[1:]
                                  + bytes([2, 0, 0x04, 0, 4]) + bytes.fromhex(UID_B),
                                  target_data([UID_A, UID_B, "11223344"])])
def test_target_data_that_does_not_add_up_is_refused(body):
    assert parse_targets(body) is None


def started(now: float = 0.0, after_tags: str = "field_off") -> tuple[Pn532, bytes]:
    chip = Pn532(poll_interval=0.05, response_timeout=0.2, after_tags=after_tags)
    return chip, chip.start(now)


def test_the_conversation_wakes_configures_then_polls_for_two_targets():
    chip, out = started()
    assert out.startswith(pn532.WAKEUP)
    assert out.endswith(command(pn532.SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01])))
    assert not chip.ready
    assert chip.receive(answer(pn532.SAM_CONFIGURATION), 0.01) == []
    assert chip.tick(0.01) == command(pn532.RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0xFF]))
    chip.receive(answer(pn532.RF_CONFIGURATION), 0.02)
    assert chip.ready
    assert chip.tick(0.02) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))
    # Nothing more until the answer comes.
    assert chip.tick(0.03) == b""
    readings = chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET,
                                   target_data([UID_A, UID_B])), 0.04)
    assert readings == [Seen(UID_A), Seen(UID_B)]
    # Tags found: the field goes off, so that the next poll finds them afresh.
    assert chip.tick(0.04) == command(pn532.RF_CONFIGURATION, bytes([0x01, 0x00]))
    assert chip.receive(answer(pn532.RF_CONFIGURATION), 0.045) == []
    # The next poll waits for the poll interval.
    assert chip.tick(0.05) == b""
    assert chip.tick(0.071) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))


def ready_chip(after_tags: str = "none") -> Pn532:
    """Set up and polled at 0.0; by default nothing is sent between polls."""
    chip, _ = started(after_tags=after_tags)
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


def test_a_poll_answered_after_the_host_moved_on_still_reports_its_tags():
    """A tile tapped as the host ends a poll: the chip answers that poll while the host
    waits for its next command's answer, and the tile is gone before the next poll. Its
    tag was dropped with the answer, and the tap lost (a simulated game stalled on it)."""
    chip = ready_chip(after_tags="field_off")
    assert chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([UID_A])),
                        0.01) == [Seen(UID_A)]
    field_off = command(pn532.RF_CONFIGURATION, bytes([0x01, 0x00]))
    assert chip.tick(0.01) == field_off
    assert chip.receive(frame(pn532.CHIP, b"\x4b" + target_data([UID_B])), 0.02) == [
        Seen(UID_B)]
    # The field's answer is still the one awaited, and polling goes on as before.
    assert chip.tick(0.03) == b""
    assert chip.receive(answer(pn532.RF_CONFIGURATION), 0.03) == []
    assert chip.tick(0.06) == POLL_BYTES


def test_an_error_frame_or_a_foreign_answer_reports_no_tag():
    chip = ready_chip()
    assert chip.receive(answer(0x02, b"\x32\x01\x06\x07"), 0.01) == []
    assert chip.receive(ACK + frame(pn532.ERROR_TFI, b""), 0.01) == []
    assert chip.tick(0.1) == b""  # not at once: after a pause
    assert chip.tick(0.22) == command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))


def test_error_frames_at_set_up_are_asked_again_ever_later_then_the_reader_is_given_up():
    chip, _ = started()
    sent_at = []
    now = 0.0
    with pytest.raises(ReaderSilent, match="answered SAMConfiguration with its error frame 3"):
        while now < 10:
            chip.receive(ACK + frame(pn532.ERROR_TFI, b""), now)
            while not (out := chip.tick(now)):
                now = round(now + 0.01, 2)
            sent_at.append(now)
            assert out.endswith(command(pn532.SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01])))
    # 0.2 s, then 0.4 s: not hundreds of times a second.
    assert sent_at == pytest.approx([0.2, 0.6], abs=0.015)
    # A new connection tries once more, and gives up at the next error frame.
    chip.start(now)
    chip.receive(ACK + frame(pn532.ERROR_TFI, b""), now)
    with pytest.raises(ReaderSilent):
        chip.tick(now)


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


POLL_BYTES = command(pn532.IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))


def waiting_chip() -> Pn532:
    """Set up, polled at 0.0 with an empty pad: the chip acknowledged and looks for tags."""
    chip = ready_chip()
    assert chip.receive(ACK, 0.01) == []
    return chip


def test_a_poll_of_an_empty_pad_waits_in_the_chip_and_the_host_sleeps():
    chip = waiting_chip()
    # No answer is due: the host asks nothing and may sleep until the re-arm.
    assert chip.tick_s == chip.rearm_interval
    for now in (0.05, 0.1, 0.26, 0.5, 1.0):
        assert chip.tick(now) == b""
    # A tile laid on the pad much later is reported the moment the chip answers.
    assert chip.receive(frame(pn532.CHIP, b"\x4b" + target_data([UID_A])), 1.005) == [
        Seen(UID_A)]
    assert chip.tick_s == chip.poll_interval


def test_while_tags_lie_the_pad_is_polled_until_they_are_gone():
    chip = waiting_chip()
    chip.receive(frame(pn532.CHIP, b"\x4b" + target_data([UID_A])), 0.3)
    # Polled again at once (the last poll was long ago), then every poll interval.
    assert chip.tick(0.3) == POLL_BYTES
    assert chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([UID_A, UID_B])),
                        0.31) == [Seen(UID_A), Seen(UID_B)]
    assert chip.tick(0.33) == b""
    assert chip.tick(0.35) == POLL_BYTES
    # Both lifted: the chip acknowledges and waits. It is asked once more within the poll
    # interval (a chip that browned out would not acknowledge), then left waiting.
    chip.receive(ACK, 0.36)
    assert chip.tick(0.4) == b""
    assert chip.tick(0.45) == ACK + POLL_BYTES
    chip.receive(ACK, 0.46)
    assert [chip.tick(now) for now in (0.5, 0.6, 0.9, 1.45)] == [b""] * 4


def test_a_waiting_poll_is_aborted_and_sent_again_each_re_arm_interval():
    chip = waiting_chip()  # acknowledged at 0.01
    assert chip.tick(1.0) == b""
    assert chip.tick(1.01) == ACK + POLL_BYTES
    # The chip is there: re-arming goes on for as long as the pad stays empty.
    for n in range(1, 10):
        chip.receive(ACK, n + 0.02)
        assert chip.tick(n + 1.02) == ACK + POLL_BYTES


def test_a_chip_that_does_not_acknowledge_the_re_arm_is_given_up():
    chip = waiting_chip()
    chip.tick(1.01)
    assert chip.tick(1.26) == pn532.WAKEUP + POLL_BYTES
    chip.tick(1.51)
    with pytest.raises(ReaderSilent, match="did not answer 3 times"):
        chip.tick(1.76)


def test_a_chip_that_needed_a_wake_up_is_set_up_again_at_the_re_arm():
    chip = waiting_chip()
    chip.tick(1.01)
    chip.tick(1.26)  # no acknowledgement: woken and asked again
    chip.receive(ACK, 1.27)  # it woke: it may have restarted and forgotten its set-up
    assert chip.tick(2.27) == ACK + pn532.WAKEUP + command(
        pn532.SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01]))
    assert chip.ready  # still online: nothing was lost for the game
    chip.receive(answer(pn532.SAM_CONFIGURATION), 2.28)
    assert chip.tick(2.28) == command(pn532.RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0xFF]))
    chip.receive(answer(pn532.RF_CONFIGURATION), 2.29)
    assert chip.tick(2.29) == POLL_BYTES
    chip.receive(ACK, 2.3)
    # Answered again: the next re-arm is a plain one.
    assert chip.tick(3.3) == ACK + POLL_BYTES


# The fake chip, spoken to as the host does, over its pty.


@pytest.fixture
def host(cable: PtyCable) -> Iterator[serial.Serial]:
    port = serial.serial_for_url(str(cable.path), baudrate=115200, timeout=0.05)
    yield port
    port.close()


@pytest.fixture
def fake(cable: PtyCable) -> Iterator[FakePn532]:
    chip = FakePn532(cable)
    yield chip
    chip.close()


def frames(port: serial.Serial, framer: Framer, count: int) -> list[Frame]:
    """The next `count` frames from the chip, failing the test if they do not come."""
    got: list[Frame] = []
    deadline = time.monotonic() + 10.0
    while len(got) < count:
        if time.monotonic() > deadline:
            pytest.fail(f"expected {count} frames from the fake chip, got {got}")
        got += framer.feed(port.read(port.in_waiting or 1))
    return got


def poll_answer(uids: list[str]) -> Info:
    return Info(pn532.CHIP, b"\x4b" + target_data(uids))


def test_the_fake_chip_answers_an_empty_pad_only_when_a_tag_comes(fake, host):
    framer = Framer()
    # No RFConfiguration: like a real chip after power-up, it retries for ever.
    host.write(pn532.WAKEUP + command(pn532.SAM_CONFIGURATION, b"\x01") + POLL_BYTES)
    assert frames(host, framer, 3) == [Ack(), Info(pn532.CHIP, b"\x15"), Ack()]
    fake.place(UID_A)
    assert frames(host, framer, 1) == [poll_answer([UID_A])]
    # A tag on the pad: answered at once.
    host.write(POLL_BYTES)
    assert frames(host, framer, 2) == [Ack(), poll_answer([UID_A])]


def test_an_ack_from_the_host_aborts_the_waiting_poll(fake, host):
    framer = Framer()
    host.write(pn532.WAKEUP + command(pn532.SAM_CONFIGURATION, b"\x01") + POLL_BYTES)
    assert frames(host, framer, 3) == [Ack(), Info(pn532.CHIP, b"\x15"), Ack()]
    # Abort; the NACK's repeated answer shows that the chip has read the abort.
    host.write(ACK + NACK)
    assert frames(host, framer, 1) == [Info(pn532.CHIP, b"\x15")]
    fake.place(UID_B)  # the aborted poll says nothing
    host.write(POLL_BYTES)
    assert frames(host, framer, 2) == [Ack(), poll_answer([UID_B])]


def test_with_few_retries_the_fake_chip_answers_an_empty_pad_at_once(fake, host):
    framer = Framer()
    host.write(pn532.WAKEUP + command(pn532.RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0x01]))
               + POLL_BYTES)
    assert frames(host, framer, 4) == [Ack(), Info(pn532.CHIP, b"\x33"),
                                       Ack(), poll_answer([])]


SAM_BYTES = command(pn532.SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01]))


def tags_lying_chip(uids: list[str]) -> Pn532:
    """Set up and polled at 0.0, answered at 0.01 with `uids`; the next poll is due at 0.05."""
    chip = ready_chip()
    assert chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data(uids)), 0.01) == [
        Seen(uid) for uid in uids]
    return chip


def test_a_chip_restarted_while_a_marker_lies_on_it_is_set_up_again():
    # A brown-out restarts the chip in its power-up state, which libnfc leaves with
    # SAMConfiguration before anything else. The marker lying on the pad keeps every poll
    # answered, so no re-arm comes to set it up again.
    chip = tags_lying_chip([UID_A])
    assert chip.tick(0.05) == POLL_BYTES
    assert chip.tick(0.25) == pn532.WAKEUP + POLL_BYTES  # unanswered: woken and asked again
    assert chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([UID_A])),
                        0.26) == [Seen(UID_A)]
    assert chip.resumptions == 1
    assert chip.tick(0.26) == pn532.WAKEUP + SAM_BYTES
    assert chip.ready  # the marker stays known meanwhile
    chip.receive(answer(pn532.SAM_CONFIGURATION), 0.27)
    assert chip.tick(0.27) == command(pn532.RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0xFF]))
    chip.receive(answer(pn532.RF_CONFIGURATION), 0.28)
    assert chip.tick(0.31) == POLL_BYTES
    chip.receive(answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([UID_A])), 0.32)
    assert chip.tick(0.37) == POLL_BYTES  # set up once: polled as before


def test_a_poll_acknowledged_with_a_tag_lying_and_left_unanswered_watches_nothing():
    # With a tag in its field the chip answers a poll at once. A poll it acknowledged and
    # then left unanswered says either that the tag went or that the chip browned out
    # right after its acknowledgement (the field coming on draws the most current): it is
    # asked again within the poll interval, and the silence counts once it answers that.
    chip = tags_lying_chip([UID_A])
    assert chip.tick(0.05) == POLL_BYTES
    chip.receive(ACK, 0.051)
    assert chip.watched_until(0.09) == 0.051
    assert chip.tick(0.09) == b""
    assert chip.tick(0.101) == ACK + POLL_BYTES
    assert chip.watched_until(0.15) == 0.051
    chip.receive(ACK, 0.102)  # there: the pad is empty, as it was since 0.051
    assert chip.watched_until(0.2) == 0.2
    # Empty, it is left waiting until the usual re-arm.
    assert [chip.tick(now) for now in (0.2, 0.5, 1.0)] == [b""] * 3
    assert chip.tick(1.11) == ACK + POLL_BYTES


def reader_loop(chip: Pn532, presence: Presence, now: float, data: bytes = b"",
                changes: list[tuple[str, str]] | None = None) -> bytes:
    """One turn of the reader's loop (hardware.rfid.reader) on the driver and a presence."""
    changes = [] if changes is None else changes
    for reading in chip.receive(data, now) if data else []:
        change = presence.update(reading, now)
        if change is not None:
            changes.append(change)
    out = chip.tick(now)
    if chip.resumptions != getattr(presence, "resumptions_seen", 0):
        presence.resumptions_seen = chip.resumptions  # type: ignore[attr-defined]
        presence.restart(now)
    changes += [("removed", uid) for uid in presence.expire(chip.watched_until(now))]
    return out


def test_a_marker_lying_through_a_brown_out_that_cuts_a_poll_short_stays_placed():
    presence = Presence(0.3)
    chip = ready_chip()
    changes: list[tuple[str, str]] = []
    reader_loop(chip, presence, 0.01,
                answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([UID_A])), changes)
    assert changes == [("placed", UID_A)]
    assert reader_loop(chip, presence, 0.05) == POLL_BYTES
    reader_loop(chip, presence, 0.051, ACK)
    # The chip browns out right after its acknowledgement: dark until 0.6.
    now = 0.06
    while now < 0.6:
        reader_loop(chip, presence, now, changes=changes)
        now = round(now + 0.01, 2)
    # Started again, it answers with the marker that lay there all along.
    reader_loop(chip, presence, 0.6,
                answer(pn532.IN_LIST_PASSIVE_TARGET, target_data([UID_A])), changes)
    for now in (0.7, 0.8, 0.9, 1.0):
        reader_loop(chip, presence, now, changes=changes)
    assert changes == [("placed", UID_A)]
