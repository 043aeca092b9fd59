"""How fast the table service is up, how fast it resumes a long game, what it costs idle.

    python benchmarks/service_start.py

Prints figures; it asserts nothing. The goals on a CI-class machine:

- `roundhouse run` started -> READY sent to systemd: under 1.5 s (Python's own start,
  imports, journal, tag registry, seat buttons on mock pins, five readers, view socket);
- resuming a finished 13-round 8-seat game from its journal: under 200 ms (the whole
  journal replayed through the engine, the first view ready for the screens);
- an idle service: under 1% of one core, measured over 10 s.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service_latency import play, table_config

from firmware_py.config import example_config
from firmware_py.daemon import Service
from firmware_py.notify import Notifier

STARTS = 5
IDLE_S = 10.0


def _config_file(folder: Path) -> Path:
    """The shipped simulated table (mock pins, loop:// readers) with its files in `folder`."""
    text = example_config("sim").read_text(encoding="utf-8")
    text = text.replace('"~/.local/state/roundhouse/sim.db"', '"table.db"')
    text = text.replace('"~/.local/state/roundhouse/sim.sock"', '"view.sock"')
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _start(folder: Path) -> tuple[subprocess.Popen[bytes], socket.socket, float]:
    """`roundhouse run` as systemd starts it; returns it with seconds until READY."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = folder / "notify"
    path.unlink(missing_ok=True)
    notify.bind(str(path))
    notify.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "firmware_py.cli", "run", "--config",
                             str(_config_file(folder))], env=env, cwd=folder,
                            stderr=subprocess.DEVNULL)
    while not notify.recv(4096).startswith(b"READY=1"):
        pass
    return proc, notify, time.perf_counter() - started


def _stop(proc: subprocess.Popen[bytes], notify: socket.socket) -> None:
    proc.terminate()
    proc.wait(15)
    notify.close()


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_and_idle(folder: Path) -> None:
    times = []
    for _ in range(STARTS):
        proc, notify, took = _start(folder)
        times.append(took)
        _stop(proc, notify)
    print(f"roundhouse run -> READY ({STARTS} starts, simulated table): "
          f"median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms")

    proc, notify, _ = _start(folder)
    time.sleep(1.0)  # let the readers settle into their idle loops
    before, clock = _cpu_s(proc.pid), time.perf_counter()
    time.sleep(IDLE_S)
    used, spent = _cpu_s(proc.pid) - before, time.perf_counter() - clock
    _stop(proc, notify)
    print(f"idle service over {spent:.0f} s: {used * 1000:.0f} ms of CPU = "
          f"{100 * used / spent:.2f}% of one core")


def resume(folder: Path) -> None:
    game = folder / "game"
    game.mkdir()
    config = table_config(8, "tournament", game)
    service = Service(config, attach_hardware=False, notifier=Notifier({}))
    service.start()
    try:
        play(service)
    finally:
        service.stop()
    db = sqlite3.connect(config.database)
    totals, entries = db.execute(
        "SELECT json_extract(result, '$.totals'), COUNT(*) FROM games JOIN entries "
        "ON entries.game_id = games.id").fetchone()
    db.close()

    times = []
    for run in range(STARTS):
        copy = folder / f"resume-{run}"
        copy.mkdir()
        shutil.copy(config.database, copy / "table.db")
        # The finished game opened again: the service must replay all of it.
        db = sqlite3.connect(copy / "table.db")
        db.execute("UPDATE games SET finished = NULL, result = NULL")
        db.commit()
        db.close()
        service = Service(table_config(8, "tournament", copy), attach_hardware=False,
                          notifier=Notifier({}))
        started = time.perf_counter()
        service.start()
        times.append(time.perf_counter() - started)
        view = service.table.view()
        service.stop()
        assert view["phase"] == "game_over", view["phase"]
        assert len(view["scores"]) == 13, len(view["scores"])
    print(f"resume a finished 13-round 8-seat game ({entries} journal entries, totals "
          f"{totals}): median {statistics.median(times) * 1000:.0f} ms, "
          f"worst {max(times) * 1000:.0f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="roundhouse-bench-") as folder:
        start_and_idle(Path(folder))
        resume(Path(folder))


if __name__ == "__main__":
    main()
