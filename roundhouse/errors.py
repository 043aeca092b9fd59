"""The one root of every error the project raises.

Each package hangs its own small tree below it (`RulesError`, `HardwareError`,
`DisplayError`, the service's `ConfigError`, `JournalError`, ...), as gpiozero does with
`GPIOZeroError`: a caller that wants every mistake of the table catches `RoundhouseError`,
one that knows what it is doing catches a leaf.
"""


class RoundhouseError(Exception):
    """Root of every error raised by the project: its message is for a person to act on."""
