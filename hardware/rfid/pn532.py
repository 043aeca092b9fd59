"""PN532 over its high-speed UART (HSU, 115200 8N1), asked for up to two tags per pad.

Frames (PN532 user manual, 6.2): `00 00 FF LEN LCS TFI PD0..PDn DCS 00`, where
LEN + LCS = 0 and TFI + PD0 + ... + PDn + DCS = 0 (mod 256); TFI is D4 from the host,
D5 from the PN532. ACK is `00 00 FF 00 FF 00` (from the host it also aborts the command
the chip is working on), NACK `00 00 FF FF 00 00` (asks the other side to send its last
frame again); extended frames (`FF FF LENM LENL LCS`) and the error frame (TFI 7F) are
understood.

The conversation: a wake-up preamble and SAMConfiguration (normal mode), then
RFConfiguration CfgItem 5 (MaxRetries) with MxRtyPassiveActivation 0xFF, and
InListPassiveTarget for two ISO 14443A targets at 106 kbps (a train marker and a tile
may lie on one pad). With 0xFF (also the chip's power-up default) the chip retries the
activation "eternally": the command is acknowledged at once, but on an empty pad the
answer comes only when a tag enters the field, found by the chip's own polling with its
RF field on. So an empty pad costs the host nothing: the reader sleeps in its read and
the tag is reported the moment the chip sees it. While tags lie on the pad every poll is
answered at once with the tags it activated (the retries only go on while none
answers), and the pad is polled every poll interval so that a second tag and a removal
are seen. A chip that answers an empty field at once (no targets) is asked again every
idle poll interval.

Every command is acknowledged within a timeout and answered within it, except a poll
waiting for a tag: that one is aborted (with an ACK) and sent again every re-arm
interval, which shows the chip is still there. A missed acknowledgement or answer is
asked for again (wake-up included, in case the chip fell asleep) and three in a row mean
the reader is gone; a chip that needed a wake-up since it last answered has its set-up
sent again at the next re-arm, in case it restarted and forgot it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.rfid.protocol import ReaderSilent, Reading, Seen

HOST = 0xD4
CHIP = 0xD5
ERROR_TFI = 0x7F
ACK = bytes.fromhex("0000FF00FF00")
NACK = bytes.fromhex("0000FFFF0000")
# HSU wake-up: 0x55 0x55 and zeros long enough for the oscillator to start.
WAKEUP = bytes([0x55, 0x55]) + bytes(14)
MAX_DATA = 265  # TFI + the largest payload the chip handles

SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
SETUP: tuple[tuple[int, bytes], ...] = (
    (SAM_CONFIGURATION, bytes([0x01, 0x14, 0x01])),  # normal mode, 1 s virtual-card timeout
    # CfgItem 5 (MaxRetries): ATR_REQ 0xFF and PSL_REQ 1 (the defaults); passive
    # activation 0xFF: a poll of an empty pad waits inside the chip until a tag comes.
    (RF_CONFIGURATION, bytes([0x05, 0xFF, 0x01, 0xFF])),
)
POLL = (IN_LIST_PASSIVE_TARGET, bytes([0x02, 0x00]))  # two targets, 106 kbps type A


def frame(tfi: int, payload: bytes) -> bytes:
    """A normal information frame (LEN <= 255)."""
    data = bytes([tfi]) + payload
    if len(data) > 255:
        raise ValueError("a normal PN532 frame holds at most 255 bytes")
    return (bytes([0x00, 0x00, 0xFF, len(data), -len(data) & 0xFF]) + data
            + bytes([-sum(data) & 0xFF, 0x00]))


def command(code: int, params: bytes) -> bytes:
    return frame(HOST, bytes([code]) + params)


def target_data(uids: list[str]) -> bytes:
    """The InListPassiveTarget answer's body for ISO 14443A tags (the fake reader's)."""
    body = bytearray([len(uids)])
    for number, uid in enumerate(uids, start=1):
        nfcid = bytes.fromhex(uid)
        # SENS_RES 0x0044 and SEL_RES 0x00: a MIFARE Ultralight-like tag, no ATS.
        body += bytes([number, 0x00, 0x44, 0x00, len(nfcid)]) + nfcid
    return bytes(body)


@dataclass(frozen=True, slots=True)
class Ack:
    pass


@dataclass(frozen=True, slots=True)
class Nack:
    pass


@dataclass(frozen=True, slots=True)
class Info:
    tfi: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class Garbled:
    """A frame whose length or data checksum is wrong (counted in `bad_frames`)."""


Frame = Ack | Nack | Info | Garbled


class Framer:
    """Splits a byte stream into PN532 frames; resyncs on the next start code after garbage."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.bad_frames = 0

    def reset(self) -> None:
        """Forget a partial frame (a new connection); the count of bad frames stays."""
        self._buf.clear()

    def feed(self, data: bytes) -> list[Frame]:
        self._buf += data
        frames: list[Frame] = []
        while True:
            start = self._buf.find(b"\x00\xff")
            if start < 0:
                # Keep a trailing 0x00: it may be the first half of a start code.
                del self._buf[: max(0, len(self._buf) - 1)]
                return frames
            del self._buf[:start]
            result = self._parse()
            if result is None:
                return frames  # wait for the rest of the frame
            used, parsed = result
            if isinstance(parsed, Garbled):
                self.bad_frames += 1
                used = 2  # the start code was a false one: look again right after it
            del self._buf[:used]
            frames.append(parsed)

    def _parse(self) -> tuple[int, Frame] | None:
        """Parse the frame at the start of the buffer: (bytes used, frame) or None."""
        buf = self._buf
        if len(buf) < 4:
            return None
        length, lcs = buf[2], buf[3]
        if (length, lcs) == (0x00, 0xFF):
            return 4, Ack()
        if (length, lcs) == (0xFF, 0x00):
            return 4, Nack()
        head = 4
        if (length, lcs) == (0xFF, 0xFF):
            if len(buf) < 7:
                return None
            head = 7
            length = buf[4] << 8 | buf[5]
            lcs = (buf[4] + buf[5] + buf[6]) & 0xFF
            if lcs != 0 or not 0 < length <= MAX_DATA:
                return head, Garbled()
        elif (length + lcs) & 0xFF or length == 0:
            return head, Garbled()
        end = head + length + 1
        if len(buf) < end:
            return None
        data = bytes(buf[head : end - 1])
        if (sum(data) + buf[end - 1]) & 0xFF:
            return end, Garbled()
        return end, Info(data[0], data[1:])


def parse_targets(body: bytes) -> list[str] | None:
    """NFCID1s of an InListPassiveTarget answer for type A; None if it does not add up."""
    if not body or body[0] > 2:
        return None
    uids: list[str] = []
    pos = 1
    for _ in range(body[0]):
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1, then ATS when SEL_RES bit 5 says so.
        if pos + 5 > len(body):
            return None
        sel_res, id_len = body[pos + 3], body[pos + 4]
        pos += 5
        if id_len not in (4, 7, 10) or pos + id_len > len(body):
            return None
        uids.append(body[pos : pos + id_len].hex().upper())
        pos += id_len
        if sel_res & 0x20:
            if pos >= len(body) or body[pos] == 0:
                return None
            pos += body[pos]  # the ATS length byte counts itself
    return uids if pos == len(body) else None


class Pn532:
    baudrate = 115200

    def __init__(self, poll_interval: float = 0.05, idle_poll_interval: float = 0.1,
                 response_timeout: float = 0.25, attempts: int = 3,
                 rearm_interval: float = 1.0) -> None:
        self.poll_interval = poll_interval
        # An empty pad is asked less often: still several times within the shortest tap.
        self.idle_poll_interval = max(poll_interval, idle_poll_interval)
        self.tick_s: float | None = poll_interval
        self.response_timeout = response_timeout
        self.attempts = attempts
        self.rearm_interval = rearm_interval
        self._framer = Framer()
        self.ready = False
        self._step = 0  # index into SETUP, then polling
        self._pending: int | None = None  # command code awaiting its answer
        self._params = b""
        self._deadline = 0.0
        self._waiting = False  # the pending poll is acknowledged: the chip looks for a tag
        self._misses = 0
        self._next_poll = 0.0
        self._out = bytearray()

    @property
    def bad_frames(self) -> int:
        return self._framer.bad_frames

    def start(self, now: float) -> bytes:
        self.ready = False
        self._step = 0
        self._pending = None
        self._misses = 0
        self._framer.reset()
        self._out.clear()
        self._send(*SETUP[0], now, wake=True)
        return self._take()

    def receive(self, data: bytes, now: float) -> list[Reading]:
        readings: list[Reading] = []
        for item in self._framer.feed(data):
            if self._pending is None:
                continue
            if isinstance(item, Ack):
                self._expect(now, target=self._pending == IN_LIST_PASSIVE_TARGET)
            elif isinstance(item, Garbled):
                self._out += NACK  # the chip sends its answer again
                self._expect(now)
            elif isinstance(item, Info) and item.tfi == ERROR_TFI:
                self._pending = None  # a syntax error on the chip's side: ask again
            elif (isinstance(item, Info) and item.tfi == CHIP and item.payload
                  and item.payload[0] == self._pending + 1):
                readings += self._answered(item.payload[1:], now)
        return readings

    def _answered(self, body: bytes, now: float) -> list[Reading]:
        self._pending = None
        self._misses = 0
        if self._step < len(SETUP):
            self._step += 1
            if self._step == len(SETUP):
                self.ready = True
            else:
                self._send(*SETUP[self._step], now)
            return []
        uids = parse_targets(body)
        if uids is None:
            self._framer.bad_frames += 1
            return []
        interval = self.poll_interval if uids else self.idle_poll_interval
        self._next_poll += interval - self.poll_interval
        self.tick_s = interval
        return [Seen(uid) for uid in uids]

    def tick(self, now: float) -> bytes:
        if self._pending is not None and now >= self._deadline:
            if self._waiting:
                self._rearm(now)
            else:
                self._missed(self._pending, now)
        elif self._pending is None and self._step < len(SETUP):
            self._send(*SETUP[self._step], now, wake=True)
        elif self._pending is None and now >= self._next_poll:
            self._next_poll = now + self.poll_interval
            self._send(*POLL, now)
        return self._take()

    def _missed(self, code: int, now: float) -> None:
        self._misses += 1
        if self._misses >= self.attempts:
            raise ReaderSilent(
                f"the PN532 did not answer {self._misses} times in a row (is it powered, "
                "and in HSU mode: both switches or jumpers at 0?)")
        self._send(code, self._params, now, wake=True)

    def _rearm(self, now: float) -> None:
        """No tag came: abort the waiting poll and send it again, so a dead chip shows."""
        self._out += ACK
        if self._misses:
            # It needed a wake-up since it last answered: it may have restarted and
            # forgotten its set-up (a waiting poll would then wait forever).
            self._step = 0
            self._send(*SETUP[0], now, wake=True)
        else:
            self._send(*POLL, now)

    def _send(self, code: int, params: bytes, now: float, *, wake: bool = False) -> None:
        self._pending = code
        self._params = params
        self._expect(now)
        self._out += (WAKEUP if wake else b"") + command(code, params)

    def _expect(self, now: float, *, target: bool = False) -> None:
        """Await the chip within the response timeout, or a tag until the re-arm."""
        self._waiting = target
        self._deadline = now + (self.rearm_interval if target else self.response_timeout)
        self.tick_s = self.rearm_interval if target else self.poll_interval

    def _take(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out
