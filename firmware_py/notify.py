"""systemd's notify protocol without extra dependencies.

`Type=notify` services tell systemd through a datagram to `$NOTIFY_SOCKET` (a path, or
an abstract socket written `@name`) that they are READY, still alive (WATCHDOG) or
STOPPING, and, during a start that takes long (`still_starting`), that they are still
working at it (EXTEND_TIMEOUT_USEC). Outside systemd the variable is unset and every
call does nothing, so the same code runs on a laptop.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

# Once a long piece of a start (the journal's check) has run this long, systemd is told
# it is still working, and again as often, each time for EXTEND_BY_S more from then
# (three times as long: a busy Pi may call in late).
EXTEND_EVERY_S = 5.0
EXTEND_BY_S = 15.0
# The clock `still_starting` reads.
_clock: Callable[[], float] = time.monotonic


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self.address: str | None = None
        if address.startswith("@"):
            self.address = "\0" + address[1:]
        elif address.startswith("/"):
            self.address = address
        self.watchdog_interval = _watchdog_interval(env)
        self._warned = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send one message of `KEY=VALUE` lines; False when there is no one to tell."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
                s.connect(self.address)
                s.sendall("\n".join(lines).encode())
        except OSError as err:
            # systemd going away must never stop the table; say it once.
            if not self._warned:
                log.warning("cannot notify systemd at %s: %s", self.address.lstrip("\0"), err)
                self._warned = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def extend_timeout(self, seconds: float) -> bool:
        """The start (or stop) takes longer: systemd waits `seconds` more from now."""
        return self.send(f"EXTEND_TIMEOUT_USEC={int(seconds * 1_000_000)}")


def still_starting(notifier: Notifier, doing: str) -> Callable[[], None] | None:
    """What a long piece of the start calls as it goes (as often as it likes): once it
    has run `EXTEND_EVERY_S`, systemd is told what it is `doing` (STATUS) and that the
    start goes on (EXTEND_TIMEOUT_USEC, `EXTEND_BY_S` from then), and told again every
    `EXTEND_EVERY_S`, so that a start that is working is never killed for its
    `TimeoutStartSec`, and one that is stuck still is. None without systemd."""
    if not notifier.enabled:
        return None
    clock = _clock
    last = clock()
    told = False

    def going() -> None:
        nonlocal last, told
        now = clock()
        if now - last < EXTEND_EVERY_S:
            return
        last = now
        if not told:
            told = True
            log.info("%s: this takes a while; systemd is told the start goes on", doing)
            notifier.send(f"STATUS={doing}",
                          f"EXTEND_TIMEOUT_USEC={int(EXTEND_BY_S * 1_000_000)}")
        else:
            notifier.extend_timeout(EXTEND_BY_S)

    return going


def _watchdog_interval(env: Mapping[str, str]) -> float | None:
    """Seconds between two pings systemd expects, or None without a watchdog.

    Ping at half of `WatchdogSec`, as sd_watchdog_enabled(3) recommends; the watchdog
    is ours only when `WATCHDOG_PID` is unset or names this process.
    """
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if usec <= 0 or (pid is not None and pid != str(os.getpid())):
        return None
    return usec / 2_000_000
