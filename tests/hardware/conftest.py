from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import Event
from hardware.rfid.fake import PtyCable
from hardware.tags import TagRegistry


class Events(queue.Queue[Event]):
    def take(self, count: int, timeout: float = 10.0) -> list[Event]:
        """The next `count` events, failing the test if they do not come."""
        got = []
        for _ in range(count):
            try:
                got.append(self.get(timeout=timeout))
            except queue.Empty:
                pytest.fail(f"expected {count} events, got {len(got)}: {got}")
        return got


@pytest.fixture
def events() -> Events:
    return Events()


@pytest.fixture
def cable(tmp_path: Path) -> Iterator[PtyCable]:
    cable = PtyCable(tmp_path / "pad-0")
    yield cable
    cable.close()


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[TagRegistry]:
    registry = TagRegistry(tmp_path / "roundhouse.db")
    yield registry
    registry.close()
