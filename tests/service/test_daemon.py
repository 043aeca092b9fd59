"""The service: the view socket, the controller loop, signals, the systemd unit."""

import configparser
import json
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.daemon import ServiceError, ViewPublisher

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "roundhouse.service"


class ViewReader:
    """A screen on the view socket: reads newline-delimited JSON views."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rb")

    def next(self) -> dict:
        line = self.file.readline()
        assert line.endswith(b"\n"), "the view socket closed"
        return json.loads(line)

    def until(self, seq: int) -> list[dict]:
        views = [self.next()]
        while views[-1]["seq"] < seq:
            views.append(self.next())
        return views

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.fixture
def publisher(tmp_path):
    pub = ViewPublisher(tmp_path / "run" / "view.sock")
    pub.start()
    yield pub
    pub.close()


def test_a_new_screen_gets_the_latest_view_then_every_new_one(publisher):
    publisher.publish({"phase": "lobby", "turn": None})
    publisher.publish({"phase": "play", "turn": 0})
    screen = ViewReader(publisher.path)
    assert screen.next() == {"phase": "play", "turn": 0, "seq": 2}
    assert publisher.publish({"phase": "play", "turn": 1}) == 3
    assert screen.next() == {"phase": "play", "turn": 1, "seq": 3}
    screen.close()


def test_every_screen_that_keeps_up_sees_every_view(publisher):
    publisher.publish({"turn": 0})
    screens = [ViewReader(publisher.path) for _ in range(5)]
    for screen in screens:
        assert screen.next() == {"turn": 0, "seq": 1}
    for turn in range(1, 40):
        publisher.publish({"turn": turn})
    for screen in screens:
        assert [v["turn"] for v in screen.until(40)] == list(range(1, 40))
        screen.close()


def test_a_stalled_screen_skips_to_the_latest_view(publisher):
    stalled = ViewReader(publisher.path)
    live = ViewReader(publisher.path)
    padding = "x" * 20_000
    # Far more than the socket buffers hold: publish must never wait for the screen.
    for n in range(1, 401):
        publisher.publish({"n": n, "padding": padding})
        assert live.next()["n"] == n
    seen = [v["n"] for v in stalled.until(400)]
    assert seen[-1] == 400
    assert seen == sorted(seen)
    assert len(seen) < 400
    stalled.close()
    live.close()


def test_a_screen_that_hangs_up_does_not_disturb_the_others(publisher):
    gone = ViewReader(publisher.path)
    gone.close()
    rude = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    rude.connect(str(publisher.path))
    rude.sendall(b"hello table\n")
    staying = ViewReader(publisher.path)
    for n in range(50):
        publisher.publish({"n": n})
    assert staying.until(50)[-1]["n"] == 49
    rude.close()
    staying.close()


def test_a_socket_left_by_a_killed_service_is_replaced(tmp_path):
    path = tmp_path / "view.sock"
    leftover = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    leftover.bind(str(path))
    leftover.close()
    pub = ViewPublisher(path)
    pub.start()
    pub.publish({"ok": True})
    screen = ViewReader(path)
    assert screen.next()["ok"] is True
    screen.close()
    pub.close()
    assert not path.exists()


def test_a_file_in_the_sockets_place_is_not_overwritten(tmp_path):
    path = tmp_path / "view.sock"
    path.write_text("keep me")
    with pytest.raises(ServiceError, match="is not a socket"):
        ViewPublisher(path).start()
    assert path.read_text() == "keep me"


# --- the systemd unit -------------------------------------------------------------------


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment]
    parser.read(UNIT)
    return parser


def test_unit_is_a_watched_notify_service_with_its_own_user():
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert float(service["RestartSec"]) >= 1
    assert int(unit()["Unit"]["StartLimitBurst"]) > 0
    assert int(unit()["Unit"]["StartLimitIntervalSec"]) > 0
    assert service["User"] == "roundhouse"
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "dialout"}
    assert service["StateDirectory"] == "roundhouse"
    assert service["RuntimeDirectory"] == "roundhouse"
    assert service["PrivateDevices"] == "no"
    assert "roundhouse run --config" in service["ExecStart"]


def _checkable_unit(tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at this environment's `roundhouse`, which
    `systemd-analyze verify` requires to exist."""
    exe = Path(sys.executable).with_name("roundhouse")
    if not exe.exists():
        pytest.skip(f"no roundhouse command beside {sys.executable}")
    path = tmp_path / "roundhouse.service"
    path.write_text(UNIT.read_text().replace("/opt/roundhouse/venv/bin/roundhouse", str(exe)))
    return path


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd)")
def test_unit_passes_systemd_analyze_verify(tmp_path):
    path = _checkable_unit(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", path.name], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "roundhouse" in line] == []


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd)")
def test_unit_sandboxing_scores_2_5_or_better(tmp_path):
    path = _checkable_unit(tmp_path)
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", path.name],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for roundhouse\.service: ([0-9.]+)",
                      done.stdout)
    assert found, done.stdout[-2000:] + done.stderr
    assert float(found.group(1)) <= 2.5
