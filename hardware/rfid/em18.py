"""EM-18 125 kHz readers: 9600 8N1, twelve ASCII-hex digits per read, with no frame.

An EM-18 sends what an RDM6300 sends between its STX and ETX: ten hex digits (a version
byte and the four-byte card number) and two of their XOR, once when a card comes. With
no start byte, a reading is found by the line's silence before it: twelve digits that
follow a pause, with a good XOR, are a tag; the same UID an RDM6300 gives the card. A
reading that does not add up is counted, and what follows it is dropped until the
next pause (as is what comes right after the port is opened), so a reading is never
taken from the middle of another.
"""

from __future__ import annotations

from hardware.rfid.protocol import Listener, Reading, Seen
from hardware.rfid.rdm6300 import BODY, HEX, checksum

# A reading's twelve bytes take 12.5 ms at 9600 baud; this long a silence starts anew.
PAUSE_S = 0.05


class Em18(Listener):
    baudrate = 9600

    def __init__(self) -> None:
        super().__init__()
        self._digits = bytearray()
        self._lost = False  # out of step: wait for a pause
        self._last = -1.0e9  # when the last bytes came

    def start(self, now: float) -> bytes:
        # A port opened in the middle of a reading: nothing counts before a pause.
        self._digits.clear()
        self._lost = True
        self._last = now
        return b""

    def receive(self, data: bytes, now: float) -> list[Reading]:
        if now - self._last >= PAUSE_S:
            if self._digits and not self._lost:
                self.bad_frames += 1  # a reading cut short
            self._digits.clear()
            self._lost = False
        self._last = now
        readings: list[Reading] = []
        for byte in data:
            if self._lost:
                continue
            if byte not in HEX:
                if byte not in b"\r\n" or self._digits:
                    self.bad_frames += 1
                    self._lost = True
                continue
            self._digits.append(byte)
            if len(self._digits) == BODY:
                body = bytes.fromhex(self._digits.decode("ascii"))
                self._digits.clear()
                if checksum(body[:5]) == body[5]:
                    readings.append(Seen(body[:5].hex().upper()))
                else:
                    self.bad_frames += 1
                    self._lost = True
        return readings
