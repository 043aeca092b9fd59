"""How much an emulated Pi slows a burst of pure computing, by the burst's length: the
check that the emulation slows a tap's or a view's work as a slower core would.

    sudo python benchmarks/pi_budget.py --profile pi4 --run python benchmarks/burst.py
    sudo python benchmarks/pi_budget.py --profile pi4 --cpu quota --run python benchmarks/burst.py

Each burst computes until this process has used the given processor time, after a
20 ms pause (a player's tap comes after a wait, too); the wall clock it took is printed
beside what a core `--slower` times slower would take (4 for a Pi 4, 2 for a Pi 5).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

BURSTS_MS = (0.5, 1.0, 2.0, 4.0, 8.0)


def burst(seconds: float) -> float:
    """Compute for `seconds` of processor time; the wall clock that took."""
    started, used = time.perf_counter(), time.process_time()
    while time.process_time() - used < seconds:
        pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="bursts of each length")
    parser.add_argument("--slower", type=float, default=4.0,
                        help="how many times slower the emulated core should be")
    args = parser.parse_args()
    print(f"processor time -> wall clock (median and worst of {args.runs}), "
          f"and a core {args.slower:g} times slower")
    for ms in BURSTS_MS:
        took = []
        for _ in range(args.runs):
            time.sleep(0.02)
            took.append(burst(ms / 1000))
        print(f"  {ms:4.1f} ms -> median {statistics.median(took) * 1000:5.1f} ms, worst "
              f"{max(took) * 1000:5.1f} ms   (slower core: {ms * args.slower:5.1f} ms)")


if __name__ == "__main__":
    main()
