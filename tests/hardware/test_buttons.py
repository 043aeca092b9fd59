from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.buttons import (
    DEFAULT_SEAT_PINS,
    Debouncer,
    PinConflict,
    PinFactoryUnavailable,
    SeatButtons,
    make_pin_factory,
)
from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased

SEATS = {0: (4, 5), 1: (6, 12)}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def buttons(factory, events, clock) -> Iterator[SeatButtons]:
    buttons = SeatButtons(SEATS, events, pin_factory=factory, bounce_ms=30,
                          draw_hold_s=5.0, pass_hold_s=0.05, clock=clock)
    yield buttons
    buttons.close()


def test_a_press_and_release_give_one_event_each(buttons, factory, events, clock):
    pin = factory.pin(4)
    pin.drive_low()
    clock.now += 0.1
    pin.drive_high()
    assert events.take(2) == [ButtonPressed(0, Button.DRAW), ButtonReleased(0, Button.DRAW)]
    assert events.empty()


def test_a_burst_of_bounces_gives_exactly_one_press(buttons, factory, events, clock):
    pin = factory.pin(4)
    for _ in range(5):  # within the 30 ms window: the clock does not move
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    assert events.take(1) == [ButtonPressed(0, Button.DRAW)]
    clock.now += 0.1
    for _ in range(5):
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    assert events.take(1) == [ButtonReleased(0, Button.DRAW)]
    clock.now += 0.1
    assert events.empty()
    assert not buttons.is_pressed(0, Button.DRAW)


def test_a_release_lost_in_the_bounce_window_is_reported_when_it_ends(
        buttons, factory, events):
    pin = factory.pin(12)
    pin.drive_low()
    pin.drive_high()  # inside the window: read again once the window is over
    # The fake clock never reaches the window's end; the settle timer is the real clock.
    assert events.take(2) == [ButtonPressed(1, Button.PASS), ButtonReleased(1, Button.PASS)]
    assert not buttons.is_pressed(1, Button.PASS)


def test_holding_pass_gives_one_held_then_the_release(buttons, factory, events, clock):
    pin = factory.pin(5)
    pin.drive_low()
    assert buttons.wait_held(0, Button.PASS, timeout=10.0)
    clock.now += 2.0
    pin.drive_high()
    assert events.take(3) == [ButtonPressed(0, Button.PASS), ButtonHeld(0, Button.PASS),
                              ButtonReleased(0, Button.PASS)]
    assert events.empty()


def test_a_short_press_gives_no_hold(buttons, factory, events, clock):
    pin = factory.pin(6)  # seat 1 DRAW holds after 5 s
    pin.drive_low()
    clock.now += 0.1
    pin.drive_high()
    assert events.take(2) == [ButtonPressed(1, Button.DRAW), ButtonReleased(1, Button.DRAW)]
    assert not buttons.wait_held(1, Button.DRAW, timeout=0.01)


def test_two_seats_pressing_at_once_are_told_apart(buttons, factory, events, clock):
    factory.pin(4).drive_low()
    factory.pin(12).drive_low()
    clock.now += 0.1
    factory.pin(12).drive_high()
    factory.pin(4).drive_high()
    assert events.take(4) == [ButtonPressed(0, Button.DRAW), ButtonPressed(1, Button.PASS),
                              ButtonReleased(1, Button.PASS), ButtonReleased(0, Button.DRAW)]


def test_nothing_global_is_left_behind(factory, events):
    buttons = SeatButtons(DEFAULT_SEAT_PINS, events, pin_factory=factory)
    buttons.close()
    assert Device.pin_factory is None
    # Every pin is free again: the same table can be built twice.
    SeatButtons(DEFAULT_SEAT_PINS, events, pin_factory=factory).close()


def test_a_pin_used_twice_is_named(factory, events):
    with pytest.raises(PinConflict, match="GPIO5 is wired to both seat 0 pass and seat 1 draw"):
        SeatButtons({0: (4, 5), 1: (5, 6)}, events, pin_factory=factory)


def test_a_pin_the_board_lacks_is_named(factory, events):
    with pytest.raises(PinConflict, match="seat 0 pass button on GPIO99"):
        SeatButtons({0: (4, 99)}, events, pin_factory=factory)
    # The pins taken before the failure were given back.
    SeatButtons({0: (4, 5)}, events, pin_factory=factory).close()


def test_the_pin_factory_comes_from_its_name_or_the_environment(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert isinstance(make_pin_factory("mock"), MockFactory)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(make_pin_factory(None), MockFactory)
    with pytest.raises(PinFactoryUnavailable, match="unknown pin factory 'gpio9'"):
        make_pin_factory("gpio9")


def test_a_missing_gpio_library_says_what_to_install(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("hardware.buttons.PIN_FACTORIES",
                        {"lgpio": "roundhouse_no_such_module:Factory",
                         "rpigpio": "roundhouse_no_such_module:Factory"})
    with pytest.raises(PinFactoryUnavailable, match=r"roundhouse\[pi\]"):
        make_pin_factory(None)
    with pytest.raises(PinFactoryUnavailable, match="needs the module"):
        make_pin_factory("lgpio")


def test_the_debouncer_reports_the_first_edge_and_ignores_the_window():
    clock = Clock()
    debouncer = Debouncer(0.03, clock)
    assert debouncer.edge(True)
    clock.now += 0.01
    assert not debouncer.edge(False)
    assert debouncer.unsettled
    assert debouncer.quiet_left() == pytest.approx(0.02)
    clock.now += 0.03
    # At the end of the window the contact is still down: nothing to report.
    assert not debouncer.settle(True)
    assert debouncer.edge(False)
    clock.now += 0.01
    assert not debouncer.edge(True)
    clock.now += 0.03
    assert debouncer.settle(True)  # pressed again within the window: reported late
    assert debouncer.pressed


def test_no_debounce_with_a_zero_window():
    clock = Clock()
    debouncer = Debouncer(0.0, clock)
    assert debouncer.edge(True)
    assert debouncer.edge(False)
    assert debouncer.edge(True)
