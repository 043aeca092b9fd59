"""How long the table screen takes to redraw a busy table, and what an unchanged view
costs the display loop.

    python benchmarks/display_redraw.py

Prints figures; it asserts nothing. The goals: a full redraw of the busy 8-seat view
(eight trains of fifteen tiles, the Mexican train, two pending doubles) at 1920x1080
under 12 ms on a CI-class machine, and no redraw at all for a view that did not change.
"""

from __future__ import annotations

import copy
import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from display import table_screen, wall_screen
from roundhouse.view import parse_view

VIEW = Path(__file__).resolve().parents[1] / "tests" / "views" / "busy_8.json"
RUNS = 60


def _ms(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1000:.2f} ms, best "
            f"{min(samples) * 1000:.2f} ms, worst {max(samples) * 1000:.2f} ms")


def main() -> None:
    raw = json.loads(VIEW.read_text(encoding="utf-8"))
    base = parse_view(json.dumps({"seq": 1, **raw}), "benchmark")
    surface = pygame.Surface((1920, 1080))

    start = time.perf_counter()
    table_screen.render(surface, base)
    first = time.perf_counter() - start

    # Each redraw gets a view that really changed, as after every accepted play: a new
    # sequence number, the turn moving on and one more tile on one of the trains.
    views = []
    for i in range(RUNS):
        view = copy.deepcopy({"seq": 1, **raw})
        view["seq"] += i + 1
        view["turn"] = i % len(view["seats"])
        train = view["trains"][i % len(view["trains"])]
        end = train["tiles"][-1].split("-")[1]
        train["tiles"].append(f"{end}-{(int(end) + i) % 19}")
        view["last_play"] = {"seat": view["turn"], "train": train["id"],
                             "tile": train["tiles"][-1]}
        views.append(parse_view(json.dumps(view), "benchmark"))
    samples, cpu = [], []
    for view in views:
        start, start_cpu = time.perf_counter(), time.process_time()
        table_screen.render(surface, view)
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    wall = []
    for view in views:
        start = time.perf_counter()
        wall_screen.render(surface, view)
        wall.append(time.perf_counter() - start)

    # An unchanged view: what the loop does when the service sends the same view
    # again (parse the line, compare, no drawing).
    line = base.to_line()
    unchanged = []
    for _ in range(RUNS):
        start = time.perf_counter()
        news = parse_view(line, "benchmark")
        redraw = news != base
        unchanged.append(time.perf_counter() - start)
        assert not redraw

    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} while measuring")
    print("busy 8-seat table view at 1920x1080 (8 trains x 15 tiles, Mexican train, "
          "2 pending doubles)")
    print(f"  first draw (fonts and tile faces not yet cached): {first * 1000:.1f} ms")
    print(f"  full redraw of a changed view: {_ms(samples)}")
    # On a shared machine the wall clock also counts time spent waiting for a core.
    print(f"  the same, processor time only: {_ms(cpu)}")
    print(f"  wall screen redraw: {_ms(wall)}")
    print(f"  unchanged view: no redraw; receiving and comparing it: {_ms(unchanged)}")


if __name__ == "__main__":
    main()
