"""Line readers: one hex UID per line (USB desktop readers, microcontroller hubs).

`UID` is a sighting, repeated while the tag lies (or sent once: such readers report
"removed" after the silence of the removal time). `+UID` and `-UID` say placed and
removed themselves (a hub that tracks presence). Separators `:` and spaces are allowed
in a UID; lines that are not a UID, or not of a size the reader sends, are counted as
bad frames.
"""

from __future__ import annotations

from hardware.rfid.protocol import Arrived, Left, Listener, Reading, Seen, normalise_uid

MAX_LINE = 80  # longer means no newline is coming: drop it and resync on the next one
# UID sizes in bytes a tag can have: ISO/IEC 14443-3 type A single, double and triple
# size (4, 7, 10), an EM4100 card (5), ISO/IEC 15693 and FeliCa IDm (8).
LINE_UID_SIZES = (4, 5, 7, 8, 10)
# What a line reader is taken to send unless configured otherwise. One lost newline
# joins two UIDs into one line: 4 + 4 = 8 and 5 + 5 = 10 bytes would be tags nobody
# laid, so those sizes are accepted only from a reader configured to send them.
DEFAULT_UID_BYTES = (4, 5, 7)


def encode(uid: str, sign: str = "") -> bytes:
    """A line as a reader sends it: `sign` is "", "+" (placed) or "-" (removed)."""
    return f"{sign}{uid}\r\n".encode("ascii")


class Lines(Listener):
    baudrate = 9600

    def __init__(self, uid_bytes: tuple[int, ...] = DEFAULT_UID_BYTES) -> None:
        super().__init__()
        self.uid_bytes = frozenset(uid_bytes)
        self._line = bytearray()
        self._overlong = False

    def receive(self, data: bytes, now: float) -> list[Reading]:
        readings: list[Reading] = []
        for byte in data:
            if byte not in b"\r\n":
                if len(self._line) < MAX_LINE:
                    self._line.append(byte)
                else:
                    self._overlong = True
                continue
            line, overlong = bytes(self._line), self._overlong
            self._line.clear()
            self._overlong = False
            if overlong:
                self.bad_frames += 1
            elif line.strip():
                reading = self._parse(line)
                if reading is None:
                    self.bad_frames += 1
                else:
                    readings.append(reading)
        return readings

    def _parse(self, line: bytes) -> Reading | None:
        try:
            text = line.decode("ascii").strip()
        except UnicodeDecodeError:
            return None
        kind: type[Reading] = Seen
        if text[:1] == "+":
            kind, text = Arrived, text[1:]
        elif text[:1] == "-":
            kind, text = Left, text[1:]
        uid = normalise_uid(text)
        if uid is None or len(uid) // 2 not in self.uid_bytes:
            return None
        return kind(uid)
