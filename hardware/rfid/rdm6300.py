"""RDM6300 125 kHz readers: 9600 8N1, a 14-byte frame per read, repeated while a tag lies.

Frame: STX (0x02), ten ASCII-hex digits (a version byte and the four-byte card number),
two ASCII-hex digits of the XOR of those five bytes, ETX (0x03). The whole ten-digit
body is the UID. A 0x02 anywhere starts a new frame, so the parser finds the next good
frame after any garbage; frames with a wrong checksum or a foreign byte are counted and
dropped. ID Innovations' ID-12LA and ID-20LA send the same frame with CR LF before the
ETX, which is read as well. The all-zero frame (ten zeros, checksum 00) is a known false
reading of these modules, with no card near: it is dropped and counted.
"""

from __future__ import annotations

from hardware.rfid.protocol import Listener, Reading, Seen

STX = 0x02
ETX = 0x03
BODY = 12  # ten hex digits of data, two of checksum
LINE_END = frozenset(b"\r\n")  # ID-12LA / ID-20LA: CR LF between the checksum and ETX
NO_CARD = "0000000000"
HEX = frozenset(b"0123456789ABCDEFabcdef")


def checksum(data: bytes) -> int:
    result = 0
    for byte in data:
        result ^= byte
    return result


def encode(uid: str) -> bytes:
    """The frame an RDM6300 sends for a ten-digit UID (the fake reader's output)."""
    data = bytes.fromhex(uid)
    if len(data) != 5:
        raise ValueError(f"an RDM6300 UID has ten hex digits, got {uid!r}")
    return bytes([STX]) + f"{uid.upper()}{checksum(data):02X}".encode() + bytes([ETX])


class Rdm6300(Listener):
    baudrate = 9600

    def __init__(self) -> None:
        super().__init__()
        self._body: bytearray | None = None  # None: waiting for STX

    def receive(self, data: bytes, now: float) -> list[Reading]:
        readings: list[Reading] = []
        for byte in data:
            if byte == STX:
                if self._body is not None:
                    self.bad_frames += 1  # a frame cut short by the next one
                self._body = bytearray()
            elif self._body is None:
                continue
            elif byte in (HEX if len(self._body) < BODY else LINE_END) and (
                    len(self._body) < BODY + 2):
                self._body.append(byte)
            else:
                uid = self._finish(byte)
                if uid is not None:
                    readings.append(Seen(uid))
        return readings

    def _finish(self, byte: int) -> str | None:
        assert self._body is not None
        body, self._body = bytes(self._body), None
        if byte != ETX or len(body) not in (BODY, BODY + 2) or body[BODY:] not in (b"", b"\r\n"):
            self.bad_frames += 1
            return None
        data = bytes.fromhex(body[:BODY].decode("ascii"))
        uid = data[:5].hex().upper()
        if checksum(data[:5]) != data[5] or uid == NO_CARD:
            self.bad_frames += 1
            return None
        return uid
