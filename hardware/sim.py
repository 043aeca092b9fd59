"""A simulated table: mock seat buttons and fake RFID readers driving the real adapters.

The buttons are gpiozero `MockPin`s under the real `SeatButtons`; every pad is a fake
reader writing real frames of the chosen protocol into a pseudo-terminal that the real
`open_reader` reads, behind a stable name in a private folder. Bots, the demo and the
end-to-end tests drive the whole table through it, from bytes to events.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from gpiozero.pins import Factory  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from hardware import HardwareError
from hardware.buttons import SeatButtons
from hardware.events import Button, Event, TagPlaced, TagRemoved
from hardware.rfid import Reader, UnknownProtocol, open_reader
from hardware.rfid.fake import (
    UID_BYTES,
    FakeLines,
    FakePn532,
    FakeReader,
    PtyCable,
    fake_reader,
)
from hardware.sink import EventQueue
from hardware.tags import KINDS, Binding, TagRegistry, checked_uid, set_plan

# BCM pins in pairs, as a Pi's header has them: 13 seats at most.
# Mock pins: every BCM number the Pi has, 0 and 1 included (no HAT EEPROM to spare
# here), so the simulated table seats as many players as a table can have, 14.
SIM_PINS = range(0, 28)
_TILE = re.compile(r"\d{1,2}-\d{1,2}")


class SimError(HardwareError):
    """The simulator was asked for something the simulated table does not have."""


class _Pads:
    """The readers' events on their way to the table, each tag's comings and goings on
    each pad noted: how often it was reported placed, whether it still lies there, and
    when the pad last let go of it."""

    def __init__(self, queue: EventQueue) -> None:
        self._queue = queue
        self._changed = threading.Condition()
        self._tapped: dict[tuple[str, str], int] = {}
        self._placed: dict[tuple[str, str], int] = {}
        self._lying: set[tuple[str, str]] = set()
        self._gone_at: dict[tuple[str, str], float] = {}

    def put(self, item: Event) -> None:
        if isinstance(item, TagPlaced | TagRemoved):
            key = (item.pad, item.uid)
            with self._changed:
                if isinstance(item, TagPlaced):
                    self._placed[key] = self._placed.get(key, 0) + 1
                    self._lying.add(key)
                else:
                    self._lying.discard(key)
                    self._gone_at[key] = item.at
                self._changed.notify_all()
        self._queue.put(item)

    def tapped(self, pad: str, uid: str) -> None:
        with self._changed:
            self._tapped[pad, uid] = self._tapped.get((pad, uid), 0) + 1

    def let_go(self, pad: str, uid: str, timeout: float) -> float | None:
        key = (pad, uid)
        with self._changed:
            if not self._changed.wait_for(
                    lambda: self._placed.get(key, 0) >= self._tapped.get(key, 0)
                    and key not in self._lying, timeout):
                raise SimError(f"the simulated reader of pad {pad} did not let go of a tag")
            return self._gone_at.get(key)


class SimulatedTable:
    def __init__(self, seats: int, pads: Sequence[str], queue: EventQueue, *,
                 registry: TagRegistry, protocol: str = "rdm6300", set_size: int = 12,
                 pin_factory: Factory | Callable[[], Factory] = MockFactory,
                 removal_ms: int = 300, bounce_ms: int = 5, draw_hold_s: float = 2.0,
                 pass_hold_s: float = 1.0, online_timeout_s: float = 5.0) -> None:
        if protocol not in UID_BYTES:  # the protocols that have a fake reader
            raise UnknownProtocol(f"the simulated table has no {protocol!r} readers: expected "
                                  f"one of {', '.join(UID_BYTES)}")
        if not 0 < seats <= len(SIM_PINS) // 2:
            raise SimError(f"a simulated table has 1 to {len(SIM_PINS) // 2} seats, not {seats}")
        self.seats = seats
        self.protocol = protocol
        self.set_size = set_size
        self.registry = registry
        self._bounce_s = bounce_ms / 1000
        self._hold_s = {Button.DRAW: draw_hold_s, Button.PASS: pass_hold_s}
        self._own_factory = callable(pin_factory) and not isinstance(pin_factory, Factory)
        factory = pin_factory() if self._own_factory else pin_factory
        if not isinstance(factory, MockFactory):
            raise SimError("the simulated table needs gpiozero's MockFactory to press buttons")
        self._factory: MockFactory = factory
        self.pins = {seat: (SIM_PINS[2 * seat], SIM_PINS[2 * seat + 1]) for seat in range(seats)}
        self.folder = Path(tempfile.mkdtemp(prefix="roundhouse-pads-"))
        self.urls: dict[str, str] = {}
        self._cables: dict[str, PtyCable] = {}
        self._fakes: dict[str, FakeReader] = {}
        self._readers: dict[str, Reader] = {}
        self._pads = _Pads(queue)
        self.buttons: SeatButtons | None = None
        try:
            self.buttons = SeatButtons(self.pins, queue, pin_factory=self._factory,
                                       bounce_ms=bounce_ms, draw_hold_s=draw_hold_s,
                                       pass_hold_s=pass_hold_s)
            for pad in pads:
                path = self.folder / f"pad-{pad}"
                self.urls[pad] = str(path)
                self._cables[pad] = PtyCable(path)
                self._fakes[pad] = fake_reader(protocol, self._cables[pad], removal_ms / 1000)
                self._readers[pad] = open_reader(pad, str(path), protocol, self._pads,
                                                 removal_ms=removal_ms)
            self._wait_online(online_timeout_s)
        except BaseException:
            self.close()
            raise

    def _wait_online(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for pad, reader in self._readers.items():
            while not reader.online:
                if time.monotonic() > deadline:
                    raise SimError(f"the simulated reader of pad {pad} did not come online")
                time.sleep(0.005)

    # --- buttons ----------------------------------------------------------------------

    def press(self, seat: int, button: Button | str) -> None:
        """Press and release a button, each level held past the debounce window."""
        pin = self._pin(seat, button)
        assert self.buttons is not None
        # On a loaded machine this thread may be held up between the two edges for longer
        # than a hold: a press must not then come out as a hold (holding PASS takes the
        # last move back).
        with self.buttons.holding_off():
            pin.drive_low()
            time.sleep(self._bounce_s + 0.001)
            pin.drive_high()
        self.buttons.wait_released(seat, Button(button), self._bounce_s + 5.0)

    def hold(self, seat: int, button: Button | str) -> None:
        """Keep a button down until it reports its hold, then let go."""
        which = Button(button)
        pin = self._pin(seat, which)
        pin.drive_low()
        assert self.buttons is not None
        self.buttons.wait_held(seat, which, self._hold_s[which] + 5.0)
        pin.drive_high()
        self.buttons.wait_released(seat, which, self._bounce_s + 5.0)

    def _pin(self, seat: int, button: Button | str) -> MockPin:
        if seat not in self.pins:
            raise SimError(f"the simulated table has seats 0 to {self.seats - 1}, not {seat}")
        draw, pass_ = self.pins[seat]
        return self._factory.pin(draw if Button(button) is Button.DRAW else pass_)

    # --- pads -------------------------------------------------------------------------

    def tap(self, pad: str, tag: str | Binding) -> None:
        """Lay a tag on a pad just long enough to be read, then take it away."""
        fake, uid = self._fake(pad), self.uid(tag)
        self._pads.tapped(pad, uid)
        fake.tap(uid)

    def let_go(self, pad: str, tag: str | Binding, timeout: float = 30.0) -> float | None:
        """Wait until the pad's reader has reported every tap of `tag` on it and then
        its removal; returns when that removal was reported (`Event.at`; None: never
        tapped there). A tag laid again before its reader let go of it is read as the
        same stay, not as a new tap: on a busy machine that can be long after the
        reader's removal time."""
        self._fake(pad)  # a pad the table does not have is refused here
        return self._pads.let_go(pad, self.uid(tag), timeout)

    def place(self, pad: str, tag: str | Binding) -> None:
        self._fake(pad).place(self.uid(tag))

    def lift(self, pad: str, tag: str | Binding) -> None:
        self._fake(pad).lift(self.uid(tag))

    def unplug(self, pad: str, timeout: float = 5.0) -> None:
        """Pull the pad's cable; returns once its reader has seen it go. A PN532 is
        powered through its cable: it loses its power with it, and starts again asleep
        with its power-up settings when the cable comes back."""
        self._cable(pad).unplug()
        fake = self._fakes[pad]
        if isinstance(fake, FakePn532):
            fake.reset()
        self._until(lambda: not self._readers[pad].online, timeout)

    def replug(self, pad: str, timeout: float = 5.0) -> None:
        """Plug the cable back; returns once the reader is online again. A line hub
        restarts with its cable, as a USB board does, once the reader opened its port."""
        self._cable(pad).plug()
        self._until(lambda: self._readers[pad].online, timeout)
        fake = self._fakes[pad]
        if isinstance(fake, FakeLines):
            fake.restart()

    @staticmethod
    def _until(done: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise SimError("the simulated reader did not follow its cable")
            time.sleep(0.005)

    def garble(self, pad: str, data: bytes) -> None:
        """Bytes on the line as they are: noise, a torn frame, a bad checksum."""
        self._cable(pad).write(data)

    def reader(self, pad: str) -> Reader:
        self._fake(pad)
        return self._readers[pad]

    def uid(self, tag: str | Binding) -> str:
        """The UID of a tile ("12-5"), of "KIND:VALUE" ("marker:2", "marker:mexican",
        "card:undo"), of a `Binding`, or a UID given as it is."""
        if isinstance(tag, str):
            kind, _, value = tag.strip().partition(":")
            if kind in KINDS:
                tag = Binding.make(kind, value)
            elif _TILE.fullmatch(tag.strip()):
                tag = Binding.make("tile", tag)
        if isinstance(tag, Binding):
            uid = self.registry.uid_of(tag)
            if uid is None:
                raise SimError(f"{tag} has no tag in the registry: call enroll_set() first")
            return uid
        return checked_uid(tag)

    def enroll_set(self) -> int:
        """Give every tile of the set, every marker and every card a deterministic tag
        (what is bound already keeps its tag); returns how many were new."""
        width = UID_BYTES[self.protocol] * 2
        new = 0
        for number, binding in enumerate(set_plan(self.set_size, self.seats)):
            if self.registry.uid_of(binding) is None:
                # 0x5A... for 125 kHz cards, 0x04 (NXP) for 13.56 MHz tags.
                prefix = "5A" if self.protocol == "rdm6300" else "04"
                uid = f"{prefix}{number:0{width - 2}X}"
                self.registry.bind(uid, binding.kind, binding.value)
                new += 1
        return new

    def _fake(self, pad: str) -> FakeReader:
        if pad not in self._fakes:
            raise SimError(f"the simulated table has the pads {', '.join(self._fakes)}, "
                           f"not {pad!r}")
        return self._fakes[pad]

    def _cable(self, pad: str) -> PtyCable:
        self._fake(pad)
        return self._cables[pad]

    def close(self) -> None:
        for reader in self._readers.values():
            reader.close()
        for fake in self._fakes.values():
            fake.close()
        for cable in self._cables.values():
            cable.close()
        if self.buttons is not None:
            self.buttons.close()
        if self._own_factory:
            self._factory.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> SimulatedTable:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
