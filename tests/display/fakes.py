"""Stand-ins for what a screen's loop waits on: the service's socket and the clock."""

from __future__ import annotations

from collections.abc import Iterable

from roundhouse.view import View


class Clock:
    """Time that moves only when a test (or a feed's wait) moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class QueueFeed:
    """The service's socket as a list: each poll hands over the next view; with a clock,
    a poll with nothing to hand over waits out its timeout on it (`waits` keeps them)."""

    def __init__(self, views: Iterable[View | None] = (), clock: Clock | None = None) -> None:
        self.clock = clock
        self.views = list(views)
        self.path = "/run/roundhouse/view.sock"
        self.connected = True
        self.waits: list[float] = []

    def poll(self, timeout: float) -> View | None:
        if self.views:
            return self.views.pop(0)
        self.waits.append(timeout)
        if self.clock is not None:
            self.clock.now += timeout
        return None

    def close(self) -> None:
        pass
