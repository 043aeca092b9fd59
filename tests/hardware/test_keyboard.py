"""Desktop USB readers that are keyboards (HID): typed numbers in, the serial UID out."""

from __future__ import annotations

import errno
import os
import queue
import select
import struct
import time

import pytest

evdev = pytest.importorskip("evdev")
from evdev import InputEvent, ecodes  # noqa: E402

from hardware.events import ReaderOffline, ReaderOnline, TagPlaced, TagRemoved  # noqa: E402
from hardware.rfid import Reader, open_reader  # noqa: E402
from hardware.rfid.keyboard import (  # noqa: E402
    Keyboard,
    KeyboardPort,
    typed_characters,
    typed_uid,
)
from hardware.rfid.protocol import Seen  # noqa: E402
from hardware.tags import Binding  # noqa: E402

RDM6300_UID = "67003B51C6"  # version byte 0x67, card number 0x003B51C6 = 3887558
TYPED = "0003887558"  # what a 125 kHz keyboard reader types for that card


def keys(text: str, keypad: bool = False, end: int | None = ecodes.KEY_ENTER
         ) -> list[InputEvent]:
    """The events a reader makes typing `text` and `end` (Enter, Tab, or no key): press,
    scan code, release, SYN."""
    codes = {str(d): getattr(ecodes, f"KEY_KP{d}" if keypad else f"KEY_{d}") for d in range(10)}
    out = []
    for code in [codes[c] for c in text] + ([end] if end is not None else []):
        out += [InputEvent(0, 0, ecodes.EV_MSC, ecodes.MSC_SCAN, 0x70000 + code),
                InputEvent(0, 0, ecodes.EV_KEY, code, 1),
                InputEvent(0, 0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0),
                InputEvent(0, 0, ecodes.EV_KEY, code, 0),
                InputEvent(0, 0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0)]
    return out


def test_ten_typed_digits_are_the_card_number_an_rdm6300_sends_without_its_version():
    assert typed_uid(TYPED) == RDM6300_UID[2:]
    assert typed_uid("4294967295") == "FFFFFFFF"
    assert typed_uid("4294967296") is None  # more than 32 bits: not such a number
    assert typed_uid(TYPED + TYPED) is None  # two numbers run together
    assert typed_uid("04a22b3c") == "04A22B3C"  # a hex-typing reader


def test_the_registry_takes_the_typed_number_for_the_card_enrolled_on_an_rdm6300(registry):
    registry.bind(RDM6300_UID, "tile", "12-5")
    assert registry.lookup(typed_uid(TYPED)) == Binding("tile", "12-5")
    # And a card enrolled on a keyboard reader is known to an RDM6300 pad.
    registry.bind("00ABCDEF", "marker", "2")
    assert registry.lookup("7F00ABCDEF") == Binding("marker", "2")
    assert registry.lookup("7F00ABCDEE") is None


W26 = "05920934"  # the same card as a Wiegand 26 reader types it: facility 59, card 20934


def test_eight_typed_digits_are_the_wiegand_26_reading_of_the_card(registry):
    assert typed_uid(W26) == "3B51C6"  # its low 24 bits
    assert typed_uid("25565535") == "FFFFFF"
    assert typed_uid("25665535") == "01879FFF"  # no facility code: a plain number
    registry.bind(RDM6300_UID, "tile", "12-5")
    assert registry.lookup(typed_uid(W26)) == Binding("tile", "12-5")
    # Enrolled on a W26 reader, the card is known to RDM6300 and ten-digit pads.
    registry.bind(typed_uid("00100001"), "marker", "3")
    assert registry.lookup("7F00010001") == Binding("marker", "3")
    assert registry.lookup(typed_uid("0000065537")) == Binding("marker", "3")


def test_key_presses_type_digits_and_enter_whatever_else_the_device_reports():
    assert typed_characters(keys(TYPED)) == TYPED.encode() + b"\n"
    assert typed_characters(keys(TYPED, keypad=True)) == TYPED.encode() + b"\n"
    # A hex-typing reader's capitals come with Shift, which types nothing itself.
    shift = InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_LEFTSHIFT, 1)
    a_key = InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_A, 1)
    assert typed_characters([shift, a_key]) == b"A"
    letters = [InputEvent(0, 0, ecodes.EV_KEY, getattr(ecodes, f"KEY_{c}"), 1) for c in "ABCDEF"]
    assert typed_characters(letters) == b"ABCDEF"
    # Auto-repeat (value 2) types nothing more; another key spoils the line.
    repeat = InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_5, 2)
    space = InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_SPACE, 1)
    assert typed_characters([repeat, space]) == b"?"


def test_two_numbers_typed_without_their_enter_between_are_no_tag():
    parser = Keyboard()
    assert parser.receive(f"{TYPED}{TYPED}\n{TYPED}\n".encode(), 0.0) == [
        Seen(RDM6300_UID[2:])]
    assert parser.bad_frames == 1
    assert parser.receive(b"12?45\n\n", 0.0) == []
    assert parser.bad_frames == 2


class PipeKeyboard:
    """An input device behind a pipe: the test writes `struct input_event`s into it."""

    FORMAT = "llHHi"

    def __init__(self) -> None:
        self.path = "/dev/input/by-id/usb-reader-event-kbd"
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self.grabbed = False
        self.gone = False

    def fileno(self) -> int:
        return self._r

    def grab(self) -> None:
        self.grabbed = True

    def type(self, events: list[InputEvent]) -> None:
        os.write(self._w, b"".join(struct.pack(self.FORMAT, e.sec, e.usec, e.type, e.code,
                                                e.value) for e in events))

    def unplug(self) -> None:
        self.gone = True
        os.write(self._w, b"!")

    def read(self) -> list[InputEvent]:
        if self.gone:
            raise OSError(errno.ENODEV, "No such device")
        size = struct.calcsize(self.FORMAT)
        data = os.read(self._r, 4096 // size * size)
        return [InputEvent(*struct.unpack_from(self.FORMAT, data, at))
                for at in range(0, len(data), size)]

    def close(self) -> None:
        self.grabbed = False
        for fd in (self._r, self._w):
            os.close(fd)


def test_a_keyboard_reader_is_grabbed_and_its_typed_number_placed_then_removed(events):
    device = PipeKeyboard()
    opened = []

    def opener(path, _baud, timeout):
        port = KeyboardPort(path, timeout, opener=lambda _path: device)
        opened.append(port)
        return port

    reader = Reader("0", device.path, Keyboard(), events, removal_s=0.2, opener=opener)
    reader.start()
    try:
        assert events.take(1) == [ReaderOnline("0")]
        assert device.grabbed
        device.type(keys(TYPED))
        assert events.take(2) == [TagPlaced("0", RDM6300_UID[2:]), TagRemoved("0", RDM6300_UID[2:])]
        device.unplug()
        (offline,) = events.take(1)
        assert isinstance(offline, ReaderOffline) and "No such device" in offline.reason
    finally:
        reader.close()


@pytest.mark.parametrize("end", [ecodes.KEY_TAB, None], ids=["tab", "nothing"])
def test_a_keyboard_reader_that_ends_its_number_with_tab_or_nothing_is_read(events, end):
    device = PipeKeyboard()
    reader = Reader("0", device.path, Keyboard(), events, removal_s=0.2,
                    opener=lambda path, _baud, timeout: KeyboardPort(
                        path, timeout, opener=lambda _path: device))
    reader.start()
    try:
        assert events.take(1) == [ReaderOnline("0")]
        device.type(keys(TYPED, end=end))
        assert events.take(2) == [TagPlaced("0", RDM6300_UID[2:]), TagRemoved("0", RDM6300_UID[2:])]
        device.type(keys("0000000001", end=end))  # the next card: not run into the first
        assert events.take(1) == [TagPlaced("0", "00000001")]
    finally:
        reader.close()


def uinput_refused() -> str | None:
    if not os.path.exists("/dev/uinput"):
        return "no /dev/uinput on this machine (the kernel lacks uinput; try modprobe uinput)"
    if not os.access("/dev/uinput", os.W_OK):
        return "/dev/uinput is not writable (root, or the input group, is needed)"
    return None


@pytest.mark.skipif(uinput_refused() is not None, reason=str(uinput_refused()))
def test_a_virtual_keyboard_reader_is_read_and_no_digit_leaks_to_anyone_else():
    from evdev import UInput

    events: queue.Queue = queue.Queue()
    codes = [getattr(ecodes, f"KEY_{d}") for d in range(10)] + [ecodes.KEY_ENTER]
    with UInput({ecodes.EV_KEY: codes}, name="roundhouse test reader") as ui:
        time.sleep(0.2)  # udev makes the event node
        reader = open_reader("0", ui.device.path, "keyboard", events, removal_ms=200)
        other = evdev.InputDevice(ui.device.path)
        try:
            assert events.get(timeout=5) == ReaderOnline("0")
            for event in keys(TYPED):
                if event.type == ecodes.EV_KEY:
                    ui.write(ecodes.EV_KEY, event.code, event.value)
                    ui.syn()
            assert events.get(timeout=5) == TagPlaced("0", RDM6300_UID[2:])
            # The grab: another reader of the device (a console) got none of it.
            assert select.select([other.fileno()], [], [], 0.2)[0] == []
        finally:
            other.close()
            reader.close()


def test_finding_a_serial_reader_s_protocol_never_tries_it_as_a_keyboard(cable):
    from hardware.probe import identify

    found, tries = identify(str(cable.path), "keyboard", 0.2)
    assert found is None  # nothing on the line
    assert tries and "keyboard" not in [t.protocol for t in tries]


def test_the_shipped_service_may_open_keyboard_readers():
    from pathlib import Path

    unit = (Path(__file__).parents[2] / "systemd" / "roundhouse.service").read_text()
    lines = [line.strip() for line in unit.splitlines()]
    # DevicePolicy=closed refuses every device class not named: /dev/input/event* too.
    assert "DeviceAllow=char-input rw" in lines
    groups = next(line for line in lines if line.startswith("SupplementaryGroups="))
    assert "input" in groups.split("=", 1)[1].split()
