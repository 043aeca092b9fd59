"""Fake GPIO pins for the tests: gpiozero's mock pins with two ways real ones fail.

- A busy line: lgpio cannot claim a pin that a kernel overlay (w1-gpio takes BCM 4 by
  default) or another program holds, and raises `lgpio.error('GPIO busy')`, which is
  no `GPIOZeroError`. `FakePinFactory(busy=[4])` fails the same way for those pins.
- A late callback: lgpio hands each edge to gpiozero from a thread of its own, with the
  kernel's timestamp of the edge (gpiozero's `_pin_changed(ticks, state)`); the GIL or a
  garbage collection may hold that thread up. `LatePin.hold()` keeps the callbacks,
  each with its own tick, until `deliver()`, while the pin's live level goes on;
  `glitch(width_s)` is a glitch whose second edge is kept so.
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]
from gpiozero.pins.pi import PiPin  # type: ignore[import-untyped]


class error(Exception):  # named as lgpio names its own
    """What lgpio raises for a line it cannot claim: no GPIOZeroError."""


class LatePin(MockPin):  # type: ignore[misc]
    _last_change: float  # MockPin's: the tick of the last change
    _state: bool

    def __init__(self, factory: FakePinFactory, info: Any) -> None:
        if info.name in {f"GPIO{n}" for n in factory.busy}:
            raise error("GPIO busy")
        super().__init__(factory, info)
        self._held: list[tuple[float, bool]] | None = None

    def hold(self) -> None:
        """Keep the callbacks of the edges from now on (the callback thread is held up)."""
        self._held = []

    def glitch(self, width_s: float) -> None:
        """The line leaves its level for `width_s` and comes back; the callback of the
        first edge is handed over now, the one of the second is kept until `deliver`, as
        a callback thread held up right after the first would."""
        was = self._state
        self._change_state(not was)
        first = self._last_change
        self._change_state(was)
        second = first + width_s
        self._last_change = second
        self._held = [(second, was)]
        PiPin._call_when_changed(self, first, not was)

    def deliver(self) -> None:
        """Hand over the kept callbacks, in order, each with its edge's own tick."""
        held, self._held = self._held or [], None
        for ticks, state in held:
            PiPin._call_when_changed(self, ticks, state)

    def _call_when_changed(self) -> None:
        if self._held is not None:
            self._held.append((self._last_change, self._state))
        else:
            super()._call_when_changed()


class FakePinFactory(MockFactory):  # type: ignore[misc]
    def __init__(self, busy: tuple[int, ...] | frozenset[int] = ()) -> None:
        super().__init__(pin_class=LatePin)
        self.busy = frozenset(busy)
