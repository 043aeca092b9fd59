from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.buttons import (
    DEFAULT_SEAT_PINS,
    Debouncer,
    PinBusy,
    PinConflict,
    PinFactoryUnavailable,
    SeatButtons,
    make_pin_factory,
)
from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased
from hardware.fake_pins import FakePinFactory

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


BOUNCE_S = 0.03


@pytest.fixture
def buttons(factory, events) -> Iterator[SeatButtons]:
    buttons = SeatButtons(SEATS, events, pin_factory=factory, bounce_ms=int(BOUNCE_S * 1000),
                          draw_hold_s=5.0, pass_hold_s=0.3)
    yield buttons
    buttons.close()


@pytest.fixture
def slow_buttons(factory, events) -> Iterator[SeatButtons]:
    """A window far longer than a busy machine may pause between two quick edges."""
    buttons = SeatButtons(SEATS, events, pin_factory=factory, bounce_ms=250,
                          draw_hold_s=5.0, pass_hold_s=5.0)
    yield buttons
    buttons.close()


def nothing_more(events, seconds: float = 0.3) -> bool:
    """No event within `seconds` (several bounce windows, on a busy machine too)."""
    time.sleep(seconds)
    return events.empty()


def press_for(pin, seconds: float) -> None:
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def test_a_press_and_release_give_one_event_each(buttons, factory, events):
    press_for(factory.pin(4), 0.1)
    assert events.take(2) == [ButtonPressed(0, Button.DRAW), ButtonReleased(0, Button.DRAW)]
    assert nothing_more(events)


def test_glitches_shorter_than_the_bounce_window_are_no_press(slow_buttons, factory, events):
    pin = factory.pin(4)
    for _ in range(50):  # microseconds low, as noise on a long cable makes them
        pin.drive_low()
        pin.drive_high()
        time.sleep(0.001)
    assert nothing_more(events, 0.6)
    assert not slow_buttons.is_pressed(0, Button.DRAW)


def test_a_bouncing_press_and_release_give_exactly_one_of_each(
        slow_buttons, factory, events):
    pin = factory.pin(4)
    for _ in range(5):  # the contact bounces as it closes, then stays closed
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    assert events.take(1) == [ButtonPressed(0, Button.DRAW)]
    assert nothing_more(events, 0.3)
    for _ in range(5):
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    assert events.take(1) == [ButtonReleased(0, Button.DRAW)]
    assert nothing_more(events, 0.6)
    assert not slow_buttons.is_pressed(0, Button.DRAW)


def test_holding_pass_gives_one_held_then_the_release(buttons, factory, events):
    pin = factory.pin(5)
    pin.drive_low()
    assert buttons.wait_held(0, Button.PASS, timeout=10.0)
    pin.drive_high()
    assert events.take(3) == [ButtonPressed(0, Button.PASS), ButtonHeld(0, Button.PASS),
                              ButtonReleased(0, Button.PASS)]
    assert nothing_more(events)


def test_a_short_press_gives_no_hold(buttons, factory, events):
    press_for(factory.pin(6), 0.1)  # seat 1 DRAW holds after 5 s
    assert events.take(2) == [ButtonPressed(1, Button.DRAW), ButtonReleased(1, Button.DRAW)]
    assert not buttons.wait_held(1, Button.DRAW, timeout=0.01)


def test_a_button_let_go_before_its_hold_time_is_no_hold_while_its_release_settles(
        factory, events):
    """The hold time ends while the release is still inside its bounce window. A button
    let go a tenth of the hold time after its press counted is a press (a held PASS is an
    undo), not a hold; one that comes back down before the window ends was held."""
    buttons = SeatButtons(SEATS, events, pin_factory=factory, bounce_ms=2000,
                          draw_hold_s=5.0, pass_hold_s=1.0)
    try:
        pin = factory.pin(5)
        pin.drive_low()
        assert events.take(1) == [ButtonPressed(0, Button.PASS)]
        time.sleep(0.1)
        pin.drive_high()  # its release counts two seconds later, the hold time ends before
        assert events.take(1) == [ButtonReleased(0, Button.PASS)]
        assert nothing_more(events)
        pin.drive_low()
        assert events.take(1) == [ButtonPressed(0, Button.PASS)]
        time.sleep(0.5)
        pin.drive_high()
        time.sleep(1.0)  # past the hold time, within the release's window
        pin.drive_low()  # it was a glitch: the button is held
        assert events.take(1) == [ButtonHeld(0, Button.PASS)]
        pin.drive_high()
        assert events.take(1) == [ButtonReleased(0, Button.PASS)]
    finally:
        buttons.close()


def test_two_seats_pressing_at_once_are_told_apart(buttons, factory, events):
    factory.pin(4).drive_low()
    factory.pin(12).drive_low()
    time.sleep(0.1)
    factory.pin(12).drive_high()
    time.sleep(0.1)
    factory.pin(4).drive_high()
    got = events.take(4)
    # The two presses came at the same instant, so each settles after its own bounce
    # window in either order; the releases, 100 ms apart, come in the order made.
    assert set(got[:2]) == {ButtonPressed(0, Button.DRAW), ButtonPressed(1, Button.PASS)}
    assert got[2:] == [ButtonReleased(1, Button.PASS), ButtonReleased(0, Button.DRAW)]


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


def test_another_packages_pin_factory_is_found_by_its_entry_point(monkeypatch):
    # As gpiozero itself finds it: GPIOZERO_PIN_FACTORY names an installed package's
    # gpiozero_pin_factories entry point, as written or in lower case.
    from importlib.metadata import EntryPoint

    installed = [EntryPoint("testpins", "gpiozero.pins.mock:MockFactory",
                            "gpiozero_pin_factories")]
    asked = []

    def entry_points(group: str) -> list[EntryPoint]:
        asked.append(group)
        return installed

    monkeypatch.setattr("hardware.buttons.entry_points", entry_points)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "TestPins")
    factory = make_pin_factory(None)
    assert isinstance(factory, MockFactory)
    factory.close()
    assert asked == ["gpiozero_pin_factories"]
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nopins")
    with pytest.raises(PinFactoryUnavailable, match="gpiozero_pin_factories entry point"):
        make_pin_factory(None)
    # The factories of gpiozero's own are made without reading any package's metadata.
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "MOCK")
    make_pin_factory(None).close()
    assert asked == ["gpiozero_pin_factories"] * 2


def test_a_missing_gpio_library_says_what_to_install(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("hardware.buttons.PIN_FACTORIES",
                        {"lgpio": "roundhouse_no_such_module:Factory",
                         "rpigpio": "roundhouse_no_such_module:Factory"})
    with pytest.raises(PinFactoryUnavailable, match=r"roundhouse\[pi\]"):
        make_pin_factory(None)
    with pytest.raises(PinFactoryUnavailable, match="needs the module"):
        make_pin_factory("lgpio")


def test_the_debouncer_counts_a_level_only_once_it_lasted_the_window():
    clock = Clock()
    debouncer = Debouncer(0.03, clock)
    assert debouncer.edge(True) == []  # not yet: it may be a glitch
    clock.now += 0.000_002
    assert debouncer.edge(False) == []  # it was: two microseconds
    clock.now += 0.05
    assert debouncer.settle(False) == [] and not debouncer.pressed
    assert debouncer.edge(True) == []
    clock.now += 0.01
    assert debouncer.settle(True) == []  # the window is not over
    assert debouncer.quiet_left() == pytest.approx(0.02)
    clock.now += 0.02
    assert debouncer.settle(True) == [True]
    assert debouncer.settle(True) == []  # once


def test_a_press_whose_timer_runs_late_is_reported_at_the_release():
    clock = Clock()
    debouncer = Debouncer(0.03, clock)
    debouncer.edge(True)
    clock.now += 0.05  # held past the window, but no timer ran (a busy machine)
    assert debouncer.edge(False) == [True]  # the press, late, never lost
    clock.now += 0.03
    assert debouncer.settle(False) == [False]


def test_a_level_the_edges_missed_is_taken_once_its_edge_is_taken_as_lost():
    clock = Clock()
    debouncer = Debouncer(0.03, clock, lost_edge_s=1.0)
    assert debouncer.settle(True) == []  # pressed without an edge: one may be on its way
    clock.now += 0.5
    assert debouncer.settle(True) == []
    clock.now += 0.5
    assert debouncer.settle(True) == []  # lost: the window starts now
    clock.now += 0.03
    assert debouncer.settle(True) == [True]


def test_edges_handed_over_late_are_timed_by_their_own_ticks():
    clock = Clock()
    debouncer = Debouncer(0.03, clock)
    clock.now += 0.05  # the callback thread was held up past the window
    assert debouncer.edge(True, at=100.0) == []
    assert debouncer.edge(False, at=100.001) == []  # a 1 ms glitch, however late it came
    clock.now += 0.05
    assert debouncer.settle(False) == [] and not debouncer.pressed


def test_a_live_level_ahead_of_the_edges_waits_for_the_edge_that_says_when():
    clock = Clock()
    debouncer = Debouncer(0.03, clock)
    assert debouncer.edge(True, at=100.0) == []
    clock.now += 0.03  # the window ends; the glitch's end is not handed over yet
    assert debouncer.settle(False) == []
    assert debouncer.unsettled and debouncer.quiet_left() > 0
    clock.now += 0.01
    assert debouncer.edge(False, at=100.001) == []
    assert debouncer.settle(False) == [] and not debouncer.pressed


def test_no_debounce_with_a_zero_window():
    clock = Clock()
    debouncer = Debouncer(0.0, clock)
    assert debouncer.edge(True) == [True]
    assert debouncer.edge(False) == [False]
    assert debouncer.edge(True) == [True]


@pytest.fixture
def late_factory() -> Iterator[FakePinFactory]:
    factory = FakePinFactory()
    yield factory
    factory.close()


def test_a_glitch_whose_end_is_handed_over_late_is_no_press(late_factory, events):
    buttons = SeatButtons(SEATS, events, pin_factory=late_factory,
                          bounce_ms=int(BOUNCE_S * 1000), pass_hold_s=0.3)
    try:
        pin = late_factory.pin(5)
        # A 1 ms glitch on the idle PASS; the callback thread is held up (the GIL, a
        # garbage collection) right after its first edge, for longer than the window.
        pin.glitch(0.001)
        time.sleep(3 * BOUNCE_S)
        pin.deliver()
        assert nothing_more(events)
        assert not buttons.is_pressed(0, Button.PASS)
    finally:
        buttons.close()


def test_a_spike_during_a_pass_hold_handed_over_late_is_no_second_undo(late_factory, events):
    buttons = SeatButtons(SEATS, events, pin_factory=late_factory,
                          bounce_ms=int(BOUNCE_S * 1000), pass_hold_s=0.3)
    try:
        pin = late_factory.pin(5)
        pin.drive_low()
        assert buttons.wait_held(0, Button.PASS, timeout=10.0)
        pin.glitch(0.001)  # a spike on the held button, whose end is handed over late
        time.sleep(3 * BOUNCE_S)
        pin.deliver()
        time.sleep(0.5)  # past another hold time
        pin.drive_high()
        assert events.take(3) == [ButtonPressed(0, Button.PASS), ButtonHeld(0, Button.PASS),
                                  ButtonReleased(0, Button.PASS)]
        assert nothing_more(events)
    finally:
        buttons.close()


def test_a_pin_a_kernel_overlay_holds_is_named_with_its_seat_and_button(events):
    factory = FakePinFactory(busy={4})  # w1-gpio's pin
    try:
        with pytest.raises(PinBusy, match=r"seat 0 draw button on GPIO4 cannot be claimed: "
                                          r"GPIO busy\. A kernel overlay"):
            SeatButtons({0: (4, 5), 1: (6, 12)}, events, pin_factory=factory)
        # The pins taken before the failure were given back.
        SeatButtons({0: (5, 6)}, events, pin_factory=factory).close()
    finally:
        factory.close()
