"""The table's senses: seat buttons and RFID pads turned into events on one queue."""

from roundhouse.errors import RoundhouseError


class HardwareError(RoundhouseError):
    """Root of every error raised by the `hardware` package."""
