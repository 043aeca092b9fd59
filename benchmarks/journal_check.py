"""What the journal's start-up check costs: SQLite's `quick_check` against its
`integrity_check`, on journals of 1, 100 and 1,000 stored games, with the file in the
page cache and (where the system lets us drop it) read from the disk.

    python benchmarks/journal_check.py

Prints figures; it asserts nothing. Every stored game is a copy of one 13-round 4-seat
tournament game of about 2,000 entries (about 0.2 MB of journal per game). The goal:
the check that runs at every start of `roundhouse run` keeps READY under 1.5 s on a
Raspberry Pi with 100 games stored (a year of evenings at one table), so it must take
under 0.5 s here, where the Pi is three to five times slower.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

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


def main() -> None:
    print(f"{'games':>6} {'MB':>7} {'quick_check':>22} {'integrity_check':>22} "
          f"{'decode every entry':>19}")
    with tempfile.TemporaryDirectory() as tmp:
        for games in (1, 100, 1000):
            path = Path(tmp) / f"journal-{games}.db"
            build(path, games)
            size = path.stat().st_size / 1e6
            quick = timed(path, "quick_check")
            full = timed(path, "integrity_check")
            print(f"{games:>6} {size:>7.1f} "
                  f"{statistics.median(quick) * 1000:>9.0f} ms (worst {max(quick) * 1000:>4.0f})"
                  f"{statistics.median(full) * 1000:>9.0f} ms (worst {max(full) * 1000:>4.0f})"
                  f"{decode_all(path) * 1000:>16.0f} ms")


if __name__ == "__main__":
    main()
