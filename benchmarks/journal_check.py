"""What the journal's start-up check costs.

    python benchmarks/journal_check.py
    sudo python benchmarks/journal_check.py --ready 100,1000 [--code DIR]

The first form times SQLite's `quick_check` against its `integrity_check` on journals of
1, 100 and 1,000 stored games (every stored game a copy of one game of 2,000 entries,
about 0.2 MB of journal per game).

The second builds journals of about 100 MB and 1 GB of played 13-round 4-seat games and
times `roundhouse run` -> READY after an unclean stop (a SIGKILL after the last READY),
with the files in the page cache (warm) and, run as root, with the page cache dropped
before each start (cold: `echo 3 > /proc/sys/vm/drop_caches`, the Python files read
from the disk as well). It does so twice: with every game in the journal, as an earlier
version kept them (and as the first start after upgrading finds them), and once the
service has moved the finished games into the archive; it also times that archiving,
and the archive's own check, which runs after READY. `--code DIR` starts the Roundhouse
checked out in DIR instead (an earlier version: it never archives, so only the first
figures are given).

Prints figures; it asserts nothing. The goal: READY within 2 s after an unclean stop
with a 1 GB history, warm or cold, with no damage missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service_start import config_file

from firmware_py.journal import Journal

RUNS = 5
GAME_ENTRIES = 2000


def build(path: Path, games: int) -> None:
    journal = Journal(path)
    meta = {"players": ["Ana", "Bo", "Cy", "Di"], "seats": [0, 1, 2, 3], "leader": 0,
            "preset": "tournament", "rules": "tournament", "hand_mode": "open"}
    first = journal.begin_game(meta)
    for k in range(GAME_ENTRIES):
        move = {"seat": k % 4, "play": f"{k % 13}-{(k * 7) % 13}", "on": str(k % 4)}
        journal.append(first, {"t": "action", "action": move})
    journal.finish_game(first, {"ranking": [0, 1, 2, 3], "totals": [1, 2, 3, 4],
                                "winner": "Ana", "abandoned": False})
    journal.close()
    db = sqlite3.connect(path)
    with db:
        for game in range(2, games + 1):
            db.execute("INSERT INTO games (id, started, meta, finished, result) "
                       "SELECT ?, started, meta, finished, result FROM games WHERE id = 1",
                       (game,))
            db.execute("INSERT INTO entries (game_id, seq, at, entry) "
                       "SELECT ?, seq, at, entry FROM entries WHERE game_id = 1", (game,))
    db.close()


def timed(path: Path, pragma: str) -> list[float]:
    times = []
    for _ in range(RUNS):
        db = sqlite3.connect(path)
        start = time.perf_counter()
        verdict = db.execute(f"PRAGMA {pragma}").fetchone()[0]
        times.append(time.perf_counter() - start)
        db.close()
        assert verdict == "ok", verdict
    return times


def decode_all(path: Path) -> float:
    db = sqlite3.connect(path)
    start = time.perf_counter()
    for (text,) in db.execute("SELECT entry FROM entries"):
        json.loads(text)
    took = time.perf_counter() - start
    db.close()
    return took


def table(tmp: str, rows: tuple[int, ...]) -> None:
    print(f"{'games':>6} {'MB':>7} {'quick_check':>22} {'integrity_check':>22} "
          f"{'decode every entry':>19}")
    for games in rows:
        path = Path(tmp) / f"journal-{games}.db"
        build(path, games)
        size = path.stat().st_size / 1e6
        quick = timed(path, "quick_check")
        full = timed(path, "integrity_check")
        print(f"{games:>6} {size:>7.1f} "
              f"{statistics.median(quick) * 1000:>9.0f} ms (worst {max(quick) * 1000:>4.0f})"
              f"{statistics.median(full) * 1000:>9.0f} ms (worst {max(full) * 1000:>4.0f})"
              f"{decode_all(path) * 1000:>16.0f} ms")
        path.unlink()


# --- roundhouse run -> READY after an unclean stop --------------------------------------


def can_drop_caches() -> bool:
    return os.access("/proc/sys/vm/drop_caches", os.W_OK)


def drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def history(folder: Path, played: Path, megabytes: int) -> Path:
    """A table's folder whose journal holds copies of the played game, about `megabytes`
    of them, the newest being played (the power went out during it)."""
    target = folder / f"history-{megabytes}"
    target.mkdir()
    shutil.copy(played, target / "table.db")
    db = sqlite3.connect(target / "table.db")
    with db:
        while (db.execute("PRAGMA page_count").fetchone()[0] * 4096
               < megabytes * 1_000_000):
            for _ in range(50):
                game_id = db.execute("INSERT INTO games (started, meta, finished, result) "
                                     "SELECT started, meta, finished, result FROM games "
                                     "WHERE id = 1").lastrowid
                db.execute("INSERT INTO entries SELECT ?, seq, at, entry FROM entries "
                           "WHERE game_id = 1", (game_id,))
        # The newest game is the one being played: a start replays it whole.
        db.execute("UPDATE games SET finished = NULL, result = NULL "
                   "WHERE id = (SELECT MAX(id) FROM games)")
    db.close()
    return target


def start(folder: Path, code: Path | None) -> tuple[subprocess.Popen[bytes], float]:
    """`roundhouse run` as systemd starts it; returns it with seconds until READY."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = folder / "notify"
    path.unlink(missing_ok=True)
    notify.bind(str(path))
    notify.settimeout(300)
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "firmware_py.cli", "run", "--config",
                             str(config_file(folder))], env=env, cwd=folder,
                            stderr=subprocess.DEVNULL)
    try:
        while not notify.recv(4096).startswith(b"READY=1"):
            pass
    finally:
        notify.close()
    return proc, time.perf_counter() - began


def kill(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)


def unclean_starts(folder: Path, code: Path | None, runs: int,
                   cold: bool) -> list[float]:
    """READY after an unclean stop, each start killed once READY."""
    times = []
    for _ in range(runs):
        if cold:
            drop_caches()
        proc, took = start(folder, code)
        kill(proc)
        times.append(took)
        assert (folder / "table.db-wal").exists()
    return times


def live_games(db: Path) -> int:
    raw = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(raw.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        raw.close()


def archive(folder: Path) -> float:
    """Seconds from READY until the service has moved every finished game out."""
    proc, _ = start(folder, None)
    began = time.perf_counter()
    while live_games(folder / "table.db") > 1:
        time.sleep(0.5)
    took = time.perf_counter() - began
    proc.terminate()
    proc.wait(60)
    return took


def appends_while_archiving(folder: Path) -> tuple[list[float], list[float], float]:
    """A press's journal write (one append, fsync'd) on a copy of the journal: alone, and
    while the archiving moves the finished games out; and how long that took."""
    copy = folder / "appends"
    copy.mkdir()
    shutil.copy(folder / "table.db", copy / "table.db")
    journal = Journal(copy / "table.db")
    game = journal.begin_game({"players": ["Ana", "Bo"], "preset": "classic"})

    def press(n: int) -> float:
        began = time.perf_counter()
        journal.append(game, {"t": "action", "action": {"seat": n % 2, "draw": True}})
        return time.perf_counter() - began

    alone = [press(n) for n in range(100)]
    busy = []
    began = time.perf_counter()
    journal.start_archiving()
    while not journal.archived.is_set():
        busy.append(press(len(busy)))
        time.sleep(0.05)  # a busy table: twenty presses a second
    took = time.perf_counter() - began
    journal.close()
    shutil.rmtree(copy)
    return alone, busy, took


def archive_check(folder: Path, cold: bool) -> float:
    """The check the archiving runs after READY: the archive opened for writing."""
    if cold:
        drop_caches()
    began = time.perf_counter()
    Journal(folder / "table.db.archive", archive=False).close()
    return time.perf_counter() - began


def starts(folder: Path, code: Path | None, runs: int, cold: bool) -> None:
    for drop in (False, True) if cold else (False,):
        times = unclean_starts(folder, code, runs, drop)
        print(f"  READY after an unclean stop, {'cold' if drop else 'warm'} {_ms(times)}")


def _ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:>7.0f} ms (worst {max(times) * 1000:>6.0f})"


def ready(tmp: str, sizes: tuple[int, ...], code: Path | None, runs: int) -> None:
    from service_start import played_game

    cold = can_drop_caches()
    if not cold:
        print("(not root: the page cache cannot be dropped, warm starts only)")
    played = played_game(Path(tmp))
    for megabytes in sizes:
        folder = history(Path(tmp), played, megabytes)
        size = sum(f.stat().st_size for f in folder.glob("table.db*")) / 1e6
        games = live_games(folder / "table.db")
        proc, _ = start(folder, code)  # the unclean stop the figures start after
        kill(proc)
        print(f"{games} games, {size:.0f} MB, every game in the journal:")
        starts(folder, code, runs, cold)
        if code is not None:
            shutil.rmtree(folder)
            continue
        alone, busy, took = appends_while_archiving(folder)
        print(f"  a press's journal write alone {_ms(alone)}, while archiving {_ms(busy)} "
              f"({len(busy)} presses; the archiving took {took:.1f} s)")
        print(f"  the service's archiving, after READY: {archive(folder):.1f} s")
        live = (folder / "table.db").stat().st_size / 1e6
        kept = (folder / "table.db.archive").stat().st_size / 1e6
        print(f"finished games archived (journal {live:.1f} MB, archive {kept:.0f} MB):")
        proc, _ = start(folder, code)
        kill(proc)
        starts(folder, code, runs, cold)
        archive_check(folder, False)  # into the page cache the cold starts emptied
        warm = [archive_check(folder, False) for _ in range(runs)]
        print(f"  the archive's check after READY, warm {_ms(warm)}")
        if cold:
            print(f"  the archive's check after READY, cold "
                  f"{_ms([archive_check(folder, True) for _ in range(runs)])}")
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ready", help="sizes in MB, e.g. 100,1000: time READY instead")
    parser.add_argument("--code", type=Path, help="the Roundhouse checkout to start")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="roundhouse-bench-") as tmp:
        if args.ready:
            ready(tmp, tuple(int(n) for n in args.ready.split(",")), args.code, args.runs)
        else:
            table(tmp, (1, 100, 1000))


if __name__ == "__main__":
    main()
