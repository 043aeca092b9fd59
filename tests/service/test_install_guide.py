"""Every command of docs/install.md checked against what the shipped files give.

The guide is read as an installer reads it: its `sh` blocks, line by line. What each
`cp` copies must be shipped; every `roundhouse` command line must parse; what a command
run as the service's user opens, that user must reach through the sysusers file alone
(`sudo -u` gets none of the unit's SupplementaryGroups=); and the unit must start what
the guide installed where the guide put it.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shlex
from pathlib import Path

import pytest

from firmware_py.cli import COMMANDS
from firmware_py.unitfile import read_unit

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "install.md"
SRC = "/opt/roundhouse/src/"
VENV_ROUNDHOUSE = "/opt/roundhouse/venv/bin/roundhouse"
# The groups a command needs for what it opens (hardware/WIRING.md, "Groups").
NEEDS = {"probe": {"dialout"}, "enroll": {"dialout"},
         "doctor": {"dialout", "gpio", "video", "render", "input"},
         "run": {"dialout", "gpio"}}


def commands() -> list[list[str]]:
    """Every command line of the guide's sh blocks, continuations joined, comments cut."""
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), re.S)
    lines = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(words)
    return lines


def copies() -> list[tuple[str, str]]:
    """(source in the repository, destination) of every `cp` from the source tree."""
    found = []
    for words in commands():
        if "cp" in words and words[-2].startswith(SRC):
            found.append((words[-2].removeprefix(SRC), words[-1]))
    return found


def sysusers_groups(user: str = "roundhouse") -> set[str]:
    text = (ROOT / "systemd" / "sysusers.d" / "roundhouse.conf").read_text()
    return set(re.findall(rf"^m {re.escape(user)} (\S+)$", text, re.M))


def test_every_file_the_guide_copies_is_shipped():
    assert copies()
    for source, _ in copies():
        matches = list(ROOT.glob(source))
        assert matches and all(m.stat().st_size > 0 for m in matches), source


def test_the_guide_installs_every_file_the_service_needs():
    installed = {source for source, _ in copies()}
    for shipped in ("systemd/roundhouse.service", "systemd/roundhouse-display@.service",
                    "systemd/sysusers.d/roundhouse.conf",
                    "systemd/modules-load.d/roundhouse.conf",
                    "hardware/udev/99-roundhouse-readers.rules"):
        assert shipped in installed, shipped
    destinations = dict(copies())
    assert destinations["systemd/modules-load.d/roundhouse.conf"] == "/etc/modules-load.d/"
    # The pads' names need ID_PATH, which 60-serial.rules sets: a later file.
    pads = [dest for source, dest in copies() if source.startswith("hardware/udev/pads-")]
    assert pads == ["/etc/udev/rules.d/98-roundhouse-pads.rules"]
    assert int(Path(pads[0]).name[:2]) > 60


def test_every_roundhouse_command_in_the_guide_parses():
    seen = set()
    for words in commands():
        if VENV_ROUNDHOUSE not in words:
            continue
        argv = words[words.index(VENV_ROUNDHOUSE) + 1:]
        if argv == ["--version"]:
            continue
        name = argv[0]
        assert name in COMMANDS, words
        module = importlib.import_module(COMMANDS[name][0])
        parser = argparse.ArgumentParser(prog=name, exit_on_error=False)
        getattr(module, f"configure_{name.replace('-', '_')}")(parser)
        try:
            parser.parse_args(argv[1:])
        except (argparse.ArgumentError, SystemExit) as err:
            pytest.fail(f"{shlex.join(words)}: {err}")
        seen.add(name)
    assert {"probe", "enroll", "check-config", "learn-port", "doctor", "run"} <= seen


def test_commands_run_as_the_service_user_get_their_groups_from_sysusers():
    groups = sysusers_groups()
    checked = 0
    for words in commands():
        if words[:3] == ["sudo", "-u", "roundhouse"] and VENV_ROUNDHOUSE in words:
            name = words[words.index(VENV_ROUNDHOUSE) + 1]
            assert NEEDS.get(name, set()) <= groups, (name, NEEDS[name] - groups)
            checked += 1
    assert checked >= 4


def test_the_unit_starts_what_the_guide_installed():
    unit = read_unit(ROOT / "systemd" / "roundhouse.service")
    exec_start = shlex.split(unit.last("ExecStart"))
    assert exec_start[0] == VENV_ROUNDHOUSE
    config = exec_start[exec_start.index("--config") + 1]
    assert any(words[-1] == config and "cp" in words for words in commands())
    # What the unit adds, sysusers gives the user too: a command run by hand reaches
    # what the service reaches.
    assert set(unit.words("SupplementaryGroups")) <= sysusers_groups()
    display = read_unit(ROOT / "systemd" / "roundhouse-display@.service")
    assert set(display.words("SupplementaryGroups")) <= sysusers_groups(display.last("User"))


def test_the_pads_the_guide_probes_are_named_by_the_shipped_pads_rules():
    named = set()
    for board in ("pi4", "pi5"):
        text = (ROOT / "hardware" / "udev" / f"pads-{board}.rules").read_text()
        named |= set(re.findall(r'SYMLINK\+="(roundhouse/pad-\w+)"', text))
    used = {word.removeprefix("/dev/") for words in commands() for word in words
            if word.startswith("/dev/roundhouse/pad-")}
    assert used and used <= named
