"""The long soak: `roundhouse sim` over every table size, preset and hand mode, then on
and on with new seeds, each game a fresh `roundhouse sim` process as a user runs it.

    python benchmarks/sim_soak.py [--minutes M] [--speed MOVES] [--rounds R] [--jobs J]

Prints one line per game that did not finish (with the command that plays it again),
then the figures: games played, games that failed, games per minute. The matrix comes
first (every size from 2 to 14 with each preset that deals it, both hand modes); the
rest of the time plays random tables with random seeds. Run it beside two CPU-heavy
processes to see the table under load (`python3 -c 'while True: pass' &`, twice).
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from firmware_py.rules import PRESETS

SIZES = range(2, 15)


def matrix() -> Iterator[tuple[int, str, str]]:
    for seats in SIZES:
        for name in sorted(PRESETS):
            if any(row[0] == seats for row in PRESETS[name].deal):
                for mode in ("open", "tracked"):
                    yield seats, name, mode


def random_tables(rng: random.Random) -> Iterator[tuple[int, str, str]]:
    tables = list(matrix())
    while True:
        yield rng.choice(tables)


def play(args: argparse.Namespace, seats: int, rules: str, mode: str, seed: int) -> str | None:
    """None if the game finished, else the command and what went wrong."""
    command = [
        sys.executable, "-m", "firmware_py.cli", "sim", "--headless", "--seats", str(seats),
        "--rules", rules, "--hand-mode", mode, "--rounds", str(args.rounds),
        "--speed", str(args.speed), "--seed", str(seed), "--bots", "random",
    ]
    folder = Path(tempfile.mkdtemp(prefix="sim-soak-"))
    try:
        done = subprocess.run(
            [*command, "--db", str(folder / "sim.db")], capture_output=True, text=True,
            timeout=args.timeout, cwd=folder,
        )
    except subprocess.TimeoutExpired:
        return f"{' '.join(command[2:])}: no end within {args.timeout:.0f} s"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode != 0 or " wins (" not in done.stdout:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["nothing"]
        return f"{' '.join(command[2:])}: exit {done.returncode}: {said[0]}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--speed", type=float, default=0, help="moves per second (0: flat out)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="games at once")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a game may take")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tables = itertools.chain(matrix(), random_tables(rng))
    end = time.monotonic() + args.minutes * 60
    played = failed = 0
    start = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        while time.monotonic() < end:
            batch = [(*next(tables), rng.randrange(1 << 31)) for _ in range(args.jobs)]
            for fault in pool.map(lambda t: play(args, *t), batch):
                played += 1
                if fault is not None:
                    failed += 1
                    print(fault, flush=True)
    minutes = (time.monotonic() - start) / 60
    print(f"{played} games, {failed} did not finish, {played / minutes:.1f} games a minute "
          f"(speed {args.speed:g}, {args.rounds} round(s) each, {args.jobs} at once)")


if __name__ == "__main__":
    main()
