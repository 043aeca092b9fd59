"""What a reader's protocol gives the reader loop, and what every protocol provides.

A protocol object holds one connection's conversation with a reader and does no I/O:
the loop hands it the bytes it read and writes the bytes it asks for, so every
protocol is tested by feeding it bytes.
"""

from __future__ import annotations

from typing import Protocol

from hardware import HardwareError
from roundhouse.value import Value


class Seen(Value):
    """A tag read in a valid frame; it counts as placed while it keeps being seen."""

    __match_args__ = ("uid",)
    __slots__ = __match_args__
    uid: str

    def __init__(self, uid: str) -> None:
        object.__setattr__(self, "uid", uid)


class Arrived(Value):
    """A reader that says itself when a tag comes (`+UID`): placed until it says it left."""

    __match_args__ = ("uid",)
    __slots__ = __match_args__
    uid: str

    def __init__(self, uid: str) -> None:
        object.__setattr__(self, "uid", uid)


class Left(Value):
    """A reader that says itself when a tag goes (`-UID`)."""

    __match_args__ = ("uid",)
    __slots__ = __match_args__
    uid: str

    def __init__(self, uid: str) -> None:
        object.__setattr__(self, "uid", uid)


Reading = Seen | Arrived | Left


class ReaderSilent(HardwareError):
    """A reader that should answer stopped answering (unpowered, wrong port or speed)."""


class Driver(Protocol):
    baudrate: int
    # How often `tick` must be called even while nothing happens (a polled reader);
    # None for a reader that only talks.
    tick_s: float | None
    # The reader answered its set-up: it is online.
    ready: bool

    @property
    def bad_frames(self) -> int:
        """Frames dropped for a wrong checksum or shape, over every connection."""
        ...

    def start(self, now: float) -> bytes:
        """Begin a conversation on a freshly opened port; returns the bytes to send."""
        ...

    def receive(self, data: bytes, now: float) -> list[Reading]:
        """Bytes read from the port; returns the tags they report."""
        ...

    def tick(self, now: float) -> bytes:
        """Bytes to send now (a poll, a retry); raises `ReaderSilent` when it gave up."""
        ...

    def watched_until(self, now: float) -> float:
        """Until when the pad is known to have been watched: a tag unseen since then may
        still lie there (a polled chip that stopped answering for a moment saw nothing)."""
        ...

    @property
    def resumptions(self) -> int:
        """Times the reader answered again after missing answers (a brown-out): each
        gives the tags that lay on the pad a new removal time, as a reconnection does."""
        ...


class Listener:
    """Base of the readers that only talk: nothing to set up, nothing to ask."""

    tick_s: float | None = None
    ready = True
    resumptions = 0

    def __init__(self) -> None:
        self.bad_frames = 0

    def start(self, now: float) -> bytes:
        return b""

    def tick(self, now: float) -> bytes:
        return b""

    def watched_until(self, now: float) -> float:
        return now  # a reader that only talks says a tag again as long as it lies


def normalise_uid(text: str) -> str | None:
    """`04:a2:2b` or `04A22B` -> `04A22B`; None unless it is whole bytes of hex (2..10)."""
    digits = "".join(text.split()).replace(":", "").upper()
    if not 4 <= len(digits) <= 20 or len(digits) % 2:
        return None
    if any(c not in "0123456789ABCDEF" for c in digits):
        return None
    return digits
