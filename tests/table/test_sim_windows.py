"""`roundhouse sim` with a screen: the table and wall windows on a virtual X server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None, reason="Xvfb is not installed (Debian package xvfb)"
)


@pytest.fixture
def x_display():
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.slow
def test_the_screens_open_as_windows_and_draw_every_view(tmp_path, x_display):
    env = {**os.environ, "DISPLAY": x_display}
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("SDL_VIDEODRIVER", None)
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_py.cli", "sim", "--seats", "3", "--rounds", "1",
         "--speed", "0", "--seed", "5", "--db", str(tmp_path / "sim.db")],
        env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "headless" not in proc.stdout
    assert "Game 1: " in proc.stdout and " wins (" in proc.stdout
    # The screens are separate processes writing to the same stderr: a view they could
    # not draw, or a crash, would show there.
    assert "skipped a view" not in proc.stderr
    assert "Traceback" not in proc.stderr
