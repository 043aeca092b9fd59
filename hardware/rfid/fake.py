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
            for fd in ends:
                os.close(fd)

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
        if device is None:
            self._plugged.wait(timeout)
            return b""
        ready, _, _ = select.select([device, self._wake_r], [], [], timeout)
        if self._wake_r in ready:
            os.read(self._wake_r, 64)
            return b""
        try:
            return os.read(device, 4096) if ready else b""
        except OSError:
            return b""  # pulled between select and read

    def close(self) -> None:
        self.unplug()
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
    """Answers the host's commands as a PN532 in HSU mode, with the tags on its pad."""

    def __init__(self, cable: PtyCable) -> None:
        self._cable = cable
        self._present: dict[str, None] = {}
        self._seen = threading.Condition()
        self._reports: dict[str, int] = {}  # answers naming each tag, for `tap` to wait on
        self.answering = True  # False: a chip that stopped talking
        self._last = b""
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="fake-pn532", daemon=True)
        self._thread.start()

    def place(self, uid: str) -> None:
        with self._seen:
            self._present[uid] = None

    def lift(self, uid: str) -> None:
        with self._seen:
            self._present.pop(uid, None)

    def tap(self, uid: str, timeout: float = 2.0) -> None:
        """Place the tag until one poll has seen it, then lift it."""
        with self._seen:
            self._present[uid] = None
            target = self._reports.get(uid, 0) + 1
            self._seen.wait_for(lambda: self._reports.get(uid, 0) >= target or self._closed
                                or not self._cable.plugged, timeout)
            self._present.pop(uid, None)

    def close(self) -> None:
        self._closed = True
        with self._seen:
            self._seen.notify_all()
        self._thread.join()

    def _serve(self) -> None:
        framer = pn532.Framer()
        while not self._closed:
            for item in framer.feed(self._cable.read(0.05)):
                if not self.answering:
                    continue
                if isinstance(item, pn532.Nack):
                    self._cable.write(self._last)
                elif isinstance(item, pn532.Info) and item.tfi == pn532.HOST and item.payload:
                    self._answer(item.payload[0])

    def _answer(self, code: int) -> None:
        if code == pn532.IN_LIST_PASSIVE_TARGET:
            with self._seen:
                uids = list(self._present)[:2]
                body = pn532.target_data(uids)
        elif code in PN532_ANSWERS:
            uids, body = [], PN532_ANSWERS[code]
        else:
            self._last = pn532.frame(pn532.ERROR_TFI, b"")
            self._cable.write(pn532.ACK + self._last)
            return
        self._last = pn532.frame(pn532.CHIP, bytes([code + 1]) + body)
        self._cable.write(pn532.ACK + self._last)
        if uids:
            with self._seen:
                for uid in uids:
                    self._reports[uid] = self._reports.get(uid, 0) + 1
                self._seen.notify_all()


def fake_reader(protocol: str, cable: PtyCable, removal_s: float) -> FakeReader:
    if protocol == "rdm6300":
        return FakeRdm6300(cable, repeat_s=removal_s / 3)
    if protocol == "pn532":
        return FakePn532(cable)
    return FakeLines(cable)
