"""Following the table service's view socket from an asyncio service.

The same socket the screens read (docs/view.md): newline-delimited views, the newest
first after connecting. `TableFollower.run` keeps the newest view and wakes every
waiter of its `Signal` when it changes. While the service is away `online` is false
(the last view stays: a phone still shows the final ranking after the table stops)
and the follower reconnects with backoff, so `roundhouse web` and the league's
publisher may start before the table and outlive its restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

from roundhouse.view import View, ViewError, parse_view

# A view of fourteen seats with long trains is some tens of kilobytes.
LINE_LIMIT = 4 * 1024 * 1024


class Signal:
    """A count of changes that waiters follow: several sources (the table, the league's
    standings) may bump one signal, and a page's stream wakes on any of them."""

    def __init__(self) -> None:
        self.count = 0
        self._changed = asyncio.Condition()

    async def bump(self) -> None:
        async with self._changed:
            self.count += 1
            self._changed.notify_all()

    async def wait(self, seen: int, timeout: float) -> int:
        """The count once it differs from `seen`, or as it is after `timeout` seconds."""
        async with self._changed:
            # The wait runs in this task (`asyncio.timeout`), not in one of its own
            # (`asyncio.wait_for`): a waiter cancelled twice, as a phone's stream is when it
            # closes while the server shuts down, left that inner task to take the lock back
            # after this one had let it go, and the lock stayed taken, every page's stream
            # and every bump waiting on it for good.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._changed.wait_for(lambda: self.count != seen)
            return self.count


class TableFollower:
    def __init__(self, socket: Path, signal: Signal | None = None, *,
                 backoff: tuple[float, float] = (0.2, 5.0)) -> None:
        self.socket = socket
        self.view: View | None = None
        self.online = False
        self.signal = signal or Signal()
        self._backoff = backoff
        self._reported: set[str] = set()

    async def _set(self, view: View | None, online: bool) -> None:
        if view is not None:
            self.view = view
        self.online = online
        await self.signal.bump()

    async def run(self) -> None:
        delay = self._backoff[0]
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(
                    str(self.socket), limit=LINE_LIMIT)
            except OSError:
                await asyncio.sleep(delay)
                delay = min(self._backoff[1], delay * 2)
                continue
            delay = self._backoff[0]
            try:
                await self._read(reader)
            finally:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
                await self._set(None, online=False)
            await asyncio.sleep(delay)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                line = await reader.readline()
            except (OSError, ValueError):  # a reset, or a line beyond LINE_LIMIT
                return
            if not line:
                return
            if not line.strip():
                continue
            if line.startswith(b'{"refused":'):
                self._report(f"the table refused this service: {line.decode(errors='replace')}")
                return
            try:
                view = parse_view(line, f"view from {self.socket}")
            except ViewError as err:
                self._report(f"skipped a view: {err}")
                continue
            await self._set(view, online=True)

    def _report(self, text: str) -> None:
        if text not in self._reported:
            self._reported.add(text)
            print(f"roundhouse: {text}", file=sys.stderr)
