"""Line readers: one hex UID per line (USB desktop readers, microcontroller hubs).

`UID` is a sighting, repeated while the tag lies (or sent once: such readers report
"removed" after the silence of the removal time). `+UID` and `-UID` say placed and
removed themselves (a hub that tracks presence). Separators `:` and spaces are allowed
in a UID; lines that are not a UID are counted as bad frames.
"""

from __future__ import annotations

from hardware.rfid.protocol import Arrived, Left, Listener, Reading, Seen, normalise_uid

MAX_LINE = 80  # longer means no newline is coming: drop it and resync on the next one


def encode(uid: str, sign: str = "") -> bytes:
    """A line as a reader sends it: `sign` is "", "+" (placed) or "-" (removed)."""
    return f"{sign}{uid}\r\n".encode("ascii")


class Lines(Listener):
    baudrate = 9600

    def __init__(self) -> None:
        super().__init__()
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

    @staticmethod
    def _parse(line: bytes) -> Reading | None:
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
        return None if uid is None else kind(uid)
