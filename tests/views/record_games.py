"""Records the views of whole simulated games for the screens' tests (tests/views/games).

    python tests/views/record_games.py

Each file is one game on the simulated table (`roundhouse sim`: bots pressing buttons and
tapping tags, the service publishing), one view per line as the socket carried it,
gzipped: the sequences of views a screen really follows, in which a tile is laid, the
turn moves on, a double waits, a round ends. The tests draw them one after another.
"""

from __future__ import annotations

import argparse
import gzip
import json
import socket
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent / "games"
# (seats, rules, hand mode): a small table, an eight-seat one, a full one.
GAMES = ((2, "classic", "open"), (8, "classic", "open"), (14, "classic", "open"))
SEED = 5


class Listener(threading.Thread):
    """A screen on the view socket that keeps every line it is sent."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.lines: list[str] = []

    def run(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(1000):
            try:
                sock.connect(str(self.path))
                break
            except OSError:
                threading.Event().wait(0.01)
        with sock, sock.makefile("r", encoding="utf-8") as lines:
            for line in lines:
                self.lines.append(line.rstrip("\n"))


def record(seats: int, rules: str, hand_mode: str) -> list[str]:
    from firmware_py.simtable import _bots, sim_config, simulate

    args = argparse.Namespace(seats=seats, rules=rules, rounds=1, full=False,
                              hand_mode=hand_mode, db=None, socket=None)
    config, _ = sim_config(args)
    listener = Listener(config.socket)
    listener.start()
    simulate(config, _bots("random", seats), seed=SEED, games=1)
    listener.join(timeout=10)
    return listener.lines


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for seats, rules, hand_mode in GAMES:
        lines = record(seats, rules, hand_mode)
        path = HERE / f"{rules}_{seats}.jsonl.gz"
        # No time in the gzip header: a file changes only when its views do.
        with gzip.GzipFile(path, "wb", mtime=0) as out:
            out.write(("\n".join(lines) + "\n").encode("utf-8"))
        print(f"{path.name}: {len(lines)} views, {path.stat().st_size // 1024} KiB")
        json.loads(lines[-1])


if __name__ == "__main__":
    main()
