"""Where adapters put their events: a `queue.Queue` or anything with the same `put`."""

from __future__ import annotations

from typing import Protocol

from hardware.events import Event


class EventQueue(Protocol):
    def put(self, item: Event) -> None: ...
