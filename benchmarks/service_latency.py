"""From a hardware event entering the queue to the view that shows it leaving for the
screens, with the journal committed to disk in between, over a whole simulated game.

    python benchmarks/service_latency.py [--seats 4] [--rules tournament] [--rounds N]

Prints figures; it asserts nothing. The goal: p99 under 20 ms on a CI-class machine.
Every event carries the monotonic time it was made (`Event.at`); the clock stops when
the publisher has the new view. Players act through presses and pad taps, one input at
a time, as people do, so no event waits behind another in the queue.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_py.config import Config, example_config, load_config
from firmware_py.daemon import Service

# The players of the service tests: they act only through the table's inputs.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "service"))


def table_config(seats: int, rules: str | dict[str, object], folder: Path) -> Config:
    """The eight-seat example cut to `seats`, its journal and socket in `folder`."""
    base = load_config(example_config("table-8"))
    readers = tuple(r for r in base.readers if r.pad == "mexican" or int(r.pad) < seats)
    return dataclasses.replace(base, seats=base.seats[:seats], readers=readers, rules=rules,
                               pin_factory="mock", database=folder / "table.db",
                               socket=folder / "view.sock", watchdog=False)


def play(service: Service, seed: int = 1) -> None:
    from players import Players

    Players(service, random.Random(seed)).play()


def measure(seats: int, rules: str | dict[str, object], folder: Path) -> list[float]:
    service = Service(table_config(seats, rules, folder), attach_hardware=False)
    service.start()
    samples: list[float] = []
    handling: list[float] = []
    handle, publish = service.table.handle, service.publisher.publish

    def timed_handle(event: Any) -> bool:
        handling.append(event.at)
        return handle(event)

    def timed_publish(view: Any) -> int:
        seq = publish(view)
        samples.append(time.monotonic() - handling[-1])
        return seq

    service.table.handle = timed_handle  # type: ignore[method-assign]
    service.publisher.publish = timed_publish  # type: ignore[method-assign]
    try:
        play(service)
    finally:
        service.stop()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rules", default="tournament")
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    rules: str | dict[str, object] = args.rules
    if args.rounds:
        rules = {"preset": args.rules, "rounds": args.rounds}
    with tempfile.TemporaryDirectory(prefix="roundhouse-bench-") as folder:
        samples = sorted(measure(args.seats, rules, Path(folder)))
    p50 = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, round(0.99 * len(samples)))]
    print(f"event enqueued -> view published, journal on disk ({args.seats} seats, "
          f"{args.rules}, {len(samples)} views over one game):")
    print(f"  p50 {p50 * 1000:.2f} ms   p99 {p99 * 1000:.2f} ms   "
          f"worst {samples[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
