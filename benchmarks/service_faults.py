"""What the table service does at its limits: screens, file descriptors, a full disk.

    sudo python benchmarks/service_faults.py      # root: it mounts a tiny tmpfs

Prints figures; it asserts nothing.

- screens: `roundhouse run` under the unit's `LimitNOFILE`, screens connecting until one
  is refused: how many it holds, and that every one of them still gets the next view;
- file descriptors: the same service with only 16 descriptors to spare, 40 screens
  connecting: how many it serves, and that it goes on serving (EMFILE does not stop it);
- a full disk: the service's journal on a 512 KiB tmpfs, filled while a game is played:
  what the table shows for an input that finds no room, and after space is freed.
"""

from __future__ import annotations

import configparser
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "service"))

from faults import serve_with_few_files, tiny_disk  # noqa: E402
from service_start import config_file  # noqa: E402

from firmware_py.config import example_config, load_config  # noqa: E402
from firmware_py.daemon import Service  # noqa: E402
from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased  # noqa: E402


def _unit_nofile() -> int:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "systemd" / "roundhouse.service")
    return int(unit["Service"]["LimitNOFILE"].partition(":")[0])


def _run(folder: Path, nofile: int) -> subprocess.Popen[bytes]:
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(folder / "notify"))
    notify.settimeout(30)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen([sys.executable, "-m", "firmware_py.cli", "run", "--config",
                             str(config_file(folder))], cwd=folder, preexec_fn=limit,
                            env={**os.environ, "NOTIFY_SOCKET": str(folder / "notify")},
                            stderr=subprocess.PIPE)
    while not notify.recv(4096).startswith(b"READY=1"):
        pass
    notify.close()
    return proc


def _line(sock: socket.socket) -> dict[str, Any]:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return dict(json.loads(data.split(b"\n")[0])) if data else {}


def screens_held() -> None:
    nofile = _unit_nofile()
    with tempfile.TemporaryDirectory(prefix="roundhouse-faults-") as name:
        proc = _run(Path(name), nofile)
        screens: list[socket.socket] = []
        refusal: dict[str, Any] = {}
        while not refusal and len(screens) < nofile:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.connect(str(Path(name) / "view.sock"))
            first = _line(sock)
            if "refused" in first:
                refusal = first
                sock.close()
            else:
                screens.append(sock)
        fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
        served = len(screens)
        proc.terminate()
        proc.wait(15)
        for sock in screens:
            sock.close()
    print(f"screens under LimitNOFILE={nofile}: {served} held (service at {fds} open "
          f"descriptors), the next one refused: {refusal.get('refused')!r}")


def file_limit() -> None:
    import multiprocessing

    spare, wanted = 16, 40
    context = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="roundhouse-faults-") as name:
        folder = Path(name)
        ready = context.Event()
        child = context.Process(target=serve_with_few_files, args=(folder, spare, ready))
        child.start()
        ready.wait(30)
        screens = []
        for _ in range(wanted):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(str(folder / "view.sock"))
            sock.settimeout(3)
            screens.append(sock)
        time.sleep(2)
        served = 0
        for sock in screens:
            with contextlib.suppress(TimeoutError, json.JSONDecodeError):
                if _line(sock):
                    served += 1
        for sock in screens[:served]:
            sock.close()
        time.sleep(2)
        later = 0
        for sock in screens[served:]:
            with contextlib.suppress(TimeoutError, json.JSONDecodeError):
                if _line(sock):
                    later += 1
        alive = child.is_alive()
        child.kill()
        child.join()
        for sock in screens:
            sock.close()
    print(f"{spare} spare descriptors, {wanted} screens: {served} served at once, the rest "
          f"wait; {later} more served once those left; service alive: {alive}")


def full_disk() -> None:
    import dataclasses

    from firmware_py.notify import Notifier

    with tempfile.TemporaryDirectory(prefix="roundhouse-faults-") as name, \
            tiny_disk(Path(name) / "disk") as disk:
        config = dataclasses.replace(load_config(example_config("sim")),
                                     database=disk.path / "t.db",
                                     socket=Path(name) / "view.sock")
        service = Service(config, attach_hardware=False, notifier=Notifier({}))
        service.start()
        table = service.table
        for seat in (0, 1):
            table.handle(ButtonPressed(seat, Button.DRAW))
            table.handle(ButtonReleased(seat, Button.DRAW))
        for event in (ButtonPressed, ButtonHeld, ButtonReleased):
            table.handle(event(0, Button.DRAW))
        before = table.view()
        disk.fill()
        started = time.perf_counter()
        table.handle(ButtonPressed(0, Button.DRAW))
        table.handle(ButtonReleased(0, Button.DRAW))
        took = time.perf_counter() - started
        during = table.view()
        same = {k: v for k, v in during.items() if k != "rejection"} == {
            k: v for k, v in before.items() if k != "rejection"}
        disk.free()
        table.handle(ButtonPressed(0, Button.DRAW))
        table.handle(ButtonReleased(0, Button.DRAW))
        after = table.view()
        service.stop()
    print(f"full disk: the input is refused in {took * 1000:.1f} ms; the table shows "
          f"rejection {during['rejection']!r}, prompt {during['prompt']!r} (the game "
          f"unchanged: {same}); once freed the same press is taken (rejection "
          f"{after['rejection']!r}, prompt {after['prompt']!r})")


def main() -> None:
    screens_held()
    file_limit()
    if os.geteuid() == 0:
        full_disk()
    else:
        print("full disk: skipped (mounting a tmpfs needs root)")


if __name__ == "__main__":
    main()
