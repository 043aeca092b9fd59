"""How fast the table service is up, how fast it resumes a game, what it costs idle, and
that neither grows with the games the journal keeps.

    python benchmarks/service_start.py

Prints figures; it asserts nothing. The goals on a CI-class machine:

- `roundhouse run` started -> READY sent to systemd: under 1.5 s (Python's own start,
  imports, journal, tag registry, seat buttons on mock pins, five readers, view socket),
  the same with 1, 100 or 1,000 games stored (every start runs the full integrity
  check, which reads the whole file: benchmarks/journal_check.py times it alone);
- resuming a 13-round game from its journal: under 200 ms (the snapshot written at its
  last round's end read and checked, the entries after it replayed through the engine,
  the first view ready for the screens), the same with 1, 100 or 1,000 games stored.
  Three cases: the game cut in the middle of its last round (the snapshot of round 12's
  end and half a round after it), the game at its end (its result taken back: the
  snapshot of its last move, nothing after it), and every entry replayed (the snapshot
  removed: how a journal of an older version, or a snapshot in doubt, resumes);
- an idle service: under 1% of one core, measured over 10 s.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from service_latency import play, table_config

from firmware_py import daemon, table
from firmware_py.config import example_config
from firmware_py.daemon import Service
from firmware_py.entries import Undo, entry_from_json
from firmware_py.game import Game
from firmware_py.journal import Journal, snapshot_digest
from firmware_py.notify import Notifier
from firmware_py.snapshots import ends_round, snapshot_text

STARTS = 5
IDLE_S = 10.0


def config_file(folder: Path) -> Path:
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
                             str(config_file(folder))], env=env, cwd=folder,
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


STORED = (1, 100, 1000)
SEATS = 4  # the simulated table's


def played_game(folder: Path) -> Path:
    """A journal holding one finished 13-round game of the simulated table's seats."""
    game = folder / "played"
    game.mkdir()
    config = table_config(SEATS, "tournament", game)
    service = Service(config, attach_hardware=False, notifier=Notifier({}))
    service.start()
    try:
        play(service)
    finally:
        service.stop()
    return config.database


def stored(folder: Path, played: Path, games: int) -> tuple[Path, int]:
    """A folder whose journal holds `games` copies of the played game; and how many
    journal entries one game has."""
    target = folder / f"stored-{games}"
    target.mkdir()
    shutil.copy(played, target / "table.db")
    db = sqlite3.connect(target / "table.db")
    with db:
        for _ in range(games - 1):
            game_id = db.execute("INSERT INTO games (started, meta, finished, result) "
                                 "SELECT started, meta, finished, result FROM games "
                                 "WHERE id = 1").lastrowid
            db.execute("INSERT INTO entries SELECT ?, seq, at, entry FROM entries "
                       "WHERE game_id = 1", (game_id,))
            db.execute("INSERT INTO snapshots SELECT ?, seq, at, digest, snapshot "
                       "FROM snapshots WHERE game_id = 1", (game_id,))
    entries = db.execute("SELECT COUNT(*) FROM entries WHERE game_id = 1").fetchone()[0]
    db.close()
    return target, int(entries)


def archived(folder: Path) -> None:
    """Move the finished games of `folder`'s journal but the newest into its archive, as
    a service that has run since the archive came does after READY."""
    journal = Journal(folder / "table.db")
    try:
        journal.archive_finished()
    finally:
        journal.close()


def ready_times(folder: Path) -> tuple[list[float], float]:
    """READY after clean stops, and READY after a SIGKILL (the full check runs)."""
    times = []
    for _ in range(STARTS):
        proc, notify, took = _start(folder)
        times.append(took)
        _stop(proc, notify)
    proc, notify, _ = _start(folder)
    proc.kill()
    proc.wait(15)
    notify.close()
    proc, notify, unclean = _start(folder)
    _stop(proc, notify)
    return times, unclean


RESUMES = ("mid-round", "at the end", "every entry")


@contextlib.contextmanager
def _timed(module: Any, name: str, into: list[float]) -> Iterator[None]:
    """`module.name` (a class) timed while it makes its object."""
    real = getattr(module, name)

    def making(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            into.append(time.perf_counter() - started)

    setattr(module, name, making)
    try:
        yield
    finally:
        setattr(module, name, real)


def cut_in_last_round(db: sqlite3.Connection, game_id: int) -> None:
    """The game as the table leaves it when it stops in the middle of its last round:
    the entries after that point gone, the snapshot the end of the round before wrote."""
    meta = json.loads(db.execute("SELECT meta FROM games WHERE id = ?",
                                 (game_id,)).fetchone()[0])
    texts = [r[0] for r in db.execute("SELECT entry FROM entries WHERE game_id = ? "
                                      "ORDER BY seq", (game_id,))]
    game = Game.from_meta(meta)
    history, ends = [game.opening()], []
    for number, text in enumerate(texts, 1):
        entry = entry_from_json(json.loads(text))
        if isinstance(entry, Undo):
            history.pop()
            continue
        history.append(game.advance(history[-1], entry))
        if ends_round(history[-2], history[-1]):
            ends.append(number)
    last = ends[-2]
    moments = game.replay([json.loads(t) for t in texts[:last]])
    snapshot = snapshot_text(game, moments[-1], len(moments) - 1)
    db.execute("DELETE FROM entries WHERE game_id = ? AND seq > ?",
               (game_id, (last + ends[-1]) // 2))
    db.execute("UPDATE snapshots SET seq = ?, digest = ?, snapshot = ? WHERE game_id = ?",
               (last, snapshot_digest(texts[:last], snapshot), snapshot, game_id))


def resume_times(folder: Path, how: str = "mid-round",
                 parts: dict[str, list[float]] | None = None) -> list[float]:
    """Service start with the newest game opened again (`how`: one of `RESUMES`);
    `parts` gets the times of its two largest steps: "journal" (opening and checking
    the journal, every start's integrity check and decoding included) and "table" (the
    table taking the game up: snapshot, entries after it, the first moment)."""
    times = []
    parts = {} if parts is None else parts
    for name in ("journal", "table"):
        parts.setdefault(name, [])
    for run in range(STARTS):
        copy = folder / f"resume-{run}"
        copy.mkdir()
        shutil.copy(folder / "table.db", copy / "table.db")
        db = sqlite3.connect(copy / "table.db")
        with db:
            game_id = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?",
                       (game_id,))
            if how == "mid-round":
                cut_in_last_round(db, game_id)
            elif how == "every entry":
                db.execute("DELETE FROM snapshots")
        db.close()
        service = Service(table_config(SEATS, "tournament", copy), attach_hardware=False,
                          notifier=Notifier({}))
        with _timed(daemon, "Journal", parts["journal"]), _timed(table, "Table", parts["table"]):
            started = time.perf_counter()
            service.start()
            times.append(time.perf_counter() - started)
        view = service.table.view()
        service.stop()
        assert view.phase == ("play" if how == "mid-round" else "game_over"), view.phase
        shutil.rmtree(copy)
    return times


def idle(folder: Path) -> None:
    proc, notify, _ = _start(folder)
    time.sleep(1.0)  # let the readers settle into their idle loops
    before, clock = _cpu_s(proc.pid), time.perf_counter()
    time.sleep(IDLE_S)
    used, spent = _cpu_s(proc.pid) - before, time.perf_counter() - clock
    _stop(proc, notify)
    print(f"idle service over {spent:.0f} s: {used * 1000:.0f} ms of CPU = "
          f"{100 * used / spent:.2f}% of one core")


def _ms(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="roundhouse-bench-") as name:
        folder = Path(name)
        played = played_game(folder)
        last = folder
        for games in STORED:
            last, entries = stored(folder, played, games)
            size = (last / "table.db").stat().st_size / 1e6
            ready, unclean = ready_times(last)
            print(f"{games:>5} games stored ({entries} entries each, {size:.1f} MB): "
                  f"roundhouse run -> READY {_ms(ready)} ({STARTS} starts); after a "
                  f"SIGKILL (full check) {unclean * 1000:.0f} ms")
            for how in RESUMES:
                parts: dict[str, list[float]] = {}
                total = resume_times(last, how, parts)
                print(f"{'':>5} resume a 13-round {SEATS}-seat game, {how}: {_ms(total)} "
                      f"(journal opened {_ms(parts['journal'])}; the table taking the "
                      f"game up {_ms(parts['table'])})")
        idle(last)


if __name__ == "__main__":
    main()
