"""Roundhouse: the brain of a smart Mexican Train table (the rules engine in `rules`, the
table, its journal, the service and the commands)."""

from roundhouse import __version__

__all__ = ["__version__"]
