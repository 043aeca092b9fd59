"""The events of the table's hardware: the only thing the brain imports from `hardware`.

Every adapter (seat buttons, RFID readers, the simulator) turns a physical signal into
one of these frozen values and puts it on one queue. They carry a monotonic timestamp
(`time.monotonic()`, seconds) so latency can be measured from the edge or the last
byte of a frame to the moment the controller handles the event.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field


class Button(enum.Enum):
    """The two buttons at every seat."""

    DRAW = "draw"
    PASS = "pass"


def _now() -> float:
    return time.monotonic()


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A seat button went down."""

    seat: int
    button: Button
    at: float = field(default_factory=_now, compare=False)


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    """A seat button came up again."""

    seat: int
    button: Button
    at: float = field(default_factory=_now, compare=False)


@dataclass(frozen=True, slots=True)
class ButtonHeld:
    """A button kept down for the configured hold time (PASS held = undo)."""

    seat: int
    button: Button
    at: float = field(default_factory=_now, compare=False)


# ISO/IEC 14443-3: a single-size UID whose first byte is 08h is a random number the card
# makes anew at each activation (phones, passports, bank cards). Readers report every
# such UID as this one, so a card lying on a pad is one tag placed, not one per read.
RANDOM_UID = "08000000"


def is_random_uid(uid: str) -> bool:
    """A UID (upper-case hex) that a card draws at random at each read."""
    return len(uid) == 8 and uid.startswith("08")


@dataclass(frozen=True, slots=True)
class TagPlaced:
    """A tag came onto a pad. `pad` is the reader's pad name from the configuration
    (a seat number as text, or "mexican"); `uid` is upper-case hex without separators,
    `RANDOM_UID` for any card with a random UID."""

    pad: str
    uid: str
    at: float = field(default_factory=_now, compare=False)


@dataclass(frozen=True, slots=True)
class TagRemoved:
    """A tag left a pad (its reader stopped sensing it, or said so)."""

    pad: str
    uid: str
    at: float = field(default_factory=_now, compare=False)


@dataclass(frozen=True, slots=True)
class ReaderOnline:
    """A pad's reader is open and answering."""

    pad: str
    at: float = field(default_factory=_now, compare=False)


@dataclass(frozen=True, slots=True)
class ReaderOffline:
    """A pad's reader is gone or silent; `reason` says what happened."""

    pad: str
    reason: str
    at: float = field(default_factory=_now, compare=False)


Event = (
    ButtonPressed
    | ButtonReleased
    | ButtonHeld
    | TagPlaced
    | TagRemoved
    | ReaderOnline
    | ReaderOffline
)
