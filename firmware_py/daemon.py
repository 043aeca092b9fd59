"""The table service: hardware events -> table -> journal -> view socket, under systemd.

One controller thread owns the game: it takes an event, lets the table handle it (the
table journals what it accepts before returning), then publishes the new public view.
The view publisher streams newline-delimited JSON views to any number of screens from
its own thread, so a slow or dead screen never holds up the table. Bad input from
outside is the table's to reject calmly; an unexpected error ends the process with
status 1 and systemd restarts it, and the journal brings the game back.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import grp
import json
import logging
import os
import queue
import selectors
import signal
import socket
import sys
import termios
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from firmware_py.cli import collection_resumed
from firmware_py.config import DEFAULT_CONFIG, Config, ConfigError, load_config
from firmware_py.journal import Journal
from firmware_py.notify import Notifier, still_starting
from hardware import HardwareError
from roundhouse.errors import RoundhouseError
from roundhouse.view import View

if TYPE_CHECKING:
    from gpiozero.pins import Factory  # type: ignore[import-untyped]

    from firmware_py.table import Table
    from hardware.events import Event
    from hardware.tags import TagRegistry

log = logging.getLogger(__name__)

# The group of the screens: the view socket's, and nothing else's.
VIEW_GROUP = "roundhouse-view"
# Exit statuses: 2 = the configuration or the journal needs a person (the unit's
# RestartPreventExitStatus), 1 = anything else (systemd restarts the service).
EXIT_NEEDS_ATTENTION = 2
# How many views a client may fall behind before it skips to the latest.
BACKLOG = 64
# A client that has not taken a view for this long is dropped.
CLIENT_STALL_S = 30.0
# The most screens served at once. Each costs a file descriptor; one more is told so
# and closed, so the table's own files (journal, readers, buttons) always have room.
MAX_SCREENS = 64
# After accept() fails (out of file descriptors: EMFILE, ENFILE) the socket is left
# alone this long, rather than spun on, and the screens already there are still served.
ACCEPT_PAUSE_S = 1.0


class ServiceError(RoundhouseError):
    """The service cannot start: its socket or hardware cannot be set up."""


class _Closeable(Protocol):
    def close(self) -> None: ...


class ViewPublisher:
    """A Unix stream socket streaming views, one JSON line each, with a growing "seq".

    A new client first gets the latest view, then every view after it while it keeps
    up. A client more than `BACKLOG` views behind skips to the latest one. `publish`
    only appends to a bounded history and wakes the I/O thread, so it never blocks. At
    most `MAX_SCREENS` are served; one more gets a `{"refused": ...}` line and is closed.
    No error of `accept` stops the thread: out of file descriptors, it pauses accepting
    and goes on serving the screens it has.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seq = 0
        self._history: deque[tuple[int, bytes]] = deque(maxlen=BACKLOG)
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_w.setblocking(False)
        self._server: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self._refusal = (json.dumps({"refused": f"this table already serves {MAX_SCREENS} "
                                     "screens: close one and connect again"}) + "\n").encode()
        self.screens = 0  # served now (read by tests and benchmarks)
        self._starved = False  # accept() failed and has not worked since
        self._made: list[Path] = []

    def start(self) -> None:
        try:
            # A folder made here goes again at close (the Pi's is systemd's own).
            self._made = [p for p in (self.path.parent, *self.path.parent.parents)
                          if not p.exists()]
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.is_socket():
                if _answers(self.path):
                    raise ServiceError(f"{self.path}: another service is serving views there; "
                                       "is `roundhouse run` already running for this table?")
                self.path.unlink()  # left behind by a killed service
            elif self.path.exists():
                raise ServiceError(f"{self.path}: exists and is not a socket; "
                                   "service.socket must name a free path")
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
            server.bind(str(self.path))
            # Views are public, but only the screens' group may follow them: a group of
            # their own, which gives nothing else (the journal is the service's alone).
            os.chmod(self.path, 0o660)
            _give_to_view_group(self.path)
            server.listen(MAX_SCREENS)
        except OSError as err:
            raise ServiceError(f"{self.path}: cannot serve views there: {err}") from None
        server.setblocking(False)
        self._server = server
        self._thread = threading.Thread(target=self._serve, name="views", daemon=True)
        self._thread.start()

    def publish(self, view: View) -> int:
        with self._lock:
            self.seq += 1
            self._history.append((self.seq, replace(view, seq=self.seq).to_line()))
            seq = self.seq
        self._wake()
        return seq

    @property
    def alive(self) -> bool:
        """Whether the thread that serves the screens still runs."""
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self._closing = True
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for folder in self._made:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if empty
        self._wake_r.close()
        self._wake_w.close()

    def _wake(self) -> None:
        # A full wake socket already holds a pending wake-up.
        with contextlib.suppress(BlockingIOError, OSError):
            self._wake_w.send(b"\0")

    def _serve(self) -> None:
        assert self._server is not None
        server = self._server
        selector = selectors.DefaultSelector()
        selector.register(server, selectors.EVENT_READ)
        selector.register(self._wake_r, selectors.EVENT_READ)
        clients: dict[socket.socket, _Client] = {}
        paused_until: float | None = None
        try:
            while not self._closing:
                timeout = CLIENT_STALL_S / 3
                if paused_until is not None:
                    timeout = max(0.0, min(timeout, paused_until - time.monotonic()))
                    if timeout == 0.0:
                        selector.register(server, selectors.EVENT_READ)
                        paused_until = None
                for key, mask in selector.select(timeout=timeout):
                    sock = cast(socket.socket, key.fileobj)
                    if sock is server:
                        if not self._accept_all(server, selector, clients):
                            selector.unregister(server)
                            paused_until = time.monotonic() + ACCEPT_PAUSE_S
                    elif sock is self._wake_r:
                        with contextlib.suppress(BlockingIOError):
                            self._wake_r.recv(4096)
                    elif mask & selectors.EVENT_READ and not _alive(sock):
                        self._drop(sock, selector, clients)
                with self._lock:
                    history = tuple(self._history)
                now = time.monotonic()
                for sock, client in list(clients.items()):
                    if not client.pump(history, now):
                        self._drop(sock, selector, clients)
                    else:
                        events = selectors.EVENT_READ | (
                            selectors.EVENT_WRITE if client.pending else 0)
                        selector.modify(sock, events)
        finally:
            for sock in list(clients):
                self._drop(sock, selector, clients)
            selector.close()
            server.close()

    def _accept_all(self, server: socket.socket, selector: selectors.BaseSelector,
                    clients: dict[socket.socket, _Client]) -> bool:
        """Take the screens waiting; False when accepting must pause a while."""
        while True:
            try:
                sock, _ = server.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return True
            except OSError as err:
                # Out of file descriptors, or memory: the screens already there go on.
                if not self._starved:
                    log.warning("view socket: cannot take a new screen now: %s; the "
                                "screens already there are still served", err)
                    self._starved = True
                return False
            self._starved = False
            if len(clients) >= MAX_SCREENS:
                stuck = _stuck(clients)
                if stuck is not None:
                    # A real screen reads what it is sent; one that does not never keeps
                    # it out.
                    log.warning("view socket: dropped a screen that has not read its "
                                "views, for a new one (%d served at most)", MAX_SCREENS)
                    self._drop(stuck, selector, clients)
            if len(clients) >= MAX_SCREENS:
                with contextlib.suppress(OSError):
                    sock.send(self._refusal)
                sock.close()
                log.warning("view socket: refused a screen beyond the %d served", MAX_SCREENS)
                continue
            sock.setblocking(False)
            clients[sock] = _Client(sock)
            selector.register(sock, selectors.EVENT_READ)
            self.screens = len(clients)

    def _drop(self, sock: socket.socket, selector: selectors.BaseSelector,
              clients: dict[socket.socket, _Client]) -> None:
        selector.unregister(sock)
        del clients[sock]
        sock.close()
        self.screens = len(clients)


class _Client:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.pending = b""
        self.sent_seq = 0
        self.since = time.monotonic()

    def pump(self, history: Sequence[tuple[int, bytes]], now: float) -> bool:
        """Write what the socket takes; False when the client is gone or stalled."""
        while True:
            if not self.pending:
                if not history or history[-1][0] <= self.sent_seq:
                    return True
                first = history[0][0]
                # The next view if it is still kept and the client is not new, else the
                # latest.
                index = (self.sent_seq + 1 - first
                         if self.sent_seq and self.sent_seq + 1 >= first else -1)
                self.sent_seq, self.pending = history[index]
                self.since = now
            try:
                sent = self.sock.send(self.pending)
            except BlockingIOError:
                return now - self.since < CLIENT_STALL_S
            except OSError:
                return False
            self.pending = self.pending[sent:]
            self.since = now


def _made_by_a_start(database: Path) -> list[Path]:
    """The files a start makes for a journal that is not there yet: removed again if
    that start fails, so that a failed try leaves nothing behind."""
    if database.exists() or database.is_symlink():
        return []
    return [database.with_name(database.name + suffix)
            for suffix in ("", "-wal", "-shm", ".lock")]


def _remove(paths: Sequence[Path]) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()


def _give_to_view_group(path: Path) -> None:
    """The socket to the screens' group, where the system has it (systemd-sysusers makes
    it on the Pi; a laptop or the simulator keeps the service's own group)."""
    try:
        gid = grp.getgrnam(VIEW_GROUP).gr_gid
    except KeyError:
        return
    try:
        os.chown(path, -1, gid)
    except OSError as err:
        log.warning("view socket: cannot give it to the group %s (%s): screens in that "
                    "group cannot follow the table; the service's user must be a member "
                    "of it (docs/install.md, step 3)", VIEW_GROUP, err.strerror)


def _unread(sock: socket.socket) -> int:
    """The bytes sent on a Unix socket that its peer has not read yet (SIOCOUTQ)."""
    try:
        buf = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except OSError:
        return 0
    return int.from_bytes(buf, sys.byteorder, signed=True)


def _stuck(clients: dict[socket.socket, _Client]) -> socket.socket | None:
    """The screen that has left views unread the longest, or None if every screen
    has read all it was sent."""
    behind = [(client.since, sock) for sock, client in clients.items()
              if client.pending or _unread(sock) > 0]
    return min(behind, key=lambda pair: pair[0])[1] if behind else None


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def _alive(sock: socket.socket) -> bool:
    """Clients never talk; readable means closed (or noise to discard)."""
    try:
        return sock.recv(4096) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


class Service:
    def __init__(self, config: Config, *, attach_hardware: bool = True,
                 move_aside: bool = False, check_journal: bool = False,
                 notifier: Notifier | None = None) -> None:
        self.config = config
        self.attach_hardware = attach_hardware
        self.move_aside = move_aside
        self.check_journal = check_journal
        self.notifier = notifier or Notifier()
        self.events: queue.Queue[Event] = queue.Queue()
        self.publisher = ViewPublisher(config.socket)
        # Set when the controller loop ends; `roundhouse run` also sets it on a signal.
        self.finished = threading.Event()
        self.failure: BaseException | None = None
        self._opened = contextlib.ExitStack()
        self._thread: threading.Thread | None = None
        self._readers: list[threading.Thread] = []
        self.journal: Journal
        self.registry: TagRegistry
        self.table: Table

    def start(self) -> None:
        from firmware_py.table import Table
        from hardware.tags import TagRegistry

        # Whatever is open when a step fails is closed again, newest first.
        with contextlib.ExitStack() as opened:
            factory = None
            if self.attach_hardware:
                from hardware.buttons import make_pin_factory

                # First: a machine without the GPIO library (a laptop given the Pi's
                # configuration) is told so before anything is made on its disk.
                factory = make_pin_factory(self.config.pin_factory)
                opened.callback(_close_quietly, factory)
            started = False
            made = _made_by_a_start(self.config.database)

            def forget_a_failed_start() -> None:
                if not started:
                    _remove(made)

            opened.callback(forget_a_failed_start)
            # A large journal (the first start after upgrading from a version without
            # the archive) may take its check past the unit's TimeoutStartSec: systemd
            # is told the start goes on while the check works.
            working = still_starting(self.notifier,
                                     f"checking the journal {self.config.database}")
            self.journal = Journal(self.config.database, move_aside=self.move_aside,
                                   check=self.check_journal, working=working)
            opened.callback(self.journal.close)
            if self.journal.moved_to is not None:
                log.warning("the unreadable journal was moved to %s; starting fresh",
                            self.journal.moved_to)
            self.registry = TagRegistry(self.config.database)
            opened.callback(self.registry.close)
            self.table = Table(self.config, self.journal, self.registry.lookup)
            self.publisher.start()
            opened.callback(self.publisher.close)
            self.publisher.publish(self.table.view())
            self._thread = threading.Thread(target=self._loop, name="table", daemon=True)
            self._thread.start()
            opened.callback(self._join_controller)
            if factory is not None:
                self._attach_hardware(opened, factory)
            started = True
            self._opened = opened.pop_all()
        status = f"serving {len(self.config.seats)} seats on {self.config.socket}"
        log.info("%s (journal %s)", status, self.config.database)
        self.notifier.ready(status)
        # After READY, with the table playing: the archive is checked, and the finished
        # games are moved out of the file every start checks before READY.
        self.journal.start_archiving()

    def stop(self) -> None:
        """Readers and buttons first, then every event already queued is handled and
        journaled, then the socket, the registry and the journal are closed."""
        self.notifier.stopping()
        self._opened.close()
        log.info("stopped; the journal is closed")

    def _join_controller(self) -> None:
        assert self._thread is not None
        self.events.put(cast("Event", _WAKE))  # behind every event already queued
        self._thread.join()

    def _attach_hardware(self, opened: contextlib.ExitStack, factory: Factory) -> None:
        from hardware.buttons import SeatButtons
        from hardware.rfid import open_reader

        config = self.config
        # The factory is ours, not the buttons': it is closed after them (the stack
        # unwinds last in, first out), releasing the GPIO chip for the next start.
        buttons = SeatButtons(
            {s.seat: (s.draw_pin, s.pass_pin) for s in config.seats}, self.events,
            pin_factory=factory, bounce_ms=config.bounce_ms,
            draw_hold_s=config.draw_hold_s, pass_hold_s=config.pass_hold_s)
        opened.callback(_close_quietly, buttons)
        for reader in config.readers:
            adapter = open_reader(reader.pad, reader.url, reader.protocol, self.events,
                                  removal_ms=reader.removal_ms, uid_bytes=reader.uid_bytes)
            opened.callback(_close_quietly, adapter)
            self._readers.append(adapter)

    def _loop(self) -> None:
        # Without a watchdog to ping the loop sleeps until the next event (a stop is one).
        interval = self.notifier.watchdog_interval if self.config.watchdog else None
        last_ping = 0.0
        starving = False
        try:
            while True:
                try:
                    event = self.events.get(timeout=interval)
                except queue.Empty:
                    pass
                else:
                    if event is _WAKE:
                        break
                    _log_reader(event)
                    if self.journal.stale:
                        # Each input after a read-only refusal finds out afresh whether
                        # the disk writes again.
                        with self.registry.closed():
                            self.journal.reconnect()
                    if self.table.handle(event):
                        self.publisher.publish(self.table.view())
                if interval is not None and time.monotonic() - last_ping >= interval:
                    dead = self._dead_threads()
                    if not dead:
                        self.notifier.watchdog()
                        last_ping = time.monotonic()
                    elif not starving:
                        # Unfed, systemd kills the service and restarts it whole.
                        log.error("%s stopped: no more watchdog pings", ", ".join(dead))
                        starving = True
        except BaseException as err:
            log.exception("the table stopped on an unexpected error")
            self.failure = err
        finally:
            self.finished.set()


    def _dead_threads(self) -> list[str]:
        """The threads the table needs besides the controller (the one asking) that
        have ended: the view publisher, and each reader, which supervises its own port."""
        dead = [] if self.publisher.alive else ["the view publisher"]
        dead += [f"the reader thread {t.name}" for t in self._readers if not t.is_alive()]
        return dead


_WAKE = object()  # wakes the controller loop to notice a stop


def _log_reader(event: Event) -> None:
    """Readers coming and going belong in the system log, for whoever installs the table."""
    from hardware.events import ReaderOffline, ReaderOnline

    if isinstance(event, ReaderOffline):
        log.warning("pad %s: reader offline: %s", event.pad, event.reason)
    elif isinstance(event, ReaderOnline):
        log.info("pad %s: reader online", event.pad)


def _close_quietly(adapter: _Closeable) -> None:
    """A reader that fails to close must not keep the journal from closing."""
    try:
        adapter.close()
    except (OSError, HardwareError) as err:
        log.warning("closing %r: %s", adapter, err)


def configure_run(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG,
                        help=f"the table's TOML configuration (default {DEFAULT_CONFIG})")
    parser.add_argument("--move-aside", action="store_true",
                        help="if the journal's database is damaged or foreign (or was "
                             "refused at an earlier start), rename it NAME.broken-DATE, "
                             "keeping it, and start a fresh one")
    parser.add_argument("--check-journal", action="store_true",
                        help="check the whole journal before starting (every start does "
                             "now; kept for older unit files)")


def run_run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(str(err), file=sys.stderr)
        return EXIT_NEEDS_ATTENTION
    service = Service(config, move_aside=args.move_aside, check_journal=args.check_journal)
    stop = service.finished
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_: stop.set())
    from hardware.buttons import PinFactoryUnavailable

    try:
        service.start()
    except PinFactoryUnavailable as err:
        print(f"roundhouse run: {err}. To try the table without its hardware: roundhouse "
              "sim (bots play on a simulated table, with its screens)", file=sys.stderr)
        return EXIT_NEEDS_ATTENTION
    except RoundhouseError as err:
        print(f"roundhouse run: {err}", file=sys.stderr)
        return EXIT_NEEDS_ATTENTION
    # `roundhouse run` paused the cyclic collector from its import up to READY.
    collection_resumed()
    # Woken each second: a signal the kernel hands to another thread is handled by this
    # one only when it runs Python again, and an untimed wait would never end.
    while not stop.wait(1.0):
        pass
    service.stop()
    return 1 if service.failure is not None else 0
