"""Roundhouse: the brain of a smart Mexican Train table."""

__version__ = "0.1.0"


class RoundhouseError(Exception):
    """Root of every error raised by `firmware_py` outside the rules engine.

    The rules engine has its own root, `firmware_py.rules.RulesError`, because it
    imports nothing from the rest of the project.
    """
