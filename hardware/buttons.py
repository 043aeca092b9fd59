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

import contextlib
import math
import operator
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from hardware import HardwareError
from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased
from hardware.gpio import DigitalInputDevice, Factory, GPIOZeroError, entry_points, import_module
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


class PinBusy(ButtonError):
    """A pin of the map that a kernel overlay or another program holds."""


def make_pin_factory(name: str | None) -> Factory:
    """The pin factory `name`, else `GPIOZERO_PIN_FACTORY`, else the first that works here."""
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY") or None
    if name is None:
        problems = []
        for candidate in PREFERRED:
            try:
                return _load(candidate, PIN_FACTORIES[candidate])
            except PinFactoryUnavailable as err:
                problems.append(str(err))
        raise PinFactoryUnavailable(
            "no GPIO library works here (" + "; ".join(problems) + "). On a Raspberry Pi "
            "install the 'pi' extra (pip install 'roundhouse[pi]'); elsewhere set "
            "GPIOZERO_PIN_FACTORY=mock or [buttons] pin_factory = \"mock\"")
    if name.lower() in PIN_FACTORIES:
        return _load(name.lower(), PIN_FACTORIES[name.lower()])
    # Another package's factory, found as gpiozero finds it: by its entry point, the
    # name as written first, then in lower case. Only here is the installed packages'
    # metadata read (hardware.gpio).
    found = {ep.name: ep.value for ep in entry_points(group="gpiozero_pin_factories")}
    target = found.get(name) or found.get(name.lower())
    if target is None:
        raise PinFactoryUnavailable(
            f"unknown pin factory {name!r}: expected one of {', '.join(PIN_FACTORIES)}, or "
            "the name of an installed package's gpiozero_pin_factories entry point")
    return _load(name, target)


def _load(name: str, target: str) -> Factory:
    """The factory `target` names ("module:class"), made here; `name` is the user's."""
    module, _, cls = target.partition(":")
    try:
        factory: Factory = getattr(import_module(module), cls)()
    except ImportError as err:
        raise PinFactoryUnavailable(
            f"pin factory {name!r} needs the module {err.name or module!r}, which is not "
            "installed") from None
    except Exception as err:  # each library fails its own way away from a Pi
        raise PinFactoryUnavailable(f"pin factory {name!r} cannot start here: {err}") from None
    return factory


# An edge the live level shows but the pin library has not handed over after this long
# is taken as lost (RPi.GPIO drops edges now and then), not as late.
LOST_EDGE_S = 1.0


class Debouncer:
    """Edges of one contact in, the changes to report out.

    Every time is a tick of the pin factory's clock (`clock`, differences by `diff`):
    each edge comes with its own tick, the one the pin library took when the edge
    happened, so a callback thread that runs late changes nothing about how long a
    level lasted. A level counts once it has lasted `bounce_s`. That is known when the
    window ends (`settle`, from a timer) or, if the timer runs late, at the next edge,
    which ends the level and so shows how long it lasted: a busy machine reports a press
    late, but never loses one nor makes one of a glitch. A live level that differs from
    the last edge's when the window is looked at means an edge on its way: it is waited
    for, and taken as lost only after `lost_edge_s`. With a zero window every edge is a
    change.
    """

    def __init__(self, bounce_s: float, clock: Callable[[], float] = time.monotonic,
                 diff: Callable[[float, float], float] = operator.sub,
                 lost_edge_s: float = LOST_EDGE_S) -> None:
        self.bounce_s = bounce_s
        self.clock = clock
        self.diff = diff
        self.lost_edge_s = lost_edge_s
        self.pressed = False  # the reported state
        self._level = False  # the contact's level since its last edge
        self._since: float | None = None  # the tick of that edge (None: none yet)
        self._differs_since: float | None = None  # the live level seen to differ since

    def edge(self, pressed: bool, at: float | None = None) -> list[bool]:
        """A raw edge to the level `pressed` at the tick `at` (now when not known);
        returns the changes to report now."""
        if pressed == self._level:
            return []
        self._differs_since = None
        at = self.clock() if at is None else at
        changes = self._settled(at)
        self._level, self._since = pressed, at
        if self.bounce_s <= 0:
            changes += self._settled(at)
        return changes

    @property
    def letting_go(self) -> bool:
        """Reported pressed, and its last edge a release whose window has not yet ended."""
        return self.pressed and not self._level

    @property
    def unsettled(self) -> bool:
        """A window is running, or an edge is on its way: the contact needs a look."""
        return self._level != self.pressed or self._differs_since is not None

    def quiet_left(self) -> float:
        """How long until the contact should be looked at (`settle`) again."""
        if self._differs_since is not None:
            return max(self.bounce_s, 0.005)  # the edge on its way decides
        return max(0.0, self.bounce_s - self._lasted(self.clock()))

    def settle(self, pressed: bool) -> list[bool]:
        """The contact's live level when its window should have ended; returns the
        changes to report."""
        now = self.clock()
        if pressed == self._level:
            self._differs_since = None
            return self._settled(now)
        # The level changed, and the edge that says when has not been handed over.
        if self._differs_since is None:
            self._differs_since = now
        if self.diff(now, self._differs_since) < self.lost_edge_s:
            return []
        # Lost: taken as coming right after the last edge, so the level it ended counts
        # for nothing it had not already counted for.
        return self.edge(pressed, self._since if self._since is not None else now)

    def _lasted(self, now: float) -> float:
        return math.inf if self._since is None else self.diff(now, self._since)

    def _settled(self, now: float) -> list[bool]:
        if self._level != self.pressed and self._lasted(now) >= self.bounce_s:
            self.pressed = self._level
            return [self.pressed]
        return []


class _Input(DigitalInputDevice):  # type: ignore[misc]
    """A button's input that hands on each edge with its own tick, which gpiozero passes
    to `_pin_changed` (lgpio: the kernel's timestamp) and `when_activated` drops."""

    on_edge: Callable[[float, bool], None] | None = None

    def _pin_changed(self, ticks: float, state: object) -> None:
        super()._pin_changed(ticks, state)
        if self.on_edge is not None:
            self.on_edge(ticks, bool(self._state_to_value(state)))


@dataclass(eq=False)
class _Contact:
    """One button's input, its debouncer and its timers."""

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
                 clock: Callable[[], float] | None = None) -> None:
        """`clock`: the ticks the edges are timed by (default: the pin factory's)."""
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
                    self._add(seat, button, pin, hold_s, Debouncer(
                        bounce_ms / 1000, clock or self._factory.ticks,
                        self._factory.ticks_diff))
        except BaseException:
            self.close()
            raise

    def _add(self, seat: int, button: Button, pin: int, hold_s: float,
             debouncer: Debouncer) -> None:
        device = _claim(seat, button, pin, self._factory)
        contact = _Contact(seat, button, device, debouncer, hold_s)
        self._contacts[seat, button] = contact
        device.on_edge = lambda ticks, pressed: self._edge(contact, pressed, ticks)

    def is_pressed(self, seat: int, button: Button) -> bool:
        """The debounced state of one button."""
        return self._contacts[seat, button].debouncer.pressed

    @contextlib.contextmanager
    def holding_off(self) -> Iterator[None]:
        """No hold is reported while this lasts: a simulated press, however long its thread
        is held up between its two edges, is the press it was meant to be."""
        with self._lock:
            yield

    def wait_held(self, seat: int, button: Button, timeout: float) -> bool:
        """Wait until the button, kept down, has reported its hold (for simulated seats)."""
        return self._contacts[seat, button].held.wait(timeout)

    def wait_released(self, seat: int, button: Button, timeout: float) -> bool:
        """Wait until the button, let go, has reported its release (for simulated seats:
        the release is reported by a timer, which a loaded machine may start late, after
        another button's press)."""
        contact = self._contacts[seat, button]
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                if not contact.debouncer.pressed and not contact.debouncer.unsettled:
                    return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)

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

    def _edge(self, contact: _Contact, pressed: bool, ticks: float) -> None:
        with self._lock:
            if self._closed:
                return
            for change in contact.debouncer.edge(pressed, ticks):
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
            if self._closed or contact.presses != press or not contact.debouncer.pressed:
                return
            if contact.debouncer.letting_go:
                # Let go before its hold time, and the release not yet past its bounce
                # window: the release decides when it is (a glitch that ends pressed is
                # still a hold). A press the hold time ended during its release's window was
                # taken for a hold: holding DRAW refused, holding PASS an undo.
                contact.hold_timer = self._timer(max(0.005, contact.debouncer.quiet_left()),
                                                 self._held, contact, press)
                return
            contact.hold_timer = None
            contact.held.set()
            self._queue.put(ButtonHeld(contact.seat, contact.button))

    @staticmethod
    def _timer(delay: float, action: Callable[..., None], *args: object) -> threading.Timer:
        timer = threading.Timer(delay, action, args)
        timer.daemon = True
        timer.start()
        return timer


def _claim(seat: int, button: Button, pin: int, factory: Factory) -> _Input:
    where = f"seat {seat} {button.value} button on GPIO{pin}"
    try:
        return _Input(pin, pull_up=True, bounce_time=None, pin_factory=factory)
    except GPIOZeroError as err:
        raise PinConflict(f"{where}: {err}") from None
    except Exception as err:  # each pin library its own way: lgpio.error('GPIO busy')
        raise PinBusy(
            f"{where} cannot be claimed: {err or type(err).__name__}. A kernel overlay or "
            "another program holds it (w1-gpio takes GPIO4 unless told otherwise: see "
            "hardware/WIRING.md); free it, or wire the button to another pin and change "
            "the configuration") from None


def unclaimable(seats: Mapping[int, tuple[int, int]], factory: Factory) -> list[ButtonError]:
    """Every pin of the map that cannot be claimed now, each said as `SeatButtons` says it
    (each pin is claimed and given back on its own, so one busy pin hides no other)."""
    problems: list[ButtonError] = []
    for seat, pins in seats.items():
        for button, pin in zip(Button, pins, strict=True):
            try:
                _claim(seat, button, pin, factory).close()
            except ButtonError as err:
                problems.append(err)
    return problems


def _check_pins(seats: Mapping[int, tuple[int, int]]) -> None:
    used: dict[int, str] = {}
    for seat, pins in seats.items():
        for button, pin in zip(Button, pins, strict=True):
            name = f"seat {seat} {button.value}"
            if pin in used:
                raise PinConflict(f"GPIO{pin} is wired to both {used[pin]} and {name}")
            used[pin] = name
