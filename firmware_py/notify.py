"""systemd's notify protocol without extra dependencies.

`Type=notify` services tell systemd through a datagram to `$NOTIFY_SOCKET` (a path, or
an abstract socket written `@name`) that they are READY, still alive (WATCHDOG) or
STOPPING. Outside systemd the variable is unset and every call does nothing, so the
same code runs on a laptop.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


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
