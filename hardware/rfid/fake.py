"""Fake readers for the simulator, the tests and the benchmarks: real frames on a real tty.

A `PtyCable` is a reader's USB cable: a pseudo-terminal pair behind a stable name (a
symlink, as udev gives real readers). The reader opens the name like any serial port;
the fake device writes its frames into the other end. Unplugging closes the device's
end, so the reader sees the port vanish; replugging makes a new pair behind the same
name, so the reader's reopening finds it again.
"""

from __future__ import annotations

import itertools
import os
import pty
import select
import termios
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from hardware.rfid import lines, pn532, rdm6300

# UID sizes the fakes send: an EM4100 card number; a 7-byte ISO 14443A NFCID1.
UID_BYTES = {"rdm6300": 5, "pn532": 7, "lines": 7}


_SPEEDS = {getattr(termios, f"B{rate}"): rate for rate in (
    9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600) if hasattr(termios, f"B{rate}")}


class PtyCable:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._ends: tuple[int, int] | None = None  # (device end, reader end)
        self._plugged = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._closed = False
        # A pulled cable's descriptors are closed only once no `read` is waiting on them:
        # closing under a select fails it, and a reused number would read another cable.
        self._reading = 0
        self._retired: list[int] = []
        self.plug()

    @property
    def plugged(self) -> bool:
        return self._plugged.is_set()

    def plug(self) -> None:
        with self._lock:
            if self._ends is not None:
                return
            device, reader = pty.openpty()
            # Raw before anyone opens it: no echo of the device's bytes back to it.
            tty.setraw(reader)
            # A reader that is not reading loses bytes, as on a serial line; nothing blocks.
            os.set_blocking(device, False)
            self._ends = (device, reader)
            link = self.path.with_name(self.path.name + ".new")
            link.unlink(missing_ok=True)
            link.symlink_to(os.ttyname(reader))
            os.replace(link, self.path)
            self._plugged.set()

    def unplug(self) -> None:
        with self._lock:
            if self._ends is None:
                return
            ends, self._ends = self._ends, None
            self._plugged.clear()
            self.path.unlink(missing_ok=True)
            os.write(self._wake_w, b"x")
            self._retired.extend(ends)
            self._close_retired()

    def _close_retired(self) -> None:
        """Close pulled descriptors if no read is using them (lock held)."""
        if self._reading == 0:
            for fd in self._retired:
                os.close(fd)
            self._retired.clear()

    def write(self, data: bytes) -> bool:
        """Send bytes to the reader; False when (some of) they were lost."""
        with self._lock:
            if self._ends is None:
                return False
            try:
                return os.write(self._ends[0], data) == len(data)
            except OSError:
                return False

    def host_baudrate(self) -> int | None:
        """The speed the reader set on its end of the line (None: unplugged or unknown)."""
        with self._lock:
            if self._ends is None:
                return None
            try:
                speed = termios.tcgetattr(self._ends[1])[5]
            except termios.error:
                return None
        return _SPEEDS.get(speed)

    def read(self, timeout: float) -> bytes:
        """Bytes the reader sent, b"" after `timeout` or when the cable was pulled meanwhile."""
        with self._lock:
            device = self._ends[0] if self._ends is not None else None
            if device is not None:
                self._reading += 1
        if device is None:
            self._plugged.wait(timeout)
            return b""
        try:
            ready, _, _ = select.select([device, self._wake_r], [], [], timeout)
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
                return b""
            return os.read(device, 4096) if ready else b""
        except OSError:
            return b""  # pulled between select and read
        finally:
            with self._lock:
                self._reading -= 1
                self._close_retired()

    def interrupt(self) -> None:
        """End the `read` waiting now, or else the next one, with b"" (if plugged)."""
        with self._lock:
            if not self._closed:
                os.write(self._wake_w, b"x")

    def close(self) -> None:
        self.unplug()
        with self._lock:
            self._closed = True
            os.close(self._wake_r)
            os.close(self._wake_w)


class FakeReader(Protocol):
    def place(self, uid: str) -> None: ...
    def lift(self, uid: str) -> None: ...
    def tap(self, uid: str) -> None: ...
    def close(self) -> None: ...


# An RDM6300 sends a lying card's frame again about every 65 ms (its EM4100 card
# repeats its 64-bit code without end; the module decodes and forwards each).
RDM6300_REPEAT_S = 0.065


def id12_frame(uid: str) -> bytes:
    """An ID-12LA / ID-20LA frame: the RDM6300's with CR LF before its ETX."""
    return rdm6300.encode(uid)[:-1] + b"\r\n\x03"


def em18_frame(uid: str) -> bytes:
    """What an EM-18 sends: the RDM6300's twelve hex digits with no STX nor ETX."""
    return rdm6300.encode(uid)[1:-1]


def line_frame(uid: str) -> bytes:
    """A desktop reader's hex UID per line."""
    return lines.encode(uid)


class FakeRdm6300:
    """Sends a tag's frame when it comes and every `repeat_s` while it lies; `frame` makes
    the bytes of one reading (an RDM6300's by default; `id12_frame`, `em18_frame` and
    `line_frame` are the other 125 kHz layouts a builder may wire).

    EM4100 cards have no anti-collision: two in the field answer at once and the module
    decodes neither, so while two tags lie (a marker and a tile) no frame is sent at all.
    `fade` is a card at the edge of the coil: its frames stop for a while, then go on.
    """

    def __init__(self, cable: PtyCable, repeat_s: float = RDM6300_REPEAT_S,
                 frame: Callable[[str], bytes] = rdm6300.encode) -> None:
        self._cable = cable
        self._repeat_s = repeat_s
        self._frame = frame
        self._present: dict[str, None] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._quiet_until = 0.0  # no frame before this (time.monotonic())
        self._thread = threading.Thread(target=self._repeat, name="fake-rdm6300", daemon=True)
        self._thread.start()

    def place(self, uid: str) -> None:
        with self._changed:
            self._present[uid] = None
            self._changed.notify()
            alone = len(self._present) == 1
        if alone:
            self._cable.write(self._frame(uid))

    def lift(self, uid: str) -> None:
        with self._changed:
            self._present.pop(uid, None)
            self._changed.notify()

    def tap(self, uid: str) -> None:
        with self._changed:
            garbled = bool(self._present.keys() - {uid})
        if not garbled:
            self._cable.write(self._frame(uid))

    def fade(self, quiet_s: float) -> None:
        """The lying card sends no frame for `quiet_s`, then goes on as before."""
        with self._changed:
            self._quiet_until = time.monotonic() + quiet_s

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join()

    def _repeat(self) -> None:
        with self._changed:
            while not self._closed:
                self._changed.wait(self._repeat_s if self._present else None)
                if (len(self._present) == 1 and not self._closed
                        and time.monotonic() >= self._quiet_until):
                    self._cable.write(self._frame(next(iter(self._present))))


class FakeLines:
    """A hub that says `+UID` when a tag comes and `-UID` when it goes.

    `restart` is the hub starting again, as a USB board does when its cable comes back or
    its port is opened: it forgets what it announced and never says `-UID` for it; one
    that `announces_on_start` says `+UID` for each tag lying on it, one that does not
    takes them as its starting point and says nothing until they go or others come.
    """

    def __init__(self, cable: PtyCable, *, announces_on_start: bool = True) -> None:
        self._cable = cable
        self.announces_on_start = announces_on_start
        self._present: dict[str, None] = {}
        self._announced: set[str] = set()

    def place(self, uid: str) -> None:
        self._present[uid] = None
        self._announced.add(uid)
        self._cable.write(lines.encode(uid, "+"))

    def lift(self, uid: str) -> None:
        self._present.pop(uid, None)
        if uid in self._announced:
            self._announced.discard(uid)
            self._cable.write(lines.encode(uid, "-"))

    def tap(self, uid: str) -> None:
        self._cable.write(lines.encode(uid, "+") + lines.encode(uid, "-"))

    def restart(self) -> None:
        self._announced.clear()
        if self.announces_on_start:
            for uid in self._present:
                self.place(uid)

    def close(self) -> None:
        """Nothing runs behind a line reader."""


# The PN532 in HSU mode, as UM0701-02 (PN532 User Manual rev. 02) describes it.
# 6.2.2, HSU wake-up condition: asleep (after power-up and after PowerDown) the chip
# wakes on the 5th rising edge on HSU_RX and needs a moment for its oscillator; the
# bytes until then are lost. Adafruit's driver sends 55 55 and zeros, nfcpy ten zeros.
WAKE_EDGES = 5
WAKE_LOST_BYTES = 2
# 7.2.14 SetSerialBaudRate: BR 0x00..0x08.
PN532_BAUDRATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
# 7.3.10 InRelease and 7.3.5 InListPassiveTarget: at most two targets at once.
PN532_MAX_TARGETS = 2
# Chip timings: an ACK within about a millisecond (6.2.1.3), an activation of a type A
# tag a few milliseconds, and ISO/IEC 14443-3 gives a tag 5 ms to power up after the
# field comes on before the first REQA.
PN532_ACK_S = 0.001
PN532_ACTIVATION_S = 0.003
PN532_FIELD_ON_S = 0.005
# RFConfiguration (7.3.1): the ConfigurationData length of each CfgItem.
PN532_RF_ITEMS = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9}
CIU_FIFO_DATA = 0x6339  # still holds the SENS_REQ (0x26) after a poll no tag answered
# A card with a random UID (a phone, a passport, a bank card): `place(RANDOM_CARD)` lays
# one on a PN532, which answers every activation with a new UID 08xxxxxx (ISO/IEC 14443-3).
RANDOM_CARD = "random"


def rising_edges(byte: int) -> int:
    """Rising edges of one 8N1 character on the line: start bit, LSB first, stop bit."""
    bits = [0] + [(byte >> i) & 1 for i in range(8)] + [1]
    return sum(a < b for a, b in itertools.pairwise(bits))


class FakePn532:
    """Answers the host's commands as a PN532 in HSU mode, with the tags on its pad.

    Like the chip it sleeps after power-up and after PowerDown until woken (see
    `WAKE_EDGES`); it sends its ACK and its answer apart, as the chip does after working
    on a command; it answers Diagnose, GetFirmwareVersion, GetGeneralStatus,
    ReadRegister, WriteRegister, SetSerialBaudRate (and then talks only at the new
    speed), SetParameters, SAMConfiguration, PowerDown, RFConfiguration, InDeselect,
    InRelease and InListPassiveTarget, and anything else, or wrong parameters, with the
    error frame (TFI 7F, 6.2.1.5). It follows RFConfiguration's MxRtyPassiveActivation
    (CfgItem 5): a poll of an empty pad is answered at once with no target for
    0x00-0xFE, and for 0xFF (the chip's default) only acknowledged, then answered when a
    tag is laid on the pad; an ACK from the host, or its next command, aborts the
    waiting poll. It reports at most MaxTg tags.

    Switchable quirks: `first_answer_s` delays the first answer after power-up (`reset`,
    as a replugged cable does), as a chip behind a USB serial adapter may after a
    reopen; `keeps_selected` is the behaviour field reports describe for
    MaxTg=2 (NXP community thread 481864, Adafruit-PN532 issue 52, ESPHome issue 9875):
    the tags one InListPassiveTarget activated stay selected, and the next one then
    finds no tag at all, not even one laid meanwhile: it only acknowledges and waits
    (or, with few retries, answers no target). The tags are found again once that poll
    has ended, the field was switched off (RFConfiguration CfgItem 1) or they were
    released (InRelease, InDeselect). `refuses` holds command codes
    answered with the error frame; `answering` False is a chip that stopped talking.
    """

    def __init__(self, cable: PtyCable, *, keeps_selected: bool = False,
                 first_answer_s: float = 0.0) -> None:
        self._cable = cable
        # How late the chip answers its first command after power-up (behind a USB serial
        # adapter, up to about a second after the port is opened again).
        self.first_answer_s = first_answer_s
        self._present: dict[str, None] = {}
        self._seen = threading.Condition()  # guards everything below and the writes
        self._reports: dict[str, int] = {}  # answers naming each tag, for `tap` to wait on
        self.answering = True
        self.keeps_selected = keeps_selected
        self.refuses: set[int] = set()
        self.commands: list[int] = []  # every command code received, in order
        self.answered_polls = 0  # InListPassiveTarget answers that named a tag
        self._power_up()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="fake-pn532", daemon=True)
        self._thread.start()

    def _power_up(self) -> None:
        self._spoke = False  # answered since power-up
        self.asleep = True
        self._wake_on_hsu = True
        self._edges = 0
        self._lost = 0
        self.baudrate = 115200
        self._new_baudrate: int | None = None  # switched to once the host acknowledges
        self._retries = 0xFF  # MxRtyPassiveActivation after power-up
        self._field = False
        self._selected: list[str] = []  # activated by the last poll (by Tg), not released
        self._blind = False  # the running poll finds nothing (tags were left selected)
        self._waiting: tuple[int, str | None] | None = None  # a poll waits: (MaxTg, UID)
        self._registers: dict[int, int] = {}
        self._last = b""

    def reset(self) -> None:
        """Power the chip off and on: asleep, default settings, nothing selected."""
        with self._seen:
            self._power_up()

    def brown_out(self, dark_s: float) -> None:
        """Its supply sags (a long USB cable, a shared 3.3 V rail): the chip hears and says
        nothing for `dark_s`, then starts again as after power-up. Returns at once."""
        with self._seen:
            self.answering = False

        def back() -> None:
            with self._seen:
                self._power_up()
                self.answering = True

        timer = threading.Timer(dark_s, back)
        timer.daemon = True
        timer.start()

    def place(self, uid: str) -> None:
        with self._seen:
            self._present[uid] = None
            self._answer_waiting_poll()

    def lift(self, uid: str) -> None:
        with self._seen:
            self._present.pop(uid, None)
            if uid in self._selected:
                self._selected.remove(uid)

    def tap(self, uid: str, timeout: float = 30.0) -> None:
        """Place the tag until one poll has seen it, then lift it: as a player holds a
        tile until the pad has read it, however late a loaded machine polls."""
        with self._seen:
            self._present[uid] = None
            target = self._reports.get(uid, 0) + 1
            self._answer_waiting_poll()
            self._seen.wait_for(lambda: self._reports.get(uid, 0) >= target or self._closed
                                or not self._cable.plugged, timeout)
        self.lift(uid)

    def close(self) -> None:
        self._closed = True
        self._cable.interrupt()
        with self._seen:
            self._seen.notify_all()
        self._thread.join()

    # --- the line --------------------------------------------------------------------

    def _serve(self) -> None:
        framer = pn532.Framer()
        while not self._closed:
            # A long read: an idle chip costs nothing; `close` interrupts it.
            data = self._cable.read(0.5)
            with self._seen:
                # A board powered through its cable hears nothing once it is pulled, not
                # even the bytes read just before: they must not wake the chip `reset`
                # has put to sleep.
                if not self.answering or not self._cable.plugged:
                    framer.reset()
                    continue
                speed = self._cable.host_baudrate()
                if speed is not None and speed == self._new_baudrate:
                    # The host is at the new speed: its ACK came, or was lost in the pty
                    # (nfcpy flushes its output, ACK included, before reopening the port
                    # at the new speed: on a wire the ACK is gone by then, in a pty not).
                    self.baudrate, self._new_baudrate = speed, None
                if speed not in (None, self.baudrate):
                    framer.reset()  # bytes at another speed are noise to the UART
                    continue
                data = self._awake_bytes(data)
            for item in framer.feed(data):
                with self._seen:
                    if not self._cable.plugged:
                        break
                    self._frame(item)

    def _awake_bytes(self, data: bytes) -> bytes:
        """The bytes an awake chip receives: none while it sleeps or wakes."""
        if self.asleep:
            if not self._wake_on_hsu:
                return b""
            for at, byte in enumerate(data):
                self._edges += rising_edges(byte)
                if self._edges >= WAKE_EDGES:
                    self.asleep = False
                    self._lost = WAKE_LOST_BYTES
                    data = data[at + 1 :]
                    break
            else:
                return b""
        lost, self._lost = min(self._lost, len(data)), max(0, self._lost - len(data))
        return data[lost:]

    def _write(self, data: bytes) -> None:
        self._cable.write(data)

    def _frame(self, item: pn532.Frame) -> None:
        if isinstance(item, pn532.Ack):
            self._end_poll()  # the host aborts the waiting poll
            if self._new_baudrate is not None:
                self.baudrate, self._new_baudrate = self._new_baudrate, None
        elif isinstance(item, pn532.Nack):
            self._write(self._last)
        elif isinstance(item, pn532.Info) and item.tfi == pn532.HOST and item.payload:
            self._end_poll()
            self._new_baudrate = None
            self.commands.append(item.payload[0])
            if not self._spoke:
                self._seen.wait_for(lambda: self._closed, self.first_answer_s)
                self._spoke = True
            self._write(pn532.ACK)
            # The answer comes once the chip has worked on the command: its own read.
            self._seen.wait(PN532_ACK_S)
            self._command(item.payload[0], item.payload[1:])

    def _answer(self, code: int, body: bytes = b"") -> None:
        self._last = pn532.frame(pn532.CHIP, bytes([code + 1]) + body)
        self._write(self._last)

    def _refuse(self) -> None:
        self._last = pn532.frame(pn532.ERROR_TFI, b"")
        self._write(self._last)

    # --- the commands ----------------------------------------------------------------

    def _command(self, code: int, params: bytes) -> None:
        handler = _PN532_COMMANDS.get(code)
        if code in self.refuses or handler is None or not handler(self, params):
            self._refuse()

    def _diagnose(self, params: bytes) -> bool:
        if params[:1] == b"\x00":  # communication line test: the data comes back
            self._answer(0x00, params)
        elif params[:1] in (b"\x01", b"\x02"):  # ROM and RAM tests: fine
            self._answer(0x00, b"\x00")
        else:
            return False
        return True

    def _firmware_version(self, params: bytes) -> bool:
        self._answer(0x02, bytes([0x32, 0x01, 0x06, 0x07]))  # PN532 v1.6, every type
        return not params

    def _general_status(self, params: bytes) -> bool:
        # Err, Field (no external field), NbTg, per target Tg BrRx BrTx Type, SAM status.
        targets = b"".join(bytes([n, 0, 0, 0]) for n in range(1, len(self._selected) + 1))
        self._answer(0x04, bytes([0x00, 0x00, len(self._selected)]) + targets + b"\x00")
        return not params

    def _read_register(self, params: bytes) -> bool:
        if not params or len(params) % 2:
            return False
        addresses = [params[i] << 8 | params[i + 1] for i in range(0, len(params), 2)]
        self._answer(0x06, bytes(self._registers.get(a, 0) for a in addresses))
        return True

    def _write_register(self, params: bytes) -> bool:
        if not params or len(params) % 3:
            return False
        for i in range(0, len(params), 3):
            self._registers[params[i] << 8 | params[i + 1]] = params[i + 2]
        self._answer(0x08)
        return True

    def _set_serial_baudrate(self, params: bytes) -> bool:
        if len(params) != 1 or params[0] >= len(PN532_BAUDRATES):
            return False
        # Answered at the old speed; the new one counts once the host has acknowledged.
        self._answer(0x10)
        self._new_baudrate = PN532_BAUDRATES[params[0]]
        return True

    def _set_parameters(self, params: bytes) -> bool:
        if len(params) != 1:
            return False
        self._answer(0x12)
        return True

    def _sam_configuration(self, params: bytes) -> bool:
        if not 1 <= len(params) <= 3 or params[0] not in (1, 2, 3, 4):
            return False
        self._answer(0x14)
        return True

    def _power_down(self, params: bytes) -> bool:
        if not 1 <= len(params) <= 2:
            return False
        # Asleep before the answer leaves: a host that has read it finds the chip so.
        self.asleep = True
        self._edges = 0
        self._wake_on_hsu = bool(params[0] & 0x10)  # WakeUpEnable bit 4: HSU
        self._field = False
        self._release(None)
        self._answer(0x16, b"\x00")
        return True

    def _rf_configuration(self, params: bytes) -> bool:
        if not params or PN532_RF_ITEMS.get(params[0]) != len(params) - 1:
            return False
        if params[0] == 0x01 and not params[1] & 0x01:
            # The field off: every tag loses power and forgets that it was selected.
            self._field = False
            self._release(None)
        elif params[0] == 0x01:
            self._switch_field_on()
        elif params[0] == 0x05:
            self._retries = params[3]
        self._answer(0x32)
        return True

    def _release_command(self, code: int, params: bytes) -> bool:
        if len(params) != 1 or params[0] > PN532_MAX_TARGETS:
            return False
        self._release(None if params[0] == 0 else params[0])
        self._answer(code, b"\x00")
        return True

    def _release(self, number: int | None) -> None:
        """Forget the targets the chip activated (`None`: all of them)."""
        if number is None:
            self._selected.clear()
        elif number <= len(self._selected):
            del self._selected[number - 1]
        self._blind = self._blind and bool(self._selected)

    def _switch_field_on(self) -> None:
        if not self._field:
            self._field = True
            self._seen.wait(PN532_FIELD_ON_S)

    def _in_list_passive_target(self, params: bytes) -> bool:
        if len(params) < 2 or params[0] not in range(1, PN532_MAX_TARGETS + 1):
            return False
        max_tg, brty, initiator = params[0], params[1], params[2:]
        only = initiator.replace(b"\x88", b"", 1).hex().upper() if initiator else None
        self._switch_field_on()
        # Tags still selected by the last activation: with the quirk this one is blind.
        self._blind = self.keeps_selected and bool(self._selected)
        self._selected = []
        if brty != 0x00:  # only ISO/IEC 14443 type A tags lie on these pads
            self._answer_poll(0, None)
            return True
        self._waiting = (max_tg, only)
        if self._findable(only) or self._retries != 0xFF:
            self._answer_waiting_poll(force=True)
        return True

    def _findable(self, only: str | None) -> list[str]:
        if self._blind:
            return []
        return [uid for uid in self._present if only in (None, uid)]

    def _answer_waiting_poll(self, force: bool = False) -> None:
        if self._waiting is None or not self.answering:
            return
        max_tg, only = self._waiting
        if force or self._findable(only):
            self._answer_poll(max_tg, only)

    def _answer_poll(self, max_tg: int, only: str | None) -> None:
        # The tags answer as the activation begins; meanwhile (the lock is let go while
        # it takes its time) nothing else may answer this poll.
        uids = self._findable(only)[:max_tg]
        self._waiting = None
        if uids:
            self._seen.wait(PN532_ACTIVATION_S * len(uids))
        self._blind = False
        self._selected = uids
        self._registers[CIU_FIFO_DATA] = 0x00 if uids else 0x26
        drawn = ["08" + os.urandom(3).hex().upper() if uid == RANDOM_CARD else uid
                 for uid in uids]
        self._answer(pn532.IN_LIST_PASSIVE_TARGET, pn532.target_data(drawn))
        for uid in uids:
            self._reports[uid] = self._reports.get(uid, 0) + 1
        if uids:
            self.answered_polls += 1
            self._seen.notify_all()

    def _end_poll(self) -> None:
        """A waiting poll aborted: what it could not see can be found again."""
        if self._waiting is not None:
            self._waiting = None
            self._blind = False


_PN532_COMMANDS: dict[int, Callable[[FakePn532, bytes], bool]] = {
    0x00: FakePn532._diagnose,
    0x02: FakePn532._firmware_version,
    0x04: FakePn532._general_status,
    0x06: FakePn532._read_register,
    0x08: FakePn532._write_register,
    0x10: FakePn532._set_serial_baudrate,
    0x12: FakePn532._set_parameters,
    pn532.SAM_CONFIGURATION: FakePn532._sam_configuration,
    0x16: FakePn532._power_down,
    pn532.RF_CONFIGURATION: FakePn532._rf_configuration,
    0x44: lambda chip, params: chip._release_command(0x44, params),  # InDeselect
    0x52: lambda chip, params: chip._release_command(0x52, params),  # InRelease
    pn532.IN_LIST_PASSIVE_TARGET: FakePn532._in_list_passive_target,
}


def fake_reader(protocol: str, cable: PtyCable, removal_s: float) -> FakeReader:
    if protocol == "rdm6300":
        return FakeRdm6300(cable)
    if protocol == "pn532":
        return FakePn532(cable)
    return FakeLines(cable)
