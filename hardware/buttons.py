"""Seat buttons through gpiozero: a DRAW and a PASS button per seat, wired to ground.

Each button is a `DigitalInputDevice` with the pull-up on, built with the pin factory
passed in, so no global pin factory is set and tests leave nothing behind. Debounce is
done here rather than by the pin library, so it behaves the same with every pin factory:
gpiozero's `bounce_time` does nothing on `MockPin` (its bounce setter is marked unimplemented in
gpiozero/pins/mock.py), and on RPi.GPIO it drops the edges that follow the first one, so
a glitch of microseconds on a long cable is a whole press. Here, as lgpio's own debounce
(`gpio_set_debounce_micros`, used by gpiozero/pins/lgpio.py) does, a change counts only
once the contact has kept its new level for `bounce_ms`: a glitch or a bounce shorter
than that is nothing, and a press is reported `bounce_ms` after the contact settled. A
button kept down for its hold time gives one `ButtonHeld` (holding PASS is undo).
"""

from __future__ import annotations

import importlib
import math
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gpiozero import DigitalInputDevice, GPIOZeroError  # type: ignore[import-untyped]
from gpiozero.pins import Factory  # type: ignore[import-untyped]

from hardware import HardwareError
from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased
from hardware.sink import EventQueue

# Eight seats clear of I2C (2, 3), SPI (7..11) and the UART (14, 15); see WIRING.md.
DEFAULT_SEAT_PINS: dict[int, tuple[int, int]] = {
    0: (4, 5), 1: (6, 12), 2: (13, 16), 3: (17, 18),
    4: (19, 20), 5: (21, 22), 6: (23, 24), 7: (25, 26),
}

PIN_FACTORIES = {
    "mock": "gpiozero.pins.mock:MockFactory",
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "pigpio": "gpiozero.pins.pigpio:PiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
}
# Tried in order when neither the configuration nor GPIOZERO_PIN_FACTORY names one:
# lgpio drives every Pi including the Pi 5; RPi.GPIO (or rpi-lgpio) the older ones.
PREFERRED = ("lgpio", "rpigpio")


class ButtonError(HardwareError):
    """The seat buttons cannot be set up."""


class PinFactoryUnavailable(ButtonError):
    """The named GPIO library is missing or cannot reach the GPIO chip."""


class PinConflict(ButtonError):
    """A pin named twice, or one that this board does not have."""


def make_pin_factory(name: str | None) -> Factory:
    """The pin factory `name`, else `GPIOZERO_PIN_FACTORY`, else the first that works here."""
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY") or None
    if name is None:
        problems = []
        for candidate in PREFERRED:
            try:
                return _load(candidate)
            except PinFactoryUnavailable as err:
                problems.append(str(err))
        raise PinFactoryUnavailable(
            "no GPIO library works here (" + "; ".join(problems) + "). On a Raspberry Pi "
            "install the 'pi' extra (pip install 'roundhouse[pi]'); elsewhere set "
            "GPIOZERO_PIN_FACTORY=mock or [buttons] pin_factory = \"mock\"")
    return _load(name.lower())


def _load(name: str) -> Factory:
    if name not in PIN_FACTORIES:
        raise PinFactoryUnavailable(
            f"unknown pin factory {name!r}: expected one of {', '.join(PIN_FACTORIES)}")
    module, cls = PIN_FACTORIES[name].split(":")
    try:
        factory: Factory = getattr(importlib.import_module(module), cls)()
    except ImportError as err:
        raise PinFactoryUnavailable(
            f"pin factory {name!r} needs the module {err.name or module!r}, which is not "
            "installed") from None
    except Exception as err:  # each library fails its own way away from a Pi
        raise PinFactoryUnavailable(f"pin factory {name!r} cannot start here: {err}") from None
    return factory


class Debouncer:
    """Edges of one contact in, the changes to report out; `clock` is injectable for tests.

    A level counts once it has lasted `bounce_s`. That is known when the window ends
    (`settle`, from a timer) or, if the timer runs late, at the next edge, which ends
    the level and so shows how long it lasted: a busy machine reports a press late, but
    never loses one nor makes one of a glitch. With a zero window every edge is a change.
    """

    def __init__(self, bounce_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.bounce_s = bounce_s
        self.clock = clock
        self.pressed = False  # the reported state
        self._level = False  # the contact's level since its last edge
        self._since = -math.inf  # when that edge came

    def edge(self, pressed: bool) -> list[bool]:
        """A raw edge to the level `pressed`; returns the changes to report now."""
        if pressed == self._level:
            return []
        now = self.clock()
        changes = self._settled(now)
        self._level, self._since = pressed, now
        if self.bounce_s <= 0:
            changes += self._settled(now)
        return changes

    @property
    def unsettled(self) -> bool:
        """The contact's level differs from the reported state: a window is running."""
        return self._level != self.pressed

    def quiet_left(self) -> float:
        return max(0.0, self._since + self.bounce_s - self.clock())

    def settle(self, pressed: bool) -> list[bool]:
        """The contact's level when its window should have ended; returns the changes to
        report. A level that differs from the last edge's is an edge that was missed."""
        if pressed != self._level:
            return self.edge(pressed)
        return self._settled(self.clock())

    def _settled(self, now: float) -> list[bool]:
        if self._level != self.pressed and now - self._since >= self.bounce_s:
            self.pressed = self._level
            return [self.pressed]
        return []


@dataclass(eq=False)
class _Contact:
    seat: int
    button: Button
    device: DigitalInputDevice
    debouncer: Debouncer
    hold_s: float
    presses: int = 0  # which press a hold timer belongs to
    settle_timer: threading.Timer | None = None
    hold_timer: threading.Timer | None = None
    held: threading.Event = field(default_factory=threading.Event)


class SeatButtons:
    def __init__(self, seats: Mapping[int, tuple[int, int]], queue: EventQueue, *,
                 pin_factory: Factory | None = None, bounce_ms: int = 30,
                 draw_hold_s: float = 2.0, pass_hold_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._queue = queue
        self._lock = threading.RLock()
        self._own_factory = pin_factory is None
        self._factory = make_pin_factory(None) if pin_factory is None else pin_factory
        self._contacts: dict[tuple[int, Button], _Contact] = {}
        self._closed = False
        try:
            _check_pins(seats)
            for seat, pins in seats.items():
                for button, pin, hold_s in ((Button.DRAW, pins[0], draw_hold_s),
                                            (Button.PASS, pins[1], pass_hold_s)):
                    self._add(seat, button, pin, hold_s, Debouncer(bounce_ms / 1000, clock))
        except BaseException:
            self.close()
            raise

    def _add(self, seat: int, button: Button, pin: int, hold_s: float,
             debouncer: Debouncer) -> None:
        try:
            device = DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                        pin_factory=self._factory)
        except GPIOZeroError as err:
            raise PinConflict(f"seat {seat} {button.value} button on GPIO{pin}: {err}") from None
        contact = _Contact(seat, button, device, debouncer, hold_s)
        self._contacts[seat, button] = contact
        device.when_activated = lambda _device: self._edge(contact, True)
        device.when_deactivated = lambda _device: self._edge(contact, False)

    def is_pressed(self, seat: int, button: Button) -> bool:
        """The debounced state of one button."""
        return self._contacts[seat, button].debouncer.pressed

    def wait_held(self, seat: int, button: Button, timeout: float) -> bool:
        """Wait until the button, kept down, has reported its hold (for simulated seats)."""
        return self._contacts[seat, button].held.wait(timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            contacts = list(self._contacts.values())
        for contact in contacts:
            for timer in (contact.settle_timer, contact.hold_timer):
                if timer is not None:
                    timer.cancel()
            contact.device.close()
        if self._own_factory:
            self._factory.close()

    def _edge(self, contact: _Contact, pressed: bool) -> None:
        with self._lock:
            if self._closed:
                return
            for change in contact.debouncer.edge(pressed):
                self._report(contact, change)
            self._watch(contact)

    def _watch(self, contact: _Contact) -> None:
        """Have the window of an unsettled contact looked at when it ends (lock held)."""
        if contact.debouncer.unsettled and contact.settle_timer is None:
            contact.settle_timer = self._timer(contact.debouncer.quiet_left(),
                                               self._settle, contact)

    def _settle(self, contact: _Contact) -> None:
        with self._lock:
            contact.settle_timer = None
            if self._closed:
                return
            for change in contact.debouncer.settle(bool(contact.device.value)):
                self._report(contact, change)
            self._watch(contact)  # an edge came meanwhile: its window is still running

    def _report(self, contact: _Contact, pressed: bool) -> None:
        seat, button = contact.seat, contact.button
        if pressed:
            contact.presses += 1
            contact.held.clear()
            self._queue.put(ButtonPressed(seat, button))
            contact.hold_timer = self._timer(contact.hold_s, self._held, contact,
                                             contact.presses)
        else:
            if contact.hold_timer is not None:
                contact.hold_timer.cancel()
                contact.hold_timer = None
            # The next hold must wait for its own press, not find this one's.
            contact.held.clear()
            self._queue.put(ButtonReleased(seat, button))

    def _held(self, contact: _Contact, press: int) -> None:
        with self._lock:
            if not self._closed and contact.presses == press and contact.debouncer.pressed:
                contact.hold_timer = None
                contact.held.set()
                self._queue.put(ButtonHeld(contact.seat, contact.button))

    @staticmethod
    def _timer(delay: float, action: Callable[..., None], *args: object) -> threading.Timer:
        timer = threading.Timer(delay, action, args)
        timer.daemon = True
        timer.start()
        return timer


def _check_pins(seats: Mapping[int, tuple[int, int]]) -> None:
    used: dict[int, str] = {}
    for seat, pins in seats.items():
        for button, pin in zip(Button, pins, strict=True):
            name = f"seat {seat} {button.value}"
            if pin in used:
                raise PinConflict(f"GPIO{pin} is wired to both {used[pin]} and {name}")
            used[pin] = name
