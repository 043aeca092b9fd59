"""How long the longest-train solver takes on random 16-tile hands from a double-12 set.

    python benchmarks/solver_speed.py [--hands N] [--size K] [--seed S]

Prints the distribution of the CPU time per hand (goal for 16 tiles: p99 under 20 ms).
"""

from __future__ import annotations

import argparse
import random
import time

from firmware_py.rules import set_tiles
from firmware_py.rules.solver import longest_train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=16, help="tiles per hand")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    full = set_tiles(12)
    times = []
    longest = 0
    for _ in range(args.hands):
        hand = rng.sample(full, args.size)
        end = rng.randrange(13)
        start = time.process_time()
        chain = longest_train(hand, end)
        times.append(time.process_time() - start)
        longest = max(longest, len(chain))
    times.sort()

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))] * 1000

    print(f"{args.hands} hands of {args.size} tiles from a double-12 set, ends 0-12")
    print(
        f"ms per hand: p50 {at(0.5):.2f}  p90 {at(0.9):.2f}  p99 {at(0.99):.2f}  "
        f"max {times[-1] * 1000:.2f}  (longest chain: {longest} tiles)"
    )


if __name__ == "__main__":
    main()
