"""Following the table service: views read from its Unix socket, reconnecting with
backoff while it is away.

The service sends newline-delimited JSON views; the first line after connecting is the
latest view. The client never writes. Views that do not follow docs/view.md are
reported once on stderr and skipped; the screen keeps the last good one.
"""

from __future__ import annotations

import select
import socket
import sys
import time
from collections.abc import Callable

from roundhouse.view import View, ViewError, parse_view

READ_SIZE = 65536


class ViewFeed:
    """The newest view from the service's socket, polled by the display loop."""

    def __init__(
        self,
        path: str,
        *,
        backoff: tuple[float, float] = (0.2, 5.0),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        self._backoff_start, self._backoff_max = backoff
        self._delay = self._backoff_start
        self._clock = clock
        self._sock: socket.socket | None = None
        self._buffer = b""
        self._next_attempt = 0.0
        self._reported: set[str] = set()

    @property
    def connected(self) -> bool:
        return self._sock is not None

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._buffer = b""

    def _connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.path)
        except OSError:
            sock.close()
            self._next_attempt = self._clock() + self._delay
            self._delay = min(self._backoff_max, self._delay * 2)
            return
        sock.setblocking(False)
        self._sock = sock
        self._delay = self._backoff_start

    def _lost(self) -> None:
        self.close()
        self._next_attempt = self._clock() + self._delay

    def poll(self, timeout: float) -> View | None:
        """Wait at most `timeout` seconds for news; return the newest complete view
        received, or None (nothing new, or the service is away)."""
        if self._sock is None:
            now = self._clock()
            if now < self._next_attempt:
                time.sleep(max(0.0, min(timeout, self._next_attempt - now)))
                return None
            self._connect()
            if self._sock is None:
                return None
        sock = self._sock
        ready, _, _ = select.select([sock], [], [], max(0.0, timeout))
        if not ready:
            return None
        newest: View | None = None
        while True:
            try:
                chunk = sock.recv(READ_SIZE)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self._lost()
                return newest
            self._buffer += chunk
            *lines, self._buffer = self._buffer.split(b"\n")
            for line in lines:
                if line.strip():
                    newest = self._parse(line) or newest
        return newest

    def _parse(self, line: bytes) -> View | None:
        if line.startswith(b'{"refused":'):
            # The service serves a bounded number of screens; it closes this one.
            self._report(f"the table refused this screen: {line.decode(errors='replace')}")
            return None
        try:
            return parse_view(line, f"view from {self.path}")
        except ViewError as exc:
            self._report(f"skipped a view: {exc}")
            return None

    def _report(self, message: str) -> None:
        if message not in self._reported:
            self._reported.add(message)
            print(f"roundhouse display: {message}", file=sys.stderr)
