"""How long the screens take to draw a new view, the table screen in parts and whole, how
steadily the newest tile pulses, and what an unchanged view costs the display loop.

    python benchmarks/display_redraw.py [--size 1920x1080]
    python benchmarks/pi_budget.py --profile pi4 --run python benchmarks/display_redraw.py

Prints figures; it asserts nothing. Goals on a Pi 4: a new view of a 14-seat table drawn
in 16 ms at p90 (by repainting what changed), the pulse at 30 frames a second, steady; on
a CI-class machine a full redraw of the busy 8-seat view under 12 ms, and no redraw at all
for a view that did not change.

The new views are those of whole simulated games (tests/views/games: 2, 8 and 14 seats,
one round), drawn in order as a screen following the game draws them: by the display
loop's `Painter` (only what changed), then again from scratch (`table_screen.render`),
each pass starting with the screens' caches empty, so every view brings the words and
tiles a live game brings. Between two views the table waits for a player: the loop
draws ahead (`Painter.ahead`, untimed, its processor time printed beside; `--no-ahead`
leaves it out), then `--pause` s pass (20 ms: under the emulated Pi's quota, the next
view does not start with the share of the last one spent). The pulse runs
`display.client.Follower` in a window of SDL's dummy driver, the clock stopping when
`pygame.display.update` returns.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import itertools
import json
import os
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from display import names, shaping, table_layout, table_screen, text, tiles, wall_screen
from display.client import Follower, Rects, WindowSink
from roundhouse.view import View, parse_view

VIEWS = Path(__file__).resolve().parents[1] / "tests" / "views"
RUNS = 60


def _ms(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1000:.2f} ms, best "
            f"{min(samples) * 1000:.2f} ms, worst {max(samples) * 1000:.2f} ms")


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _pcts(samples: list[float]) -> str:
    return (f"p50 {_p(samples, 0.5) * 1000:.1f} ms, p90 {_p(samples, 0.9) * 1000:.1f} ms, "
            f"p99 {_p(samples, 0.99) * 1000:.1f} ms")


def game(seats: int) -> list[View]:
    with gzip.open(VIEWS / "games" / f"classic_{seats}.jsonl.gz", "rt",
                   encoding="utf-8") as lines:
        return [parse_view(line, "recorded game") for line in lines if line.strip()]


def cold() -> None:
    """Empty the screens' caches, as in a screen that has drawn none of these views."""
    for cached in (text.fit, text.text_width, text._line, text._turned_line, text.line_height,
                   shaping.runs, shaping.display_order, shaping.opened, table_layout._fit_lane,
                   table_layout._lay_with_elision, table_layout._node, table_layout._place,
                   table_layout._table, table_screen._segments,
                   table_screen._halo, table_screen._lit,
                   table_screen._background, tiles.face, tiles.marker, names._named,
                   names._names, shaping.script_of, shaping.is_rtl, tiles._blank):
        cached.cache_clear()
    # Kept beside those: the letters each face is known to have, the last view's names,
    # where each box's last text came out.
    shaping._HAS.clear()
    names._recent.clear()
    text._MISSED_BY.clear()


def timed(views: list[View], draw: Callable[[View], object],
          cpu: list[float] | None = None,
          between: Callable[[], object] = lambda: None) -> list[float]:
    """The time each view took, from empty caches; its processor time into `cpu`;
    `between` runs after each view, untimed."""
    cold()
    samples = []
    for view in views:
        start, start_cpu = time.perf_counter(), time.process_time()
        draw(view)
        samples.append(time.perf_counter() - start)
        if cpu is not None:
            cpu.append(time.process_time() - start_cpu)
        between()
    return samples


def in_parts(views: list[View], size: tuple[int, int], ahead: bool, pause: float
             ) -> tuple[list[float], list[float], list[float], list[float]]:
    """Every view drawn in order by the display loop's `Painter`, from empty caches, as a
    screen following the game draws them: the wall-clock time and processor time of each
    view but the first (painted whole), the share of the screen each repainted, and the
    processor time drawing ahead took after each."""
    surface = pygame.Surface(size)
    painter = table_screen.Painter()
    shares: list[float] = []
    waiting: list[float] = []

    def partly(view: View) -> None:
        rects = painter.draw(surface, view)
        shares.append(1.0 if rects is None else
                      sum(r.w * r.h for r in rects) / (size[0] * size[1]))

    def wait() -> None:
        start = time.process_time()
        for _ in painter.ahead() if ahead else ():
            pass
        waiting.append(time.process_time() - start)
        time.sleep(pause)

    cpu: list[float] = []
    wall = timed(views, partly, cpu, wait)
    return wall[1:], cpu[1:], shares[1:], waiting


def new_views(size: tuple[int, int], ahead: bool, pause: float) -> None:
    print(f"new views of whole games at {size[0]}x{size[1]} (play, round over, lobby), "
          f"drawn in order, {pause * 1000:.0f} ms apart"
          f"{', each drawing ahead after it' if ahead else ''}:")
    surface = pygame.Surface(size)

    def wait() -> None:
        time.sleep(pause)

    for seats in (2, 8, 14):
        views = game(seats)
        parts, parts_cpu, shares, waiting = in_parts(views, size, ahead, pause)
        cpu: dict[str, list[float]] = {"whole": [], "wall": []}
        whole = timed(views, partial(table_screen.render, surface), cpu["whole"], wait)[1:]
        wall = timed(views, partial(wall_screen.render, surface), cpu["wall"], wait)[1:]
        # On a shared machine the wall clock also counts time spent waiting for a core.
        print(f"  {seats:2} seats, {len(views)} views, "
              f"{statistics.mean(shares) * 100:.0f}% of the screen repainted on average:")
        for what, samples, used in (("table in parts", parts, parts_cpu),
                                    ("table whole", whole, cpu["whole"][1:]),
                                    ("wall (whole)", wall, cpu["wall"][1:])):
            print(f"    {what:15} {_pcts(samples)}; processor time {_pcts(used)}")
        if ahead:
            print(f"    {'drawing ahead':15} processor time after each view {_pcts(waiting)}, "
                  f"worst {max(waiting) * 1000:.1f} ms")


class OneView:
    """A feed that hands over one view, then has nothing new."""

    def __init__(self, view: View) -> None:
        self.views = [view]
        self.path = "benchmark"
        self.connected = True

    def poll(self, timeout: float) -> View | None:
        if self.views:
            return self.views.pop(0)
        time.sleep(timeout)
        return None

    def close(self) -> None:
        pass


def pulse_at(sink: WindowSink, seats: int) -> tuple[float, list[float], list[float], View]:
    """The display loop pulsing the newest tile of the recorded game at `seats` in a
    window: its frames a second, the time between frames and the time to paint each."""
    view = next(v for v in reversed(game(seats)) if v.phase == "play" and v.last_play)
    follower = Follower(OneView(view), sink, "table", fps=30)  # type: ignore[arg-type]
    frames: list[float] = []
    painting: list[float] = []
    show = sink.show

    def timed_show(name: str, rects: Rects | None = None) -> None:
        show(name, rects)
        if name == "pulse":
            frames.append(time.perf_counter())

    sink.show = timed_show  # type: ignore[method-assign]
    draw = follower._draw_view

    def timed_draw(age: float) -> object:
        start = time.perf_counter()
        rects = draw(age)
        painting.append(time.perf_counter() - start)
        return rects

    follower._draw_view = timed_draw  # type: ignore[assignment, method-assign]
    try:
        while follower.next_frame is not None or not frames:
            follower.step()
    finally:
        sink.show = show  # type: ignore[method-assign]
    gaps = [b - a for a, b in itertools.pairwise(frames)]
    return (len(frames) - 1) / (frames[-1] - frames[0]), gaps, painting, view


def pulse(size: tuple[int, int]) -> None:
    print(f"the newest tile's pulse in a window ({size[0]}x{size[1]}, capped at 30 frames "
          "a second):")
    sink = WindowSink(size, False, 0)
    for seats in (2, 8, 14):
        fps, gaps, painting, view = pulse_at(sink, seats)
        # What the same frames cost drawn whole, as before.
        whole = []
        surface = pygame.Surface(size)
        for k in range(len(gaps) + 1):
            start = time.perf_counter()
            table_screen.render(surface, view, now=k / 30)
            whole.append(time.perf_counter() - start)
        print(f"  {seats:2} seats: {fps:.1f} frames/s over {len(gaps) + 1} frames, between "
              f"frames p90 {_p(gaps, 0.9) * 1000:.1f} ms, worst {max(gaps) * 1000:.1f} ms; a "
              f"frame painted in {_pcts(painting[1:])} (whole: {_pcts(whole)})")
    pygame.display.quit()


def busy(size: tuple[int, int]) -> None:
    raw = json.loads((VIEWS / "busy_8.json").read_text(encoding="utf-8"))
    base = parse_view(json.dumps({"seq": 1, **raw}), "benchmark")
    surface = pygame.Surface(size)
    cold()
    start = time.perf_counter()
    table_screen.render(surface, base)
    first = time.perf_counter() - start
    # Each redraw gets a view that really changed, as after every accepted play: a new
    # sequence number, the turn moving on and one more tile on one of the trains.
    views = []
    for i in range(RUNS):
        played = copy.deepcopy({"seq": 1, **raw})
        played["seq"] += i + 1
        played["turn"] = i % len(played["seats"])
        train = played["trains"][i % len(played["trains"])]
        end = train["tiles"][-1].split("-")[1]
        train["tiles"].append(f"{end}-{(int(end) + i) % 19}")
        played["last_play"] = {"seat": played["turn"], "train": train["id"],
                               "tile": train["tiles"][-1]}
        views.append(parse_view(json.dumps(played), "benchmark"))
    samples, cpu = [], []
    for view in views:
        start, start_cpu = time.perf_counter(), time.process_time()
        table_screen.render(surface, view)
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
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
    print(f"busy 8-seat table view at {size[0]}x{size[1]} (8 trains x 15 tiles, Mexican "
          "train, 2 pending doubles)")
    print(f"  first draw (fonts and tile faces not yet cached): {first * 1000:.1f} ms")
    print(f"  full redraw of a changed view: {_ms(samples)}")
    # On a shared machine the wall clock also counts time spent waiting for a core.
    print(f"  the same, processor time only: {_ms(cpu)}")
    print(f"  unchanged view: no redraw; receiving and comparing it: {_ms(unchanged)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--no-ahead", dest="ahead", action="store_false",
                        help="nothing drawn ahead between views")
    parser.add_argument("--pause", type=float, default=0.02,
                        help="seconds between views, as the table waits for a player")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    size = (width, height)
    pygame.font.init()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    new_views(size, args.ahead, args.pause)
    pulse(size)
    busy(size)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
