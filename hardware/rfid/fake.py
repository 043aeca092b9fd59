"""Fake readers for the simulator, the tests and the benchmarks: real frames on a real tty.

A `PtyCable` is a reader's USB cable: a pseudo-terminal pair behind a stable name (a
symlink, as udev gives real readers). The reader opens the name like any serial port;
the fake device writes its frames into the other end. Unplugging closes the device's
end, so the reader sees the port vanish; replugging makes a new pair behind the same
name, so the reader's reopening finds it again.
"""

from __future__ import annotations

import os
import pty
import select
import threading
import tty
from pathlib import Path
from typing import Protocol

from hardware.rfid import lines, pn532, rdm6300

# UID sizes the fakes send: an EM4100 card number; a 7-byte ISO 14443A NFCID1.
UID_BYTES = {"rdm6300": 5, "pn532": 7, "lines": 7}


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


class FakeRdm6300:
    """Sends a tag's frame when it comes and every `repeat_s` while it lies."""

    def __init__(self, cable: PtyCable, repeat_s: float) -> None:
        self._cable = cable
        self._repeat_s = repeat_s
        self._present: dict[str, None] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._repeat, name="fake-rdm6300", daemon=True)
        self._thread.start()

    def place(self, uid: str) -> None:
        with self._changed:
            self._present[uid] = None
            self._changed.notify()
        self._cable.write(rdm6300.encode(uid))

    def lift(self, uid: str) -> None:
        with self._changed:
            self._present.pop(uid, None)

    def tap(self, uid: str) -> None:
        self._cable.write(rdm6300.encode(uid))

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join()

    def _repeat(self) -> None:
        with self._changed:
            while not self._closed:
                self._changed.wait(self._repeat_s if self._present else None)
                frames = b"".join(rdm6300.encode(uid) for uid in self._present)
                if frames and not self._closed:
                    self._cable.write(frames)


class FakeLines:
    """A hub that says `+UID` when a tag comes and `-UID` when it goes."""

    def __init__(self, cable: PtyCable) -> None:
        self._cable = cable

    def place(self, uid: str) -> None:
        self._cable.write(lines.encode(uid, "+"))

    def lift(self, uid: str) -> None:
        self._cable.write(lines.encode(uid, "-"))

    def tap(self, uid: str) -> None:
        self._cable.write(lines.encode(uid, "+") + lines.encode(uid, "-"))

    def close(self) -> None:
        """Nothing runs behind a line reader."""


# What the fake PN532 answers besides polls (after the answer code).
PN532_ANSWERS = {
    pn532.SAM_CONFIGURATION: b"",
    pn532.RF_CONFIGURATION: b"",
    0x02: bytes([0x32, 0x01, 0x06, 0x07]),  # GetFirmwareVersion: PN532 v1.6
}


class FakePn532:
    """Answers the host's commands as a PN532 in HSU mode, with the tags on its pad.

    Like the chip, it follows RFConfiguration's MxRtyPassiveActivation (CfgItem 5): a
    poll of an empty pad is answered at once with no target for 0x00-0xFE, and for
    0xFF (the chip's default) only acknowledged, then answered when a tag is laid on
    the pad; an ACK from the host, or its next command, aborts the waiting poll.
    """

    def __init__(self, cable: PtyCable) -> None:
        self._cable = cable
        self._present: dict[str, None] = {}
        self._seen = threading.Condition()  # guards everything below and the writes
        self._reports: dict[str, int] = {}  # answers naming each tag, for `tap` to wait on
        self.answering = True  # False: a chip that stopped talking
        self._retries = 0xFF  # MxRtyPassiveActivation after power-up
        self._waiting = False  # a poll waits for a tag
        self._last = b""
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="fake-pn532", daemon=True)
        self._thread.start()

    def place(self, uid: str) -> None:
        with self._seen:
            self._present[uid] = None
            self._answer_waiting_poll()

    def lift(self, uid: str) -> None:
        with self._seen:
            self._present.pop(uid, None)

    def tap(self, uid: str, timeout: float = 2.0) -> None:
        """Place the tag until one poll has seen it, then lift it."""
        with self._seen:
            self._present[uid] = None
            target = self._reports.get(uid, 0) + 1
            self._answer_waiting_poll()
            self._seen.wait_for(lambda: self._reports.get(uid, 0) >= target or self._closed
                                or not self._cable.plugged, timeout)
            self._present.pop(uid, None)

    def close(self) -> None:
        self._closed = True
        self._cable.interrupt()
        with self._seen:
            self._seen.notify_all()
        self._thread.join()

    def _serve(self) -> None:
        framer = pn532.Framer()
        while not self._closed:
            # A long read: an idle chip costs nothing; `close` interrupts it.
            for item in framer.feed(self._cable.read(0.5)):
                with self._seen:
                    if not self.answering:
                        continue
                    if isinstance(item, pn532.Ack):
                        self._waiting = False  # the host aborts the waiting poll
                    elif isinstance(item, pn532.Nack):
                        self._cable.write(self._last)
                    elif (isinstance(item, pn532.Info) and item.tfi == pn532.HOST
                          and item.payload):
                        self._waiting = False
                        self._answer(item.payload[0], item.payload[1:])

    def _answer(self, code: int, params: bytes) -> None:
        if code == pn532.IN_LIST_PASSIVE_TARGET:
            self._cable.write(pn532.ACK)
            if self._present or self._retries != 0xFF:
                self._answer_poll()
            else:
                self._waiting = True
            return
        if code == pn532.RF_CONFIGURATION and params[:1] == b"\x05" and len(params) == 4:
            self._retries = params[3]
        if code in PN532_ANSWERS:
            self._last = pn532.frame(pn532.CHIP, bytes([code + 1]) + PN532_ANSWERS[code])
        else:
            self._last = pn532.frame(pn532.ERROR_TFI, b"")
        self._cable.write(pn532.ACK + self._last)

    def _answer_waiting_poll(self) -> None:
        if self._waiting and self.answering:
            self._waiting = False
            self._answer_poll()

    def _answer_poll(self) -> None:
        uids = list(self._present)[:2]
        self._last = pn532.frame(pn532.CHIP, bytes([pn532.IN_LIST_PASSIVE_TARGET + 1])
                                 + pn532.target_data(uids))
        self._cable.write(self._last)
        for uid in uids:
            self._reports[uid] = self._reports.get(uid, 0) + 1
        if uids:
            self._seen.notify_all()


def fake_reader(protocol: str, cable: PtyCable, removal_s: float) -> FakeReader:
    if protocol == "rdm6300":
        return FakeRdm6300(cable, repeat_s=removal_s / 3)
    if protocol == "pn532":
        return FakePn532(cable)
    return FakeLines(cable)
