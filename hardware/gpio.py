"""gpiozero, imported without `importlib.metadata` and `importlib.resources`.

When first imported, gpiozero imports `entry_points` (in `gpiozero.devices` and
`gpiozero.pins.mock`) for one use: finding a pin factory or a mock pin class by a
name in the environment (`GPIOZERO_PIN_FACTORY`, `GPIOZERO_MOCK_PIN_CLASS`); and
`gpiozero.boards` imports `importlib.resources` to read the fonts of LED character
displays. Together they cost the table's start about a tenth of its imports (they
bring `zipfile`, `email`, `csv`, `tempfile`, `shutil`, `bz2`, `lzma`), and the table
uses neither: `hardware.buttons.make_pin_factory` makes the factory itself and hands
it to every device, and the table has no LED display.

So gpiozero is imported here with stand-ins for its first choices, the
`importlib_metadata` and `importlib_resources` packages: each imports the standard
library's module only when it is used. gpiozero's own lookups still work when
something asks for them (a device made without a factory while
`GPIOZERO_PIN_FACTORY` is set, say); they only cost the import then. The stand-ins
are gone again once the import is done, so nothing else sees them; where the real
packages are already imported they are left alone.
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


def _resources(name: str) -> Any:
    """An attribute of `importlib.resources` (`files`), imported on the first use."""
    return getattr(importlib.import_module("importlib.resources"), name)


@contextlib.contextmanager
def _standard_library_on_use() -> Iterator[None]:
    """While it lasts, `importlib_metadata` and `importlib_resources` are the stand-ins
    (unless the packages themselves are imported already)."""
    metadata = types.ModuleType("importlib_metadata", "imported only when called")
    metadata.entry_points = entry_points  # type: ignore[attr-defined]
    resources = types.ModuleType("importlib_resources", "imported only when used")
    resources.__getattr__ = _resources  # type: ignore[method-assign]
    installed = [m for m in (metadata, resources)
                 if sys.modules.setdefault(m.__name__, m) is m]
    try:
        yield
    finally:
        for stand_in in installed:
            if sys.modules.get(stand_in.__name__) is stand_in:
                del sys.modules[stand_in.__name__]


def import_module(name: str) -> types.ModuleType:
    """A module of gpiozero (a pin factory's, say: gpiozero.pins.mock imports
    `entry_points` too), or of any pin library, imported with the stand-ins."""
    with _standard_library_on_use():
        return importlib.import_module(name)


with _standard_library_on_use():
    from gpiozero import DigitalInputDevice, GPIOZeroError  # type: ignore[import-untyped]
    from gpiozero.pins import Factory  # type: ignore[import-untyped]
