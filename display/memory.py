"""Giving freed memory back to the system after a frame.

Drawing a view makes and drops many images (lines of text, glows, tile faces); the C
allocator keeps what was freed for later rather than returning it, so a screen's resident
memory grew by a third over the memory it used. After each new view is drawn the display
loop asks the allocator to return its free pages (glibc's `malloc_trim`); elsewhere it does
nothing. The screens' caches are bounded by themselves (`display/shaping.py`,
`display/text.py`, `display/tiles.py`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from functools import cache


@cache
def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to ask
        return None
    return trim


def release() -> None:
    """Return the allocator's free memory to the system, where it can be asked to."""
    trim = _trim()
    if trim is not None:
        trim(0)
