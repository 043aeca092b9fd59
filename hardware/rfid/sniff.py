"""What a reader's raw bytes look like, for the person wiring it (`probe`, `doctor`).

Each protocol's parser passes over bytes of another layout without a word (an RDM6300
waits for its STX, a line reader for its newline), so a reader configured with the
wrong protocol only seems silent. These patterns name the layout the bytes have.
"""

from __future__ import annotations

import re

from hardware.rfid.rdm6300 import checksum
from roundhouse.value import Value

# As much of a reader's first bytes as is kept to be looked at.
KEPT_BYTES = 512

_PN532 = re.compile(rb"\x00\x00\xff")
_RDM6300 = re.compile(rb"\x02[0-9A-Fa-f]{12}\x03")
_ID12 = re.compile(rb"\x02[0-9A-Fa-f]{12}\r\n\x03")
_LINE = re.compile(rb"^[+-]?[0-9A-Fa-f]{2}(?:[: ]?[0-9A-Fa-f]{2}){3,9}\r?$", re.MULTILINE)
# EM-18 and its kin: twelve hex digits (a version byte, four of card number, an XOR),
# with no STX, ETX or line end around them, one reading right after the other.
_BARE = re.compile(rb"(?<![0-9A-Fa-f\x02])([0-9A-Fa-f]{12,})(?![\r\n\x03])")


class Layout(Value):
    """A frame layout recognised in a port's bytes, and the protocol that reads it."""

    __match_args__ = ("protocol", "description")
    __slots__ = __match_args__
    protocol: str | None  # the protocol that reads it, None if none does
    description: str

    def __init__(self, protocol: str | None, description: str) -> None:
        object.__setattr__(self, "protocol", protocol)
        object.__setattr__(self, "description", description)


def looks_like(data: bytes) -> Layout | None:
    """The layout raw bytes from a reader have, or None when they show none."""
    if not data:
        return None
    if _ID12.search(data):
        return Layout("rdm6300", "ID-12LA/ID-20LA frames (STX, 12 hex digits, CR LF, ETX)")
    if _RDM6300.search(data):
        return Layout("rdm6300", "RDM6300 frames (STX, 12 hex digits, ETX)")
    if _PN532.search(data):
        return Layout("pn532", "PN532 frames (00 00 FF ...)")
    if any(_bare_readings(match.group(1)) for match in _BARE.finditer(data)):
        return Layout("em18", "EM-18 output (12 hex digits with no STX or ETX)")
    if _LINE.search(data):
        return Layout("lines", "a hex UID per line")
    return Layout(None, f"{len(data)} bytes in no layout this table reads, "
                        f"starting {data[:16].hex(' ')}: a wrong baud rate?")


def _bare_readings(run: bytes) -> bool:
    """Whether a run of hex digits is whole readings of twelve, each with a good XOR (the
    last one may be cut off: the bytes kept end anywhere)."""
    whole = [run[i : i + 12] for i in range(0, len(run) - 11, 12)]
    for reading in whole:
        body = bytes.fromhex(reading.decode("ascii"))
        if checksum(body[:5]) != body[5]:
            return False
    return bool(whole)
