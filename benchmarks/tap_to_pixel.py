"""From a tap on a pad (or a press of a seat's button) to the picture that shows it on the
table screen, over simulated games: the service, the view socket, the display process.

    python benchmarks/tap_to_pixel.py [--seats 8] [--rounds 2] [--size 1920x1080]
    sudo python benchmarks/pi_budget.py --profile pi4 --run \
        python benchmarks/tap_to_pixel.py --screen-core [--slowest N]

Prints figures; it asserts nothing. The goal: p99 under 50 ms on a Pi 4.

The service runs in this process on the simulated table's configuration (mock pins, no
readers), players acting through its inputs as in benchmarks/service_latency.py. The
table screen runs as a process of its own, `display.client.Follower` in a window of SDL's
dummy driver (it draws into memory as a window would), following the service's socket.
Every hardware event carries the monotonic time it was made (`Event.at`, the same clock
in every process). A sample starts at a player's touch (a tag laid on a pad, a button
pressed or held) and stops when `pygame.display.update` (or `flip`) has returned for the
first frame that shows the view the touch led to. Views that follow a lift or a release
are not counted: they come after the table's own wait before it lets a tag go. After
each input the players wait until the screen shows its view, then think for `--pace`
seconds, as people do.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "service"))


def screen(socket_path: str, size: tuple[int, int], parent: int) -> None:
    """The display process: the table screen in a window, saying when each frame is up."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from display.client import Follower, Rects, WindowSink
    from roundhouse.feed import ViewFeed

    class Timed(WindowSink):
        def show(self, name: str, rects: Rects | None = None) -> None:
            super().show(name, rects)
            print(f"{name} {time.monotonic():.6f}", flush=True)

    feed = ViewFeed(socket_path, backoff=(0.01, 0.1))
    sink = Timed(size, False, 0)
    try:
        Follower(feed, sink, "table").run(stop=lambda: os.getppid() != parent)
    finally:
        feed.close()


class Screen(threading.Thread):
    """Reads what the display process says: when the frame of each view was up."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        super().__init__(daemon=True)
        self.process = process
        self.up: dict[int, float] = {}  # view seq -> when its first frame was up
        self.newest = 0
        self.changed = threading.Condition()

    def run(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            name, at = line.split()
            if name.isdigit():
                with self.changed:
                    self.up.setdefault(int(name), float(at))
                    self.newest = max(self.newest, int(name))
                    self.changed.notify_all()

    def wait_for(self, seq: int, timeout: float = 10.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.newest >= seq, timeout)


def players(service: Any, rng: random.Random, shown: Screen, pace: float) -> Any:
    from players import Players

    class Watching(Players):
        """Players who tap now (not a second after the last tap, as in the service
        tests) and look at the screen before acting again."""

        def tap(self, pad: str, tag: str) -> None:
            from hardware.events import TagPlaced, TagRemoved

            at = time.monotonic()
            self.service.events.put(TagPlaced(pad, self.uids[tag], at))
            self.service.events.put(TagRemoved(pad, self.uids[tag], at + 0.01))

        def act(self, how: Any, *args: Any) -> None:
            # Wait for the screen, not by asking the table over and over: on an emulated
            # Pi the asking would eat the service's share of the processor.
            before = service.publisher.seq
            how(*args)
            if not shown.wait_for(before + 1):
                raise AssertionError("the screen showed nothing new within 10 s")
            shown.wait_for(service.publisher.seq)
            rejection = self.table.rejection
            if rejection is not None:
                raise AssertionError(f"the table refused a player: {rejection}")
            time.sleep(pace)

    return Watching(service, rng)


def measure(seats: int, rounds: int, size: tuple[int, int], pace: float,
            folder: Path, screen_core: bool = False
            ) -> tuple[list[float], list[float], int, int, list[str]]:
    """The game played and timed: each input's tap -> frame, its tap -> view published,
    how many views the screen drew, how many it saw only in a later view, and each
    input's view. `screen_core`: the screen on an emulated core of its own, next to the
    one this runs on (under benchmarks/pi_budget.py; `EmulationError` elsewhere)."""
    from service_latency import table_config

    from firmware_py.daemon import Service
    from hardware.events import ButtonHeld, ButtonPressed, TagPlaced

    core = None
    if screen_core:
        from pi_budget import CpuSpec

        core = CpuSpec.from_env().core(1)  # the first is the one this runs on

    config = table_config(seats, {"preset": "tournament", "rounds": rounds}, folder)
    service = Service(config, attach_hardware=False)
    service.start()
    started: dict[int, float] = {}  # view seq -> when the first event that led to it came
    published: dict[int, float] = {}  # view seq -> when the service published it
    kinds: dict[int, str] = {}  # view seq -> what the view showed, for --slowest
    waiting: list[float] = []
    handle, publish = service.table.handle, service.publisher.publish

    def timed_handle(event: Any) -> bool:
        # The moment a player acts: a tile or card touching a pad, a button going down.
        # A view that follows a lift or a release comes after the table's own wait (a
        # tag is let go once it has been away for a while), not in answer to a touch.
        if isinstance(event, (TagPlaced, ButtonPressed, ButtonHeld)):
            waiting.append(event.at)
        return handle(event)

    def timed_publish(view: Any) -> int:
        seq = publish(view)
        published[seq] = time.monotonic()
        kinds[seq] = f"{view.stage.value}, round {view.round}"
        if waiting:
            started[seq] = waiting[0]
            waiting.clear()
        return seq

    service.table.handle = timed_handle  # type: ignore[method-assign]
    service.publisher.publish = timed_publish  # type: ignore[method-assign]
    process = subprocess.Popen(
        [sys.executable, __file__, "--screen", str(config.socket), "--size",
         f"{size[0]}x{size[1]}", "--parent", str(os.getpid())],
        stdout=subprocess.PIPE, text=True,
        preexec_fn=None if core is None else core.enter,
        env={**os.environ, "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "dummy")})
    shown = Screen(process)
    shown.start()
    try:
        shown.wait_for(1, timeout=30)
        players(service, random.Random(1), shown, pace).play()
        shown.wait_for(service.publisher.seq)
    finally:
        service.stop()
        process.terminate()
        process.wait(timeout=10)
        if core is not None:
            core.remove()
    samples, service_part = [], []
    labels: list[str] = []  # beside each sample, the view it waited for
    skipped = 0
    for seq, at in started.items():
        # A view the screen skipped (a newer one had come) is seen in the next one drawn.
        up = min((t for s, t in shown.up.items() if s >= seq), default=None)
        if up is None:
            continue
        samples.append(up - at)
        labels.append(f"view {seq}: {kinds[seq]}")
        service_part.append(published[seq] - at)
        skipped += seq not in shown.up
    return samples, service_part, len(shown.up), skipped, labels


def _p(samples: list[float], q: float) -> float:
    return samples[min(len(samples) - 1, round(q * (len(samples) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--pace", type=float, default=0.1,
                        help="seconds a player waits after seeing the screen (default 0.1)")
    parser.add_argument("--screen-core", action="store_true",
                        help="run by benchmarks/pi_budget.py --run: the display process on "
                        "an emulated core of its own, as on a Pi")
    parser.add_argument("--slowest", type=int, default=0, metavar="N",
                        help="also list the N slowest inputs' views (their stage and round)")
    parser.add_argument("--screen", help=argparse.SUPPRESS)
    parser.add_argument("--parent", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    if args.screen:
        screen(args.screen, (width, height), args.parent)
        return
    with tempfile.TemporaryDirectory(prefix="roundhouse-bench-") as folder:
        from pi_budget import EmulationError

        try:
            samples, service_part, frames, skipped, labels = measure(
                args.seats, args.rounds, (width, height), args.pace, Path(folder),
                args.screen_core)
        except EmulationError as err:
            sys.exit(f"tap_to_pixel: no core for the screen: {err}")
    slowest = sorted(zip(samples, labels, strict=True), reverse=True)[: args.slowest]
    screen_part = sorted(total - part for total, part in zip(samples, service_part,
                                                             strict=True))
    samples.sort()
    service_part.sort()
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} while measuring")
    print(f"tap or press -> its view on the table screen ({args.seats} seats, tournament, "
          f"{args.rounds} rounds, {width}x{height}, {len(samples)} inputs, {frames} views "
          f"drawn, {skipped} seen only in a later view):")
    _line("tap -> frame on the screen", samples)
    _line("of it, tap -> view published", service_part)
    _line("and view published -> frame on the screen", screen_part)
    for took, label in slowest:
        print(f"  {took * 1000:6.1f} ms  {label}")


def _line(what: str, samples: list[float]) -> None:
    print(f"  {what}: p50 {statistics.median(samples) * 1000:.1f} ms   p90 "
          f"{_p(samples, 0.9) * 1000:.1f} ms   p99 {_p(samples, 0.99) * 1000:.1f} ms   "
          f"worst {samples[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
