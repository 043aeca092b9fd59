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
are seen; after each poll that found tags the RF field is switched off (see
`AFTER_TAGS`), so that a tag left on the pad is found by the next poll too. A chip
that answers an empty field at once (no targets) is asked again every idle poll
interval.

Every command is acknowledged within a timeout and answered within it (the first one on
a freshly opened port within `FIRST_ANSWER_S`, which a chip behind a USB adapter may
need after a reopen), except a poll
waiting for a tag: that one is aborted (with an ACK) and sent again every re-arm
interval, which shows the chip is still there. A missed acknowledgement or answer is
asked for again (wake-up included, in case the chip fell asleep) and three in a row mean
the reader is gone; a chip that needed a wake-up since it last answered has its set-up
sent again before its next poll, in case it restarted and forgot it (libnfc sends
SAMConfiguration after each power-up to leave the chip's LowVbat mode), whether tags
keep its polls answered or it waits for one. A command answered
with the error frame is sent again after a pause that doubles each time, and three in a
row put the reader offline naming the command (`Pn532._refusal`). While the chip owes
an answer it watches nothing (`watched_until`), and when it talks again after a miss
(a brown-out restarted it) the reader gives the tags a new removal time (`resumptions`).
A poll acknowledged while tags lay is answered at once if they still lie: one left
unanswered is sent again within the poll interval, and watches nothing until the chip
acknowledges that (a chip that browned out right after its acknowledgement saw no tag
go).
An answer counts only if every length in it adds up (`Framer`, `parse_targets`). A
poll's answer that comes after the host stopped waiting for it (the chip found a tag as
the host ended the poll or sent its next command) still says which tags lie there.
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
IN_RELEASE = 0x52
COMMAND_NAMES = {SAM_CONFIGURATION: "SAMConfiguration", RF_CONFIGURATION: "RFConfiguration",
                 IN_LIST_PASSIVE_TARGET: "InListPassiveTarget", IN_RELEASE: "InRelease"}
MAX_REFUSAL_PAUSE_S = 5.0
# How long the first answer on a freshly opened port may take. A PN532 behind a USB
# serial adapter may answer a second late after a reopen; nfcpy waits 1.5 s for its
# first ACK (pn532.py, init). After that first answer, `response_timeout` holds.
FIRST_ANSWER_S = 1.5
# What is sent after a poll that found tags, before the next one. Field reports of
# MaxTg=2 (see `FakePn532.keeps_selected`) say that a tag left selected by one poll is
# not found by the next: the next poll then finds it again, and a tag lying on the pad
# is only seen every other poll. "field_off" switches the RF field off (RFConfiguration
# CfgItem 1), so every tag powers down and is found afresh; "release" releases the
# targets (InRelease 0); "repoll" polls again at once and aborts that poll after
# `repoll_wait`; "none" sends nothing. benchmarks/pn532_lying_tags.py measures them
# (figures in benchmarks/README.md): the field off keeps lying tags seen as often with
# the quirk as without it, for one command per poll, and it does not depend on how a
# released tag answers, since a tag that loses the field forgets any selection. The
# next InListPassiveTarget switches the field on again by itself, which nfcpy relies on
# too (pn53x.py `mute` switches it off between senses).
AFTER_TAGS: dict[str, tuple[int, bytes] | None] = {
    "field_off": (RF_CONFIGURATION, bytes([0x01, 0x00])),
    "release": (IN_RELEASE, bytes([0x00])),
    "repoll": None,
    "none": None,
}
AFTER_TAGS_DEFAULT = "field_off"


def frame(tfi: int, payload: bytes) -> bytes:
    """An information frame: a normal one, or an extended one (UM0701-02 6.2.1.2) for
    more than 255 bytes (Diagnose's line test echoes 263)."""
    data = bytes([tfi]) + payload
    if len(data) > MAX_DATA:
        raise ValueError(f"a PN532 frame holds at most {MAX_DATA} bytes")
    if len(data) > 255:
        high, low = len(data) >> 8, len(data) & 0xFF
        head = bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, -(high + low) & 0xFF])
    else:
        head = bytes([0x00, 0x00, 0xFF, len(data), -len(data) & 0xFF])
    return head + data + bytes([-sum(data) & 0xFF, 0x00])


def command(code: int, params: bytes) -> bytes:
    return frame(HOST, bytes([code]) + params)


# SENS_RES (ATQA) as the PN532 sends it, MSB first, by NFCID1 size: bits b7-b8 of its
# low byte give the UID size (ISO/IEC 14443-3, 6.4.2), b1-b5 the anticollision frame
# (exactly one set). MIFARE Classic 1K, Ultralight and a triple-size UID.
SENS_RES = {4: b"\x00\x04", 7: b"\x00\x44", 10: b"\x00\x84"}
UID_SIZES = {0: 4, 1: 7, 2: 10}  # SENS_RES b7-b8 -> NFCID1 length


def target_data(uids: list[str]) -> bytes:
    """The InListPassiveTarget answer's body for ISO 14443A tags (the fake reader's)."""
    body = bytearray([len(uids)])
    for number, uid in enumerate(uids, start=1):
        nfcid = bytes.fromhex(uid)
        # SEL_RES 0x00: a tag without ISO 14443-4, so no ATS follows.
        body += bytes([number]) + SENS_RES[len(nfcid)] + bytes([0x00, len(nfcid)]) + nfcid
    return bytes(body)


@dataclass(frozen=True, slots=True)
class Ack:
    """The chip's ACK frame: it took the command."""


@dataclass(frozen=True, slots=True)
class Nack:
    """The chip's NACK frame: send the command again."""


@dataclass(frozen=True, slots=True)
class Info:
    """A normal information frame: its frame identifier and payload."""

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
        end = head + length + 2  # the data, DCS and the postamble
        if len(buf) < end:
            return None
        data = bytes(buf[head : end - 2])
        # The postamble is checked too: a frame cut short and completed by the next one's
        # bytes would otherwise pass one time in 256 on its checksum alone.
        if (sum(data) + buf[end - 2]) & 0xFF or buf[end - 1] != 0x00:
            return end - 1, Garbled()
        if _holds_a_frame_start(buf, 2, end):
            return end - 1, Garbled()
        return end, Info(data[0], data[1:])


def _holds_a_frame_start(buf: bytearray, first: int, end: int) -> bool:
    """Whether a frame's bytes hold the start of another one: `00 00 FF` and a valid
    length pair (an ACK, a NACK, LEN + LCS = 0). That is a frame cut short whose
    declared length ran into the next frame; a tag's own UID holding such a pattern is
    a chance of about one in 2^32."""
    at = first
    # A start code may begin in the frame's last bytes and end in what follows it.
    while 0 <= (at := buf.find(b"\x00\x00\xff", at, end + 2)) < end:
        pair = bytes(buf[at + 3 : at + 5])
        if len(pair) == 2 and (pair in (b"\x00\xff", b"\xff\x00") or not sum(pair) & 0xFF):
            return True
        at += 1
    return False


def parse_targets(body: bytes, max_targets: int = 2) -> list[str] | None:
    """NFCID1s of an InListPassiveTarget answer for type A; None if it does not add up.

    Every length and layout inside the answer is checked (UM0701-02 7.3.5 and ISO/IEC
    14443-3 6.4): NbTg within MaxTg, the targets numbered 1, 2, SENS_RES naming the
    NFCIDLength that follows, SEL_RES saying the UID is complete, an ATS only where
    SEL_RES announces one, and nothing left over. An answer cut short and completed
    by the bytes of the next one passes its frame's 8-bit checksum one time in 256: these
    checks are what keep such a frame from reporting a tag nobody laid.
    """
    if not body or body[0] > max_targets:
        return None
    uids: list[str] = []
    pos = 1
    for number in range(1, body[0] + 1):
        # Tg, SENS_RES (2), SEL_RES, NFCIDLength, NFCID1, then ATS when SEL_RES bit 6 says so.
        if pos + 5 > len(body):
            return None
        tg, sens_res, sel_res, id_len = body[pos], body[pos + 2], body[pos + 3], body[pos + 4]
        frame_bits = sens_res & 0x1F
        if (tg != number or UID_SIZES.get(sens_res >> 6) != id_len
                or frame_bits & (frame_bits - 1) or not frame_bits or sel_res & 0x04):
            return None
        pos += 5
        if pos + id_len > len(body):
            return None
        nfcid = body[pos : pos + id_len]
        if id_len == 4 and nfcid[0] == 0x88:  # the cascade tag, never a single UID's uid0
            return None
        uids.append(nfcid.hex().upper())
        pos += id_len
        if sel_res & 0x20:
            if pos >= len(body) or body[pos] == 0:
                return None
            pos += body[pos]  # the ATS length byte counts itself
    if len(set(uids)) != len(uids):
        return None
    return uids if pos == len(body) else None


class Pn532:
    baudrate = 115200

    def __init__(self, poll_interval: float = 0.05, idle_poll_interval: float = 0.1,
                 response_timeout: float = 0.25, attempts: int = 3,
                 rearm_interval: float = 1.0, after_tags: str = AFTER_TAGS_DEFAULT,
                 repoll_wait: float = 0.02, refusal_backoff: float = 0.2,
                 first_answer_timeout: float = FIRST_ANSWER_S) -> None:
        if after_tags not in AFTER_TAGS:
            raise ValueError(f"after_tags: expected one of {', '.join(AFTER_TAGS)}")
        self.poll_interval = poll_interval
        # An empty pad is asked less often: still several times within the shortest tap.
        self.idle_poll_interval = max(poll_interval, idle_poll_interval)
        self.tick_s: float | None = poll_interval
        self.response_timeout = response_timeout
        self.first_answer_timeout = max(response_timeout, first_answer_timeout)
        self._heard = False  # the chip answered on this connection
        # Since when the chip owes an answer (None: it owes none); while it does, a tag
        # not seen is not known to be gone.
        self._silent_since: float | None = None
        self.resumptions = 0
        # The chip talked again after missing answers: it may have restarted (a
        # brown-out) and forgotten its set-up, which is sent again before the next poll.
        self._restarted = False
        # The last poll answered found tags: a poll acknowledged and then left unanswered
        # is checked within the poll interval (the tags went, or the chip browned out).
        self._tags_lay = False
        self.attempts = attempts
        self.rearm_interval = rearm_interval
        self.after_tags = after_tags
        self.repoll_wait = repoll_wait
        self.refusal_backoff = refusal_backoff
        self._framer = Framer()
        self.ready = False
        self._step = 0  # index into SETUP, then polling
        self._pending: int | None = None  # command code awaiting its answer
        self._params = b""
        self._deadline = 0.0
        self._waiting = False  # the pending poll is acknowledged: the chip looks for a tag
        self._misses = 0
        self._next_poll = 0.0
        self._follow_up: tuple[int, bytes] | None = None  # sent before the next poll
        self._repoll = False  # the next poll comes at once and waits only `repoll_wait`
        self._repolling = False  # the pending poll is such a re-poll
        # Error frames in a row, over connections: a chip that refuses is not asked
        # again at once, nor after a reconnection, but after a growing pause.
        self._refusals = 0
        self._refused = ""
        self._retry_at = 0.0
        self._out = bytearray()

    @property
    def bad_frames(self) -> int:
        return self._framer.bad_frames

    def start(self, now: float) -> bytes:
        self.ready = False
        self._heard = False
        self._silent_since = None
        self._restarted = self._tags_lay = False
        self._step = 0
        self._pending = None
        self._misses = 0
        self._follow_up = None
        self._repoll = self._repolling = False
        self._framer.reset()
        self._out.clear()
        if self._refusals >= self.attempts:
            self._refusals = self.attempts - 1  # one more try on the new connection
        self._send(*SETUP[0], now, wake=True)
        return self._take()

    def receive(self, data: bytes, now: float) -> list[Reading]:
        readings: list[Reading] = []
        for item in self._framer.feed(data):
            if isinstance(item, Ack | Info):
                self._heard = True
                # Alive: an ACK still owes the answer (from now), the answer owes nothing.
                self._silent_since = now if isinstance(item, Ack) else None
                if self._misses and not self._restarted:
                    self.resumptions += 1  # it talks again: the pad was not watched
                    self._restarted = self._step >= len(SETUP)
            if (isinstance(item, Info) and item.tfi == CHIP and item.payload
                    and item.payload[0] == IN_LIST_PASSIVE_TARGET + 1
                    and self._pending != IN_LIST_PASSIVE_TARGET):
                # A poll the host no longer waited for (it had ended it, or sent its next
                # command, as a tag came): the chip found these tags all the same, and a
                # tile tapped just then may be gone before the next poll.
                readings += [Seen(uid) for uid in parse_targets(item.payload[1:]) or ()]
                continue
            if self._pending is None:
                continue
            if isinstance(item, Ack):
                # Not yet taken: a chip acknowledges a frame, then refuses its syntax.
                self._expect(now, target=self._pending == IN_LIST_PASSIVE_TARGET)
            elif isinstance(item, Garbled):
                self._out += NACK  # the chip sends its answer again
                self._expect(now)
            elif isinstance(item, Info) and item.tfi == ERROR_TFI:
                self._refusal(now)
            elif (isinstance(item, Info) and item.tfi == CHIP and item.payload
                  and item.payload[0] == self._pending + 1):
                readings += self._answered(item.payload[1:], now)
        return readings

    def watched_until(self, now: float) -> float:
        """Now while the chip answers (or, its poll acknowledged, looks for a tag itself);
        else since it owes an answer: a chip that browned out sees no tag go. A poll
        acknowledged while tags lay and left unanswered watches nothing until the chip
        shows it is there (it answers, or acknowledges the poll sent again)."""
        if self._silent_since is None or (self._waiting and not self._tags_lay):
            return now
        return self._silent_since

    def _taken(self) -> None:
        """A command after the set-up was taken (acknowledged, not refused)."""
        self._refusals = 0
        self.ready = True

    def _refusal(self, now: float) -> None:
        """The error frame (UM0701-02 6.2.1.5): the chip found the command's syntax wrong.

        Sent again after a pause that doubles each time (a chip or a line that garbles
        every command would otherwise be asked hundreds of times a second), and given
        up, with the reason, after `attempts` in a row."""
        assert self._pending is not None
        self._refused = COMMAND_NAMES.get(self._pending, f"command {self._pending:#04x}")
        self._pending = None
        self._waiting = self._repolling = False
        self._refusals += 1
        pause = min(self.refusal_backoff * 2 ** (self._refusals - 1), MAX_REFUSAL_PAUSE_S)
        self._retry_at = now + pause
        self.tick_s = pause

    def _answered(self, body: bytes, now: float) -> list[Reading]:
        code, self._pending = self._pending, None
        self._misses = 0
        self._waiting = False
        if self._step < len(SETUP):
            self._step += 1
            if self._step == len(SETUP):
                # A chip that refused its polls before (on this connection or the last)
                # is online only once a poll is taken, not at each reconnection.
                self.ready = self._refusals == 0
            else:
                self._send(*SETUP[self._step], now)
            return []
        self._taken()
        if code != IN_LIST_PASSIVE_TARGET:
            self.tick_s = self.poll_interval
            return []  # a follow-up answered
        repolled, self._repolling = self._repolling, False
        uids = parse_targets(body)
        if uids is None:
            self._framer.bad_frames += 1
            return []
        self._tags_lay = bool(uids)
        interval = self.poll_interval if uids else self.idle_poll_interval
        self._next_poll += interval - self.poll_interval
        self.tick_s = interval
        if uids:
            follow_up = AFTER_TAGS[self.after_tags]
            if follow_up is not None:
                self._follow_up = follow_up
            elif self.after_tags == "repoll" and not repolled:
                self._repoll = True
        return [Seen(uid) for uid in uids]

    def tick(self, now: float) -> bytes:
        if self._refusals >= self.attempts:
            raise ReaderSilent(
                f"the PN532 answered {self._refused} with its error frame {self._refusals} "
                "times in a row: it is not a PN532 with firmware 1.6, or the line garbles "
                "bytes (check the wiring, a shared ground and that it is in HSU mode)")
        if self._pending is not None and now >= self._deadline:
            if self._repolling and self._waiting:
                self._end_repoll()
            elif self._waiting:
                self._rearm(now)
            else:
                self._missed(self._pending, now)
        elif self._pending is not None or now < self._retry_at:
            pass
        elif self._restarted or self._step < len(SETUP):
            if self._restarted:
                # It answered again after a restart (its tags' answers reset its misses
                # before any re-arm): its power-up state needs the set-up again, which
                # libnfc sends after each power-up (SAMConfiguration leaves LowVbat).
                self._restarted = False
                self._step = 0
            self._send(*SETUP[self._step], now, wake=True)
        elif self._follow_up is not None:
            code, params = self._follow_up
            self._follow_up = None
            self._send(code, params, now)
        elif self._repoll or now >= self._next_poll:
            self._repolling, self._repoll = self._repoll, False
            self._next_poll = now + self.poll_interval
            self._send(*POLL, now)
        return self._take()

    def _end_repoll(self) -> None:
        """The re-poll found nothing new (the chip waits): abort it, poll as usual."""
        self._out += ACK
        self._pending = None
        self._waiting = self._repolling = False
        self.tick_s = self.poll_interval

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
        self._taken()  # it waited for a tag all this time, with no error frame
        self._tags_lay = False  # its acknowledgement shows it watched the empty pad
        if self._misses:
            self._restarted = False
            # It needed a wake-up since it last answered: it may have restarted and
            # forgotten its set-up (a waiting poll would then wait forever).
            self._step = 0
            self._send(*SETUP[0], now, wake=True)
        else:
            self._send(*POLL, now)

    def _send(self, code: int, params: bytes, now: float, *, wake: bool = False) -> None:
        if self._silent_since is None:
            self._silent_since = now
        self._pending = code
        self._params = params
        self._expect(now)
        self._out += (WAKEUP if wake else b"") + command(code, params)

    def _expect(self, now: float, *, target: bool = False) -> None:
        """Await the chip within the response timeout, or a tag until the re-arm."""
        self._waiting = target
        # With tags lying a poll is answered at once: one that is not is checked soon.
        wait = (self.repoll_wait if self._repolling
                else self.poll_interval if self._tags_lay else self.rearm_interval)
        answer = self.response_timeout if self._heard else self.first_answer_timeout
        self._deadline = now + (wait if target else answer)
        self.tick_s = wait if target else self.poll_interval

    def _take(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out
