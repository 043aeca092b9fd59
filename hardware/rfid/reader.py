"""One reader on one pad: a thread that opens the port, reads, parses and enqueues.

The thread only moves bytes between the port and the protocol object, and puts events
on the queue. A port that fails to open, errors or vanishes gives one `ReaderOffline`
and is reopened with exponential backoff (capped at 5 s); it gives `ReaderOnline` when
the reader answers again. The thread never ends before `close()`: an unexpected error
is reported as the reader going offline and retried like any other.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import serial  # type: ignore[import-untyped]

from hardware.events import (
    RANDOM_UID,
    ReaderOffline,
    ReaderOnline,
    TagPlaced,
    TagRemoved,
    is_random_uid,
)
from hardware.rfid.presence import Presence
from hardware.rfid.protocol import Driver, ReaderSilent, Reading
from hardware.rfid.sniff import KEPT_BYTES
from hardware.sink import EventQueue

log = logging.getLogger(__name__)

BACKOFF_FIRST_S = 0.1
BACKOFF_MAX_S = 5.0
IDLE_WAIT_S = 1.0  # read timeout when nothing needs the clock: no tag, no polling


def open_serial(url: str, baudrate: int, timeout: float) -> Any:
    return serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, exclusive=True)


class Reader(threading.Thread):
    def __init__(self, pad: str, url: str, driver: Driver, queue: EventQueue, *,
                 removal_s: float, opener: Callable[[str, int, float], Any] = open_serial
                 ) -> None:
        super().__init__(name=f"rfid-{pad}", daemon=True)
        self.pad = pad
        self.url = url
        self._driver = driver
        # What opens the port: a serial line, or an input device for a keyboard reader.
        self._open = opener
        self._queue = queue
        self._presence = Presence(removal_s)
        # Fine enough that a tag's removal is reported close to its removal time.
        self._tick_s = min(0.05, removal_s / 4)
        self._closing = threading.Event()
        self._port: Any = None
        self._online: bool | None = None  # None: not known yet
        self._times_online = 0
        self._resumptions = 0
        self._port_lock = threading.Lock()
        self._heard = bytearray()  # the first bytes the reader sent, to say what they are

    @property
    def online(self) -> bool:
        return bool(self._online)

    @property
    def heard(self) -> bytes:
        """The first bytes the reader sent since it was opened (up to `KEPT_BYTES`)."""
        return bytes(self._heard)

    @property
    def bad_frames(self) -> int:
        """Frames dropped for a wrong checksum or shape since the reader was opened."""
        return self._driver.bad_frames

    def close(self, timeout: float = 2.0) -> None:
        self._closing.set()
        with self._port_lock:
            if self._port is not None:
                self._port.cancel_read()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout)

    def run(self) -> None:
        backoff = BACKOFF_FIRST_S
        while not self._closing.is_set():
            times_online = self._times_online
            try:
                self._serve()
            except (serial.SerialException, OSError, ValueError, ReaderSilent) as err:
                detail = str(err) or type(err).__name__
                self._went_offline(f"{self.url} stopped: {detail}" if self._port is not None
                                   else f"cannot open {self.url}: {detail}")
            except Exception as err:  # a defect must not silence a pad for the whole game
                log.exception("reader of pad %s failed", self.pad)
                self._went_offline(f"internal error: {err!r}")
            finally:
                self._release_port()
            if self._times_online != times_online:
                backoff = BACKOFF_FIRST_S  # it worked for a while: retry soon
            if self._closing.wait(backoff):
                break
            backoff = min(backoff * 2, BACKOFF_MAX_S)

    def _serve(self) -> None:
        driver = self._driver
        port = self._open(self.url, driver.baudrate, self._tick_s)
        with self._port_lock:
            self._port = port
        if self._closing.is_set():
            return
        now = time.monotonic()
        out = driver.start(now)
        while not self._closing.is_set():
            if out:
                port.write(out)
            self._check_online(now)
            wait = min(driver.tick_s or IDLE_WAIT_S,
                       self._tick_s if self._presence.expiring else IDLE_WAIT_S)
            if port.timeout != wait:  # rarely: on a real port each change reprograms the tty
                port.timeout = wait
            data = port.read(port.in_waiting or 1)
            if data and port.in_waiting:  # the rest of a frame that was arriving
                data += port.read(port.in_waiting)
            now = time.monotonic()
            if data:
                if len(self._heard) < KEPT_BYTES:
                    self._heard += data[: KEPT_BYTES - len(self._heard)]
                readings = driver.receive(data, now)
                self._check_online(now)
                for reading in readings:
                    change = self._presence.update(_stable(reading), now)
                    if change is not None:
                        self._put_change(*change)
            out = driver.tick(now)
            if driver.resumptions != self._resumptions:
                self._resumptions = driver.resumptions
                self._presence.restart(now)
            if self._online:
                # Silence counts only while the pad was watched: a chip that browned out
                # for a moment did not see the marker go.
                for uid in self._presence.expire(driver.watched_until(now)):
                    self._queue.put(TagRemoved(self.pad, uid))

    def _put_change(self, change: str, uid: str) -> None:
        if uid == RANDOM_UID and change == "placed":
            log.info("pad %s: a card with a random UID (a phone, a passport, a bank card) "
                     "lies on it", self.pad)
        self._queue.put(TagPlaced(self.pad, uid) if change == "placed"
                        else TagRemoved(self.pad, uid))

    def _check_online(self, now: float) -> None:
        if self._driver.ready and not self._online:
            self._online = True
            self._times_online += 1
            self._presence.restart(now)
            self._queue.put(ReaderOnline(self.pad))

    def _went_offline(self, reason: str) -> None:
        if self._closing.is_set():
            return
        if self._online is not False:
            self._queue.put(ReaderOffline(self.pad, reason))
        self._online = False

    def _release_port(self) -> None:
        with self._port_lock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                log.debug("closing the port of pad %s failed", self.pad, exc_info=True)


def _stable(reading: Reading) -> Reading:
    """A random UID, new at every read, as the one UID every such card is reported by."""
    return type(reading)(RANDOM_UID) if is_random_uid(reading.uid) else reading
