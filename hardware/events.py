"""The events of the table's hardware: the only thing the brain imports from `hardware`.

Every adapter (seat buttons, RFID readers, the simulator) turns a physical signal into
one of these frozen values and puts it on one queue. They carry a monotonic timestamp
(`time.monotonic()`, seconds) so latency can be measured from the edge or the last
byte of a frame to the moment the controller handles the event.
"""

from __future__ import annotations

import enum
import time

from roundhouse.value import Value


class Button(enum.Enum):
    """The two buttons at every seat."""

    DRAW = "draw"
    PASS = "pass"


class _Event(Value):
    """A hardware event: a frozen value whose last field, `at`, is when it happened
    (`time.monotonic()` when not given). Two events are equal when they tell the same,
    whenever it happened."""

    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        return self._fields()[:-1]


class ButtonPressed(_Event):
    """A seat button went down."""

    __match_args__ = ("seat", "button", "at")
    __slots__ = __match_args__
    seat: int
    button: Button
    at: float

    def __init__(self, seat: int, button: Button, at: float | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


class ButtonReleased(_Event):
    """A seat button came up again."""

    __match_args__ = ("seat", "button", "at")
    __slots__ = __match_args__
    seat: int
    button: Button
    at: float

    def __init__(self, seat: int, button: Button, at: float | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


class ButtonHeld(_Event):
    """A button kept down for the configured hold time (PASS held = undo)."""

    __match_args__ = ("seat", "button", "at")
    __slots__ = __match_args__
    seat: int
    button: Button
    at: float

    def __init__(self, seat: int, button: Button, at: float | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


# ISO/IEC 14443-3: a single-size UID whose first byte is 08h is a random number the card
# makes anew at each activation (phones, passports, bank cards). Readers report every
# such UID as this one, so a card lying on a pad is one tag placed, not one per read.
RANDOM_UID = "08000000"


def is_random_uid(uid: str) -> bool:
    """A UID (upper-case hex) that a card draws at random at each read."""
    return len(uid) == 8 and uid.startswith("08")


class TagPlaced(_Event):
    """A tag came onto a pad. `pad` is the reader's pad name from the configuration
    (a seat number as text, or "mexican"); `uid` is upper-case hex without separators,
    `RANDOM_UID` for any card with a random UID."""

    __match_args__ = ("pad", "uid", "at")
    __slots__ = __match_args__
    pad: str
    uid: str
    at: float

    def __init__(self, pad: str, uid: str, at: float | None = None) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


class TagRemoved(_Event):
    """A tag left a pad (its reader stopped sensing it, or said so)."""

    __match_args__ = ("pad", "uid", "at")
    __slots__ = __match_args__
    pad: str
    uid: str
    at: float

    def __init__(self, pad: str, uid: str, at: float | None = None) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


class ReaderOnline(_Event):
    """A pad's reader is open and answering."""

    __match_args__ = ("pad", "at")
    __slots__ = __match_args__
    pad: str
    at: float

    def __init__(self, pad: str, at: float | None = None) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


class ReaderOffline(_Event):
    """A pad's reader is gone or silent; `reason` says what happened."""

    __match_args__ = ("pad", "reason", "at")
    __slots__ = __match_args__
    pad: str
    reason: str
    at: float

    def __init__(self, pad: str, reason: str, at: float | None = None) -> None:
        object.__setattr__(self, "pad", pad)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "at", time.monotonic() if at is None else at)


Event = (
    ButtonPressed
    | ButtonReleased
    | ButtonHeld
    | TagPlaced
    | TagRemoved
    | ReaderOnline
    | ReaderOffline
)
