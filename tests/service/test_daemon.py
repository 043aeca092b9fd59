"""The service: the view socket, the controller loop, signals, the systemd unit."""

import configparser
import contextlib
import dataclasses
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.daemon import Service, ServiceError, ViewPublisher
from firmware_py.notify import Notifier
from hardware.events import (
    Button,
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ReaderOffline,
    TagPlaced,
    TagRemoved,
)
from roundhouse.view import View

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "roundhouse.service"


class ViewReader:
    """A screen on the view socket: reads newline-delimited JSON views."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
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


SAMPLE = View.from_json(json.loads((ROOT / "tests" / "views" / "play_4.json").read_text()))


def sample(**fields) -> View:
    """A view to publish, numbered by its round (`n`), `padding` making it large."""
    n, padding = fields.get("n", 0), fields.get("padding", "")
    return dataclasses.replace(SAMPLE, round=n, preset=SAMPLE.preset + padding)


@pytest.fixture
def publisher(tmp_path):
    pub = ViewPublisher(tmp_path / "run" / "view.sock")
    pub.start()
    yield pub
    pub.close()


def test_a_new_screen_gets_the_latest_view_then_every_new_one(publisher):
    publisher.publish(sample(n=1))
    publisher.publish(sample(n=2))
    screen = ViewReader(publisher.path)
    first = screen.next()
    assert (first["round"], first["seq"]) == (2, 2)
    assert first == sample(n=2).to_json() | {"seq": 2}
    assert publisher.publish(sample(n=3)) == 3
    assert screen.next()["seq"] == 3
    screen.close()


def test_every_screen_that_keeps_up_sees_every_view(publisher):
    publisher.publish(sample(n=0))
    screens = [ViewReader(publisher.path) for _ in range(5)]
    for screen in screens:
        assert screen.next()["seq"] == 1
    for n in range(1, 40):
        publisher.publish(sample(n=n))
    for screen in screens:
        assert [v["round"] for v in screen.until(40)] == list(range(1, 40))
        screen.close()


def test_a_stalled_screen_skips_to_the_latest_view(publisher):
    stalled = ViewReader(publisher.path)
    live = ViewReader(publisher.path)
    padding = "x" * 20_000
    # Far more than the socket buffers hold: publish must never wait for the screen.
    for n in range(1, 401):
        publisher.publish(sample(n=n, padding=padding))
        assert live.next()["round"] == n
    seen = [v["round"] for v in stalled.until(400)]
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
        publisher.publish(sample(n=n))
    assert staying.until(50)[-1]["round"] == 49
    rude.close()
    staying.close()


def test_a_socket_left_by_a_killed_service_is_replaced(tmp_path):
    path = tmp_path / "view.sock"
    leftover = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    leftover.bind(str(path))
    leftover.close()
    pub = ViewPublisher(path)
    pub.start()
    pub.publish(sample(n=7))
    screen = ViewReader(path)
    assert screen.next()["round"] == 7
    screen.close()
    pub.close()
    assert not path.exists()


def test_a_second_service_does_not_steal_the_screens(publisher):
    screen = ViewReader(publisher.path)
    with pytest.raises(ServiceError, match="another service is serving views there"):
        ViewPublisher(publisher.path).start()
    publisher.publish(sample(n=8))
    assert screen.next()["round"] == 8
    screen.close()


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


# --- the service ------------------------------------------------------------------------


class NotifyListener:
    """systemd's side of the notify protocol: a datagram socket."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(10)

    def until(self, wanted: str) -> list[str]:
        got = []
        while wanted not in got:
            got.append(self.sock.recv(4096).decode())
        return got

    def close(self) -> None:
        self.sock.close()


def sim_config(tmp_path: Path, **changes):
    from firmware_py.config import example_config, load_config

    paths = {"database": tmp_path / "t.db", "socket": tmp_path / "view.sock"}
    return dataclasses.replace(load_config(example_config("sim")), **{**paths, **changes})


def joined(view: dict) -> list[bool]:
    return [s["joined"] for s in view["seats"]]


def first_view(screen: ViewReader, wanted) -> dict:
    """The first view the screen is shown that satisfies `wanted`."""
    view = screen.next()
    while not wanted(view):
        view = screen.next()
    return view


def press(service, seat: int, button: Button = Button.DRAW) -> None:
    service.events.put(ButtonPressed(seat, button))
    service.events.put(ButtonReleased(seat, button))


def test_service_serves_the_table_and_tells_systemd(tmp_path):
    listener = NotifyListener(tmp_path / "notify")
    notifier = Notifier({"NOTIFY_SOCKET": str(listener.path)})
    service = Service(sim_config(tmp_path), attach_hardware=False, notifier=notifier)
    service.start()
    assert listener.until("READY=1\nSTATUS=serving 4 seats on " + str(tmp_path / "view.sock"))
    screen = ViewReader(tmp_path / "view.sock")
    first = screen.next()
    assert first["phase"] == "lobby" and first["seq"] == 1
    assert [s["joined"] for s in first["seats"]] == [False] * 4

    press(service, 0)
    press(service, 2)
    first_view(screen, lambda v: joined(v) == [True, False, True, False])

    service.stop()
    assert listener.until("STOPPING=1")
    assert not (tmp_path / "view.sock").exists()
    screen.close()
    listener.close()


def test_bad_input_from_outside_is_rejected_calmly(tmp_path):
    service = Service(sim_config(tmp_path), attach_hardware=False)
    service.start()
    screen = ViewReader(tmp_path / "view.sock")
    screen.next()
    for event in (TagPlaced("0", "DEADBEEF00"), TagRemoved("0", "DEADBEEF00"),
                  TagPlaced("7", "not hex at all"), ButtonPressed(42, Button.DRAW),
                  ButtonReleased(42, Button.DRAW), ButtonHeld(-1, Button.PASS),
                  ReaderOffline("mexican", "unplugged"), ButtonReleased(3, Button.PASS)):
        service.events.put(event)
    press(service, 1)
    view = first_view(screen, lambda v: any(joined(v)))
    assert not service.finished.is_set()
    assert joined(view) == [False, True, False, False]
    service.stop()
    screen.close()


def test_a_game_resumes_after_a_restart(tmp_path):
    service = Service(sim_config(tmp_path), attach_hardware=False)
    service.start()
    screen = ViewReader(tmp_path / "view.sock")
    screen.next()
    press(service, 0)
    press(service, 1)
    for event in (ButtonPressed, ButtonHeld, ButtonReleased):
        service.events.put(event(0, Button.DRAW))
    before = first_view(screen, lambda v: v["phase"] != "lobby")
    service.stop()
    screen.close()

    again = Service(sim_config(tmp_path), attach_hardware=False)
    again.start()
    screen = ViewReader(tmp_path / "view.sock")
    resumed = screen.next()
    assert {k: v for k, v in resumed.items() if k != "seq"} == {
        k: v for k, v in before.items() if k != "seq"}
    again.stop()
    screen.close()


def test_a_start_that_fails_closes_what_it_opened(tmp_path):
    from firmware_py.journal import Journal

    Journal(tmp_path / "t.db").close()  # a journal of earlier starts: kept
    (tmp_path / "view.sock").write_text("not a socket")
    service = Service(sim_config(tmp_path), attach_hardware=False)
    with pytest.raises(ServiceError, match="is not a socket"):
        service.start()
    assert (tmp_path / "t.db").exists()
    # Journal and registry closed: SQLite folded the write-ahead log back into the file.
    assert not (tmp_path / "t.db-wal").exists()


def test_watchdog_pings_come_from_the_controller_loop(tmp_path):
    listener = NotifyListener(tmp_path / "notify")
    notifier = Notifier({"NOTIFY_SOCKET": str(listener.path), "WATCHDOG_USEC": "100000"})
    service = Service(sim_config(tmp_path, watchdog=True), attach_hardware=False,
                      notifier=notifier)
    service.start()
    assert listener.until("WATCHDOG=1").count("WATCHDOG=1") == 1
    assert listener.until("WATCHDOG=1")[-1] == "WATCHDOG=1"
    service.table.handle = None  # the next event breaks the loop: no more pings
    press(service, 0)
    assert service.finished.wait(5)
    assert isinstance(service.failure, TypeError)
    # Pings the loop sent before it broke may still wait to be read; none may follow.
    listener.sock.setblocking(False)
    with contextlib.suppress(BlockingIOError):
        while True:
            listener.sock.recv(4096)
    listener.sock.settimeout(0.3)
    with pytest.raises(TimeoutError):
        listener.until("WATCHDOG=1")
    service.stop()
    listener.close()


def test_no_watchdog_pings_when_the_configuration_turns_them_off(tmp_path):
    listener = NotifyListener(tmp_path / "notify")
    notifier = Notifier({"NOTIFY_SOCKET": str(listener.path), "WATCHDOG_USEC": "100000"})
    service = Service(sim_config(tmp_path, watchdog=False), attach_hardware=False,
                      notifier=notifier)
    service.start()
    listener.until("READY=1\nSTATUS=serving 4 seats on " + str(tmp_path / "view.sock"))
    listener.sock.settimeout(0.3)
    with pytest.raises(TimeoutError):
        listener.until("WATCHDOG=1")
    service.stop()
    listener.close()


# --- `roundhouse run` ---------------------------------------------------------------------


def write_config(tmp_path: Path, replace: dict[str, str] | None = None) -> Path:
    from firmware_py.config import example_config

    text = example_config("sim").read_text()
    text = text.replace('database = "~/.local/state/roundhouse/sim.db"', 'database = "t.db"')
    text = text.replace('socket = "~/.local/state/roundhouse/sim.sock"',
                        'socket = "view.sock"')
    for old, new in (replace or {}).items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def run(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "firmware_py.cli", "run", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, cwd=tmp_path)


def test_run_on_real_adapters_until_sigterm(tmp_path):
    config = write_config(tmp_path, {"watchdog = false": "watchdog = true"})
    listener = NotifyListener(tmp_path / "notify")
    proc = run(tmp_path, "--config", str(config),
               env={"NOTIFY_SOCKET": str(listener.path), "WATCHDOG_USEC": "2000000"})
    try:
        assert listener.until("READY=1\nSTATUS=serving 4 seats on "
                              + str(tmp_path / "view.sock"))
        screen = ViewReader(tmp_path / "view.sock")
        assert screen.next()["phase"] == "lobby"
        assert listener.until("WATCHDOG=1")
        proc.send_signal(signal.SIGTERM)
        assert listener.until("STOPPING=1")
        assert proc.wait(10) == 0, proc.stderr.read() if proc.stderr else ""
        screen.close()
    finally:
        proc.kill()
        listener.close()
    assert not (tmp_path / "view.sock").exists()
    # Every connection closed: SQLite folded the write-ahead log back into the file.
    assert not (tmp_path / "t.db-wal").exists()


def test_run_refuses_a_broken_configuration_with_the_same_messages(tmp_path, capsys):
    from firmware_py.cli import main

    config = write_config(tmp_path, {"draw_pin = 13": "draw_pin = 40",
                                     'protocol = "rdm6300"': 'protocol = "morse"'})
    proc = run(tmp_path, "--config", str(config))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert main(["check-config", str(config)]) == 2
    assert err == capsys.readouterr().err
    assert f"{config}: seats[2].draw_pin: expected a BCM pin 2..27, got 40" in err
    assert not (tmp_path / "t.db").exists()


def test_run_refuses_a_foreign_database_until_told_to_move_it_aside(tmp_path):
    config = write_config(tmp_path)
    (tmp_path / "t.db").write_bytes(b"PK\x03\x04 a zip file, not a journal" * 100)
    proc = run(tmp_path, "--config", str(config))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "unreadable database" in err and "--move-aside" in err
    assert "Traceback" not in err

    listener = NotifyListener(tmp_path / "notify")
    proc = run(tmp_path, "--config", str(config), "--move-aside",
               env={"NOTIFY_SOCKET": str(listener.path)})
    try:
        listener.until("READY=1\nSTATUS=serving 4 seats on " + str(tmp_path / "view.sock"))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        proc.kill()
        listener.close()
    [moved] = tmp_path.glob("t.db.broken-*")
    assert moved.read_bytes().startswith(b"PK\x03\x04")


def test_stopping_releases_the_pin_factory_it_made(tmp_path, monkeypatch):
    # On a Pi the factory holds the GPIO chip open: a restarted service could not claim
    # the seat buttons again if the stopped one kept it.
    import hardware.buttons

    made = []
    real = hardware.buttons.make_pin_factory

    def spy(name):
        factory = real(name)
        made.append(factory)
        closes = []
        original_close = factory.close

        def close():
            closes.append(True)
            original_close()

        factory.close = close
        factory.closes = closes
        return factory

    monkeypatch.setattr(hardware.buttons, "make_pin_factory", spy)
    service = Service(sim_config(tmp_path, pin_factory="mock"))
    service.start()
    assert len(made) == 1 and made[0].closes == []
    service.stop()
    assert made[0].closes == [True]


def test_a_pis_configuration_on_a_laptop_says_how_to_try_it_and_leaves_nothing(tmp_path):
    import importlib.util

    if importlib.util.find_spec("lgpio") is not None:
        pytest.skip("lgpio is installed here: this is a Pi")
    from firmware_py.config import example_config

    text = example_config("table-4").read_text()
    text = re.sub(r"^database = .*$", 'database = "state/t.db"', text, flags=re.M)
    text = re.sub(r"^socket = .*$", 'socket = "run/view.sock"', text, flags=re.M)
    (tmp_path / "t4.toml").write_text(text)
    proc = run(tmp_path, "--config", str(tmp_path / "t4.toml"))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "lgpio" in err and "roundhouse sim" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t4.toml"]


def test_a_start_that_fails_leaves_no_journal_it_made(tmp_path):
    from firmware_py.daemon import Service, ServiceError, ViewPublisher

    config = sim_config(tmp_path)
    other = ViewPublisher(config.socket)  # another service serves views there
    other.start()
    try:
        with pytest.raises(ServiceError, match="another service is serving views there"):
            Service(config, attach_hardware=False).start()
    finally:
        other.close()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("t.db")]


def test_run_collects_no_cycles_until_ready_then_collects_again(tmp_path, monkeypatch):
    """No pass of the cyclic collector from the command's import up to READY; from then
    on it runs again, with what the start left alive frozen out of its passes. Left
    paused, a service that runs for weeks would never free a cycle."""
    import gc

    from firmware_py.cli import main

    seen: dict[str, object] = {}
    start, stop = Service.start, Service.stop

    def starting(service: Service) -> None:
        seen["paused while starting"] = not gc.isenabled()
        start(service)
        service.finished.set()  # stop as soon as the start is done

    def stopping(service: Service) -> None:
        seen["collecting once started"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()
        stop(service)

    monkeypatch.setattr(Service, "start", starting)
    monkeypatch.setattr(Service, "stop", stopping)
    monkeypatch.setattr(signal, "signal", lambda *_: None)
    frozen_before = gc.get_freeze_count()
    try:
        assert main(["run", "--config", str(write_config(tmp_path))]) == 0
        assert seen["paused while starting"] and seen["collecting once started"]
        assert seen["frozen"] > frozen_before  # type: ignore[operator]
        assert gc.isenabled()
    finally:
        gc.unfreeze()  # this test process goes on
        gc.enable()


def test_run_stops_for_good_on_a_busy_button_pin_and_names_it(tmp_path, monkeypatch, capsys):
    # Status 2 is the unit's RestartPreventExitStatus: restarting cannot free the pin.
    import hardware.buttons
    from firmware_py.cli import main
    from hardware.fake_pins import FakePinFactory

    monkeypatch.setattr(hardware.buttons, "make_pin_factory",
                        lambda name: FakePinFactory(busy={4}))
    monkeypatch.setattr(signal, "signal", lambda *_: None)
    config = write_config(tmp_path)
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "seat 0 draw button on GPIO4 cannot be claimed: GPIO busy" in err
    assert "Traceback" not in err
    assert "RestartPreventExitStatus=2" in UNIT.read_text()
