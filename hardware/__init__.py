"""The table's senses: seat buttons and RFID pads turned into events on one queue."""


class HardwareError(Exception):
    """Root of every error raised by the `hardware` package."""
