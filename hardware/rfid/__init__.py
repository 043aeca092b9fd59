"""RFID readers: one thread per pad turning a reader's bytes into tag events.

`open_reader` starts a reader; the protocols are RDM6300 (125 kHz, 9600 baud), PN532
over HSU (13.56 MHz, up to two tags per pad), line readers (a hex UID per line),
keyboard readers (USB desktop readers typing a number, read through evdev) and EM-18
(125 kHz, the RDM6300's digits without STX and ETX).
"""

from __future__ import annotations

from hardware import HardwareError
from hardware.rfid.lines import LINE_UID_SIZES
from hardware.rfid.protocol import Driver
from hardware.rfid.reader import Reader
from hardware.sink import EventQueue

# Each protocol's driver is imported when a reader of it is opened: a table of RDM6300
# pads starts without loading the PN532's frames or the keyboard readers' evdev code.

PROTOCOLS = ("rdm6300", "pn532", "lines", "keyboard", "em18")
# The protocols whose readers can read two tags lying on one pad (a train marker and a
# tile): the PN532's anti-collision (MaxTg=2), and a line hub that says each tag's
# coming and going itself. An RDM6300's EM4100 tags answer all at once and garble.
READS_SEVERAL = ("pn532", "lines")


class UnknownProtocol(HardwareError):
    """A reader protocol this package does not speak."""


def make_driver(protocol: str, removal_s: float,
                uid_bytes: tuple[int, ...] | None = None) -> Driver:
    if protocol == "rdm6300":
        from hardware.rfid.rdm6300 import Rdm6300

        return Rdm6300()
    if protocol == "lines":
        from hardware.rfid.lines import Lines

        return Lines() if uid_bytes is None else Lines(uid_bytes)
    if protocol == "keyboard":
        from hardware.rfid.keyboard import Keyboard

        return Keyboard()
    if protocol == "em18":
        from hardware.rfid.em18 import Em18

        return Em18()
    if protocol == "pn532":
        from hardware.rfid.pn532 import Pn532

        # Poll a few times within the removal time so one missed read removes nothing.
        return Pn532(poll_interval=min(0.05, removal_s / 4))
    raise UnknownProtocol(
        f"unknown reader protocol {protocol!r}: expected one of {', '.join(PROTOCOLS)}")


def open_reader(pad: str, url: str, protocol: str, queue: EventQueue, *,
                removal_ms: int = 300, uid_bytes: tuple[int, ...] | None = None) -> Reader:
    """Start reading the pad `pad` on the serial port `url` (a device, a pty, `socket://`),
    or for a keyboard reader its input device (`/dev/input/by-id/...-event-kbd`).

    Events go to `queue`: `ReaderOnline`/`ReaderOffline` as the port comes and goes,
    `TagPlaced` once per tag that comes, `TagRemoved` after `removal_ms` of silence
    (or when a line reader says `-UID`). `uid_bytes` are the UID sizes a line reader
    sends (others are refused). Call `close()` to stop it.
    """
    if removal_ms <= 0:
        raise ValueError("removal_ms must be positive")
    removal_s = removal_ms / 1000
    driver = make_driver(protocol, removal_s, uid_bytes)
    if protocol == "keyboard":
        from hardware.rfid.keyboard import KeyboardPort

        reader = Reader(pad, url, driver, queue, removal_s=removal_s,
                        opener=lambda path, _baud, timeout: KeyboardPort(path, timeout))
    else:
        reader = Reader(pad, url, driver, queue, removal_s=removal_s)
    reader.start()
    return reader


__all__ = ["LINE_UID_SIZES", "PROTOCOLS", "READS_SEVERAL", "Reader", "UnknownProtocol",
           "make_driver", "open_reader"]
