"""The service's sandbox shows what gpiozero reads, tried in a real mount namespace.

gpiozero reads the board's revision from /proc/device-tree/system/linux,revision, else
from the "Revision" line of /proc/cpuinfo, before it builds any pin factory
(gpiozero/pins/local.py, get_pi_revision). Here /proc is mounted with the options the
shipped unit gives systemd (src/core/namespace.c, mount_procfs: ProtectProc= becomes
hidepid=, ProcSubset=pid becomes subset=pid) and gpiozero's own function is run in it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from firmware_py.unitfile import read_unit

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "roundhouse.service"

# A Raspberry Pi 4 B's /proc/cpuinfo tail (revision c03111: 4 GB, Sony UK, rev 1.1).
PI4_CPUINFO = "Hardware\t: BCM2835\nRevision\t: c03111\nSerial\t\t: 10000000a1b2c3d4\n"

READ_REVISION = textwrap.dedent("""
    from gpiozero.pins.local import get_pi_revision
    try:
        print(hex(get_pi_revision()))
    except OSError as err:
        print("hidden:", err)
""")


def revision_in_proc(options: str, tmp_path: Path) -> str:
    """gpiozero's revision as read in a new mount and PID namespace whose /proc is
    mounted with `options`, /proc/cpuinfo showing a Pi 4's text where it is visible."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare(1) to mount a private /proc (CI runs as root)")
    fake = tmp_path / "cpuinfo"
    fake.write_text(PI4_CPUINFO)
    # The bind mount lands only on a /proc/cpuinfo the options left visible, as the real
    # file of a Pi would be: where it is hidden there is nothing to bind onto.
    script = (f"mount -t proc -o {options or 'defaults'} proc /proc && "
              f"{{ [ ! -e /proc/cpuinfo ] || mount --bind {fake} /proc/cpuinfo; }} && "
              f'exec "$0" -c "$1"')
    done = subprocess.run(
        ["unshare", "--mount", "--pid", "--fork", "--propagation", "private",
         "sh", "-c", script, sys.executable, READ_REVISION],
        capture_output=True, text=True, timeout=60)
    if done.returncode != 0 and ("Operation not permitted" in done.stderr
                                 or "Permission denied" in done.stderr):
        pytest.skip(f"this kernel does not let unshare mount a private /proc: "
                    f"{done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_units_proc_options_are_what_systemd_would_mount():
    unit = read_unit(UNIT)
    assert unit.last("ProtectProc") == "invisible"  # the sandbox stays
    assert unit.proc_mount_options() == "hidepid=invisible"


def test_gpiozero_reads_the_board_revision_inside_the_units_proc(tmp_path):
    options = read_unit(UNIT).proc_mount_options()
    assert revision_in_proc(options, tmp_path) == "0xc03111"


def test_the_old_subset_pid_would_hide_the_revision(tmp_path):
    # The same harness on the option the unit shipped with: the failure it must catch.
    assert revision_in_proc("hidepid=invisible,subset=pid", tmp_path).startswith("hidden:")
