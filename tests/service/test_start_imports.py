"""What `roundhouse run` loads before it tells systemd it is READY.

A Pi's start is mostly Python importing modules, so the service loads only what the
table needs before READY: its buttons, readers, journal and first view. These tests
read the interpreter's own record of its imports (`-X importtime`) up to READY; they
time nothing.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.config import example_config

# Never needed by a table serving its pads and buttons: the screens, the game night's
# services, the other commands, the readers of protocols the table has no pad of, the
# installed packages' metadata and resources (gpiozero imports them for lookups the
# table never makes), and what they bring.
NOT_BEFORE_READY = (
    "pygame", "display", "gamenight", "aiohttp", "paho", "segno",
    "firmware_py.simtable", "firmware_py.bots", "firmware_py.doctor", "firmware_py.record",
    "firmware_py.journal_commands", "firmware_py.rulebook", "firmware_py.flowchart",
    "hardware.sim", "hardware.probe", "hardware.enroll", "hardware.ports",
    "hardware.rfid.pn532", "hardware.rfid.keyboard", "hardware.rfid.em18", "evdev",
    "importlib.metadata", "importlib_metadata", "importlib.resources", "importlib_resources",
    "email", "zipfile", "shutil", "tempfile",
)


def _config(folder: Path) -> Path:
    """The simulated table (mock pins, five RDM6300 pads on loop://) in `folder`."""
    text = example_config("sim").read_text(encoding="utf-8")
    text = text.replace('"~/.local/state/roundhouse/sim.db"', '"t.db"')
    text = text.replace('"~/.local/state/roundhouse/sim.sock"', '"view.sock"')
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def imported_before_ready(folder: Path) -> set[str]:
    """Every module `roundhouse run` imported before it sent READY."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(folder / "notify"))
    notify.settimeout(60)
    # Into a file: a pipe no one reads before READY could fill and stall the service.
    log = folder / "service.err"
    with log.open("w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "firmware_py.cli", "run", "--config",
             str(_config(folder))],
            stdout=subprocess.DEVNULL, stderr=stderr, cwd=folder,
            env={**os.environ, "NOTIFY_SOCKET": str(folder / "notify")})
        try:
            while not notify.recv(4096).startswith(b"READY=1"):
                pass
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        finally:
            proc.kill()
            notify.close()
    err = log.read_text(encoding="utf-8")
    assert proc.returncode == 0, err
    # The service logs that it serves its seats just before it sends READY.
    before, serving, _ = err.partition("serving 4 seats")
    assert serving, err
    return {line.rpartition("|")[2].strip() for line in before.splitlines()
            if line.startswith("import time:") and "[us]" not in line}


@pytest.fixture(scope="module")
def ready_modules(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    return imported_before_ready(tmp_path_factory.mktemp("start"))


def test_run_is_ready_without_the_screens_the_other_commands_or_package_metadata(
        ready_modules):
    modules = ready_modules
    # What READY promises was loaded: the buttons' library, the readers' and the journal's.
    assert {"gpiozero", "hardware.buttons", "hardware.rfid.rdm6300", "serial", "sqlite3",
            "firmware_py.journal", "firmware_py.table"} <= modules
    loaded = sorted(m for m in modules
                    if any(m == name or m.startswith(name + ".") for name in NOT_BEFORE_READY))
    assert loaded == []


def test_the_values_built_before_ready_have_docstrings(ready_modules):
    # A dataclass without a docstring gets one made from its signature when its module
    # is imported (`inspect.signature`), which cost a tenth of the start's imports.
    ours = sorted(m for m in ready_modules
                  if m.split(".")[0] in ("roundhouse", "firmware_py", "hardware"))
    undocumented = [
        f"{name}.{cls.__qualname__}" for name in ours
        for cls in vars(importlib.import_module(name)).values()
        if isinstance(cls, type) and cls.__module__ == name and dataclasses.is_dataclass(cls)
        # Without one, dataclasses wrote "Name(field: type, ...)" as its docstring.
        and (cls.__doc__ or "").startswith(cls.__name__ + "(")]
    assert undocumented == []


def test_gpiozero_still_finds_the_factory_the_environment_names(tmp_path):
    # The table imports gpiozero with package metadata loaded only on demand; gpiozero's
    # own GPIOZERO_PIN_FACTORY lookup (a device made without a factory) still works.
    script = (
        "import sys\n"
        "import hardware.buttons\n"
        "assert 'importlib.metadata' not in sys.modules\n"
        "assert 'importlib_metadata' not in sys.modules\n"
        "from gpiozero import Device, DigitalInputDevice\n"
        "button = DigitalInputDevice(4)\n"
        "print(type(Device.pin_factory).__name__, button.pin)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "MockFactory GPIO4\n"
