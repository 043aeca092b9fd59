"""gpiozero, imported without `importlib.metadata`.

gpiozero's `devices` module imports `entry_points` when it is first imported, for one
use: finding the pin factory that `GPIOZERO_PIN_FACTORY` names when a device is made
without one. That import costs the table's start about a tenth of its imports
(`importlib.metadata` brings `zipfile`, `email`, `csv`, `tempfile`, `shutil`), and
the table never uses it: `hardware.buttons.make_pin_factory` makes the factory itself
and hands it to every device. So gpiozero is imported here with a stand-in for its
first choice, the `importlib_metadata` package, whose `entry_points` imports the
standard library's only when it is called. gpiozero's own lookup still works when
something does ask it (a device made without a factory, `GPIOZERO_PIN_FACTORY` set);
it only costs the import then. The stand-in is gone again once gpiozero is imported,
so nothing else sees it.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import types
from collections.abc import Iterator
from typing import Any

__all__ = ["DigitalInputDevice", "Factory", "GPIOZeroError", "entry_points", "import_module"]


def entry_points(**selection: Any) -> Any:
    """`importlib.metadata.entry_points`, imported on the first call."""
    from importlib.metadata import entry_points as real

    return real(**selection)


@contextlib.contextmanager
def _metadata_on_call() -> Iterator[None]:
    """While it lasts, `importlib_metadata` is the stand-in (unless the package itself
    is already imported); after it nothing is left of the stand-in."""
    stand_in = types.ModuleType("importlib_metadata", "imported only when called")
    stand_in.entry_points = entry_points  # type: ignore[attr-defined]
    installed = sys.modules.setdefault("importlib_metadata", stand_in) is stand_in
    try:
        yield
    finally:
        if installed and sys.modules.get("importlib_metadata") is stand_in:
            del sys.modules["importlib_metadata"]


def import_module(name: str) -> types.ModuleType:
    """A module of gpiozero (a pin factory's, say: gpiozero.pins.mock imports
    `entry_points` too), or of any pin library, imported with the stand-in."""
    with _metadata_on_call():
        return importlib.import_module(name)


with _metadata_on_call():
    from gpiozero import DigitalInputDevice, GPIOZeroError  # type: ignore[import-untyped]
    from gpiozero.pins import Factory  # type: ignore[import-untyped]
