"""Desktop USB readers that are keyboards: they type a tag's number and Enter (HID).

Most cheap USB desktop readers, 125 kHz and 13.56 MHz alike, enumerate as a keyboard.
A 125 kHz one types the EM4100 card number without its version byte: the low 32 bits
as ten decimal digits (`0003887558` for the card an RDM6300 sends as `67003B51C6`).
The reader reads them from Linux's input layer (evdev) with an exclusive grab, so no
digit reaches a console or another program, and reports the number's four bytes in hex
(`003B51C6`); the tag registry takes that for the card bound under its full RDM6300
UID, and the other way round (`TagRegistry.lookup`). A line of hex digits (a reader
set to type hex) is taken as it is. Eight digits are a Wiegand 26 reading (3 digits of
facility code, 5 of card number: the card number's low 24 bits, `05920934` for that
card), reported as those three bytes (`3B51C6`), which the registry also matches. Such
readers type a tag once per tap and never say when it leaves: it counts as removed
after the removal time. A number ends with Enter,
with Tab (readers set up to fill in forms), or, for readers that type no key after it,
with a pause in the typing of `END_OF_NUMBER_S`.

`KeyboardPort` gives the reader loop what it uses of a serial port: the typed
characters as bytes, one line per tag.
"""

from __future__ import annotations

import contextlib
import os
import select
import time
from collections.abc import Iterable
from typing import Any, Protocol, cast

from hardware.rfid.lines import MAX_LINE
from hardware.rfid.protocol import Listener, Reading, Seen, normalise_uid

MAX_DECIMAL = 2**32 - 1  # ten digits: the low 32 bits of an EM4100 card number
# Readers set to Wiegand 26 ("W26", "8 digits") type a card's low 24 bits as its
# facility code (the third byte, three digits) and card number (the low two, five).
W26_DIGITS = 8
W26_HEX = 6  # the UID it gives: three bytes
HEX_UID_BYTES = (4, 5, 7)  # UIDs a hex-typing reader may send (see lines.py)

# Linux input event codes (linux/input-event-codes.h), as evdev.ecodes names them.
EV_KEY = 0x01
KEY_DOWN = 1
_DIGITS = {2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0",
           # the keypad's digits, which some readers type instead
           79: "1", 80: "2", 81: "3", 75: "4", 76: "5", 77: "6", 71: "7", 72: "8", 73: "9",
           82: "0"}
_LETTERS = {30: "A", 48: "B", 46: "C", 32: "D", 18: "E", 33: "F"}  # hex-typing readers
_LINE_END = (28, 96, 15)  # KEY_ENTER, KEY_KPENTER, KEY_TAB
# A reader types a number's keys a few milliseconds apart (USB polls it every 1-10 ms);
# this long without a key after some digits ends the number, for readers that type
# nothing after it.
END_OF_NUMBER_S = 0.25
# Shift (capital hex letters), Caps Lock and Num Lock (keypad digits) type nothing.
_MODIFIERS = frozenset({42, 54, 58, 69})


def is_input_device(url: str) -> bool:
    """Whether `url` names an input device (a keyboard reader) rather than a serial port."""
    return os.path.realpath(url).startswith("/dev/input/")


def typed_uid(text: str) -> str | None:
    """The UID for a typed line: decimal digits are a number of at most 32 bits, given
    as four bytes of hex, or eight digits the Wiegand 26 reading of a card (three of
    facility code, five of card number: its low 24 bits), given as three bytes of hex;
    anything else must be a hex UID of a tag's size."""
    text = text.strip()
    if text.isdigit() and len(text) == W26_DIGITS:
        facility, card = int(text[:3]), int(text[3:])
        if facility <= 0xFF and card <= 0xFFFF:
            return f"{facility << 16 | card:0{W26_HEX}X}"
    if text.isdigit():
        number = int(text)
        return f"{number:08X}" if len(text) <= 10 and number <= MAX_DECIMAL else None
    uid = normalise_uid(text)
    return uid if uid is not None and len(uid) // 2 in HEX_UID_BYTES else None


def typed_characters(events: Iterable[Any]) -> bytes:
    """The characters key presses type: digits, hex letters, and Enter or Tab as a newline."""
    out = bytearray()
    for event in events:
        if event.type != EV_KEY or event.value != KEY_DOWN:
            continue  # releases, auto-repeat, SYN and scan-code (MSC) reports
        if event.code in _LINE_END:
            out += b"\n"
        elif event.code in _MODIFIERS:
            continue
        elif (char := _DIGITS.get(event.code) or _LETTERS.get(event.code)) is not None:
            out += char.encode()
        else:
            out += b"?"  # any other key spoils the line: it is counted as a bad frame
    return bytes(out)


class Keyboard(Listener):
    """Typed lines in, tags out; a line that is not a tag is counted as a bad frame."""

    baudrate = 0  # not a serial line

    def __init__(self) -> None:
        super().__init__()
        self._line = bytearray()

    def receive(self, data: bytes, now: float) -> list[Reading]:
        readings: list[Reading] = []
        for byte in data:
            if byte != ord("\n"):
                if len(self._line) <= MAX_LINE:
                    self._line.append(byte)
                continue
            line, self._line = self._line.decode("ascii", "replace"), bytearray()
            if not line:
                continue
            uid = typed_uid(line)
            if uid is None:
                self.bad_frames += 1
            else:
                readings.append(Seen(uid))
        return readings


class InputDevice(Protocol):
    """What is used of `evdev.InputDevice`."""

    path: str

    def fileno(self) -> int: ...
    def grab(self) -> None: ...
    def read(self) -> Iterable[Any]: ...
    def close(self) -> None: ...


def open_input_device(path: str) -> InputDevice:
    try:
        import evdev
    except ImportError:
        raise OSError(
            "keyboard readers need the evdev module (Linux only): pip install evdev") from None
    # evdev types a device's path as str | bytes; one opened by a str path keeps it.
    return cast(InputDevice, evdev.InputDevice(path))


class KeyboardPort:
    """An input device as the reader loop's port: grabbed, read with a timeout."""

    def __init__(self, path: str, timeout: float | None, *,
                 opener: Any = open_input_device) -> None:
        self.timeout = timeout
        self.in_waiting = 0  # every read returns all that was typed
        self._open_line = False  # characters were typed since the last line end
        self._typed_at = 0.0  # when the last of them came (time.monotonic())
        self._wake_r, self._wake_w = os.pipe()
        try:
            self._device: InputDevice = opener(path)
        except BaseException:
            self._close_pipe()
            raise
        try:
            # Exclusive: the digits reach neither the console nor a desktop session.
            self._device.grab()
        except OSError as err:
            self.close()
            raise OSError(f"{path} is held by another program ({err.strerror or err})") from err

    def read(self, _size: int = 1) -> bytes:
        timeout = self.timeout
        if self._open_line:
            left = max(0.0, self._typed_at + END_OF_NUMBER_S - time.monotonic())
            timeout = left if timeout is None else min(timeout, left)
        ready, _, _ = select.select([self._device.fileno(), self._wake_r], [], [], timeout)
        if self._wake_r in ready:
            os.read(self._wake_r, 64)
            return b""
        if not ready:
            if self._open_line and time.monotonic() - self._typed_at >= END_OF_NUMBER_S:
                self._open_line = False
                return b"\n"  # the typing paused: the number is complete
            return b""
        try:
            typed = typed_characters(self._device.read())
        except BlockingIOError:
            return b""
        if typed:
            self._open_line = not typed.endswith(b"\n")
            self._typed_at = time.monotonic()
        return typed

    def write(self, _data: bytes) -> int:
        return 0  # a keyboard is not asked anything

    def cancel_read(self) -> None:
        os.write(self._wake_w, b"x")

    def close(self) -> None:
        try:
            self._device.close()  # closing the descriptor ends the grab
        finally:
            self._close_pipe()

    def _close_pipe(self) -> None:
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
