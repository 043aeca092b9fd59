"""Helpers of the game night's tests: free loopback ports, services started as the
commands a host runs, each stopped at the end of its test."""

from __future__ import annotations

import getpass
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

STARTUP_S = 20.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], bool], what: str, timeout: float = STARTUP_S) -> None:
    """Poll `condition` until it holds; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(0.05)


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Processes:
    """Commands started for one test; every one still running is stopped at its end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, args: Sequence[str]) -> subprocess.Popen[bytes]:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYTHONUNBUFFERED="1")
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        log = (self.folder / f"{name}.log").open("ab")
        process = subprocess.Popen(list(args), stdout=log, stderr=subprocess.STDOUT, env=env)
        self.started.append(process)
        return process

    def roundhouse(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        return self.start(name, [sys.executable, "-m", "firmware_py.cli", *args])

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.terminate()
        for process in self.started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    running = Processes(tmp_path)
    try:
        yield running
    finally:
        running.stop_all()


# --- a real mosquitto, configured as the shipped configuration says -------------------

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = "/usr/sbin/mosquitto"
PASSWD = "/usr/bin/mosquitto_passwd"


class Mosquitto:
    """The shipped broker configuration on a free loopback port, with users made by
    mosquitto_passwd (each user's password is its name with "-secret")."""

    def __init__(self, processes: Processes, users: Sequence[str], *, acl: str = "") -> None:
        """`acl`: lines added to the shipped ACL (a test's own observer)."""
        self.processes = processes
        self.port = free_port()
        folder = processes.folder / "broker"
        folder.mkdir()
        self.folder = folder
        passwd = folder / "roundhouse.passwd"
        for index, user in enumerate(users):
            create = ["-c"] if index == 0 else []
            subprocess.run([PASSWD, *create, "-b", str(passwd), user, self.password(user)],
                           check=True, capture_output=True, timeout=30)
        shipped = ROOT / "systemd" / "mosquitto"
        (folder / "roundhouse.acl").write_text((shipped / "roundhouse.acl").read_text() + acl)
        conf = (shipped / "roundhouse.conf").read_text()
        conf = conf.replace("/etc/mosquitto/conf.d/", f"{folder}/")
        conf = conf.replace("listener 1883", f"listener {self.port} 127.0.0.1")
        conf += f"persistence_location {folder}/\n"
        # Started as root (a CI container), mosquitto would become the user `mosquitto`,
        # who cannot read the test's folder: it stays who started it.
        conf += f"user {getpass.getuser()}\n"
        (folder / "mosquitto.conf").write_text(conf)
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def password(user: str) -> str:
        return f"{user}-secret"

    def secret_file(self, user: str) -> Path:
        path = self.folder / f"{user}.secret"
        path.write_text(self.password(user) + "\n")
        return path

    def start(self) -> None:
        self.process = self.processes.start(
            "mosquitto", [MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")])
        process = self.process
        wait_until(lambda: listening(self.port) or process.poll() is not None,
                   "mosquitto listening")
        assert process.poll() is None, self.processes.log("mosquitto")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def credentials(self, user: str) -> list[str]:
        return ["--broker", f"127.0.0.1:{self.port}", "--username", user,
                "--password-file", str(self.secret_file(user))]
