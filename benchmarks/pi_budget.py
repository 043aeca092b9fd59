"""The table's figures under an emulated Raspberry Pi, as a table beside their goals.

    sudo python benchmarks/pi_budget.py [--profile pi4|pi5|both] [--rounds N]
    sudo python benchmarks/pi_budget.py --python .venv-compiled/bin/python
    sudo python benchmarks/pi_budget.py --profile pi4 --only start
    sudo python benchmarks/pi_budget.py --profile pi4 --cpu quota
    sudo python benchmarks/pi_budget.py --profile pi4 --run python benchmarks/display_redraw.py

The emulation (benchmarks/README.md, "A Raspberry Pi's budget", says what it leaves out):

- a slower processor: each measurement runs on one core of this machine, slowed for it
  by a real-time thread that runs 750 µs of every 1,000 on that core for a Pi 4 (500
  for a Pi 5), so the measured processes get a quarter (a half) of it, a millisecond
  at a time (`--cpu slowed`, the default; it needs root and two cores). `--cpu quota`
  gives a cgroup CPU quota instead: 1,000 µs of CPU per 4,000 µs for a Pi 4, 2,000 for
  a Pi 5 (cgroup v1 `cpu.cfs_quota_us`, or v2 `cpu.max`), which a kernel may let a
  short burst overrun;
- an SD card's fsync: a shim, compiled with gcc at run time and loaded with
  `LD_PRELOAD`, sleeps 10 ms before every `fsync` and `fdatasync` (30 ms for a busy
  card, the second latency row).

Each figure is measured in a process of its own on the emulated core (with whatever it
starts, such as `roundhouse run`), run by `--python` (the compiled engine's venv, say);
the journals it needs are made beforehand, outside. The figures (`--only`): latency (tap
-> view published), frame (tap -> frame on the table screen, the screen on an emulated
core of its own), screens (a new 14-seat view drawn in parts, the pulse), start, resume
and engine.
`--run CMD...` runs any command under the same emulation instead (the screens'
benchmarks, say). Prints figures and whether each meets its goal; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

HERE = Path(__file__).resolve().parent
PERIOD_US = 4000
PROFILES = {"pi4": 1000, "pi5": 2000}  # µs of CPU per period
STEAL_PERIOD_US = 1000  # a slowed core's period: its thief runs most of each millisecond
FSYNC_MS, BUSY_FSYNC_MS = 10, 30

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* An SD card's flush: every fsync and fdatasync waits FSYNC_DELAY_US first. */
static void delay(void) {
    const char *text = getenv("FSYNC_DELAY_US");
    long us = text ? atol(text) : 10000;
    struct timespec left = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&left, &left) == -1 && errno == EINTR) {
    }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    delay();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    delay();
    return real(fd);
}
"""


# A slowed core's thief: pinned to one CPU at real-time priority, it runs BUSY_US of every
# PERIOD_US there, on the clock (not slept off: a busy loop), so whatever else is pinned
# to that CPU runs only in the gaps. It says "ready" once it holds the CPU, and dies with
# the process that started it: left behind, it would slow that CPU for good.
STEAL = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: steal CPU BUSY_US PERIOD_US\n");
        return 2;
    }
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
        return 1;
    }
    long long busy = atoll(argv[2]) * 1000LL, period = atoll(argv[3]) * 1000LL;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(atoi(argv[1]), &cpus);
    struct sched_param realtime = {.sched_priority = 50};
    if (sched_setaffinity(0, sizeof cpus, &cpus) != 0) {
        perror("sched_setaffinity");
        return 1;
    }
    if (sched_setscheduler(0, SCHED_FIFO, &realtime) != 0) {
        perror("sched_setscheduler (SCHED_FIFO)");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    long long start = now_ns();
    for (long long k = 0;; k++) {
        long long begun = start + k * period, next = begun + period;
        while (now_ns() < begun + busy) {
        }
        struct timespec until = {next / 1000000000LL, next % 1000000000LL};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
    }
}
"""


class EmulationError(Exception):
    """The machine cannot emulate the Pi: no cgroup cpu controller or real-time
    scheduling, not root, too few cores, no gcc."""


# ---- the emulation ------------------------------------------------------------------


def _mounts() -> list[tuple[str, str, str]]:
    rows = []
    for line in Path("/proc/mounts").read_text().splitlines():
        _, target, kind, options, *_ = line.split()
        rows.append((target, kind, options))
    return rows


class Core(Protocol):
    """An emulated Pi core that processes are put on (`enter`, in the child before it
    runs: it and all it starts), then taken down (`remove`)."""

    kind: str  # what it is, for the table's heading

    def enter(self) -> None: ...

    def remove(self) -> None: ...


class Quota:
    """A cgroup whose processes share `quota_us` of CPU per `PERIOD_US`."""

    def __init__(self, quota_us: int) -> None:
        name = f"roundhouse-pi-budget-{os.getpid()}"
        v1 = [t for t, kind, opts in _mounts() if kind == "cgroup" and "cpu" in opts.split(",")]
        v2 = [t for t, kind, _ in _mounts() if kind == "cgroup2"]
        try:
            if v1:
                self.path = Path(v1[0]) / name
                self.path.mkdir()
                (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota_us))
                controller = "cgroup v1 cpu.cfs_quota_us"
            elif v2 and "cpu" in (Path(v2[0]) / "cgroup.controllers").read_text().split():
                root = Path(v2[0])
                (root / "cgroup.subtree_control").write_text("+cpu")
                self.path = root / name
                self.path.mkdir()
                (self.path / "cpu.max").write_text(f"{quota_us} {PERIOD_US}")
                controller = "cgroup v2 cpu.max"
            else:
                raise EmulationError("no cgroup with the cpu controller is mounted")
        except PermissionError as err:
            raise EmulationError(f"a CPU quota needs root ({err})") from err
        self.kind = f"{quota_us}/{PERIOD_US} µs of CPU ({controller})"

    def enter(self) -> None:
        """Called in the child before it runs: it, and all it starts, are under the quota."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except OSError:  # a process still leaving it
                time.sleep(0.1)


class SlowedCore:
    """One CPU of this machine as a core `cpu_us`/`PERIOD_US` as fast: a thief (`STEAL`)
    takes the rest of every millisecond of it, and what is measured is pinned to it."""

    def __init__(self, cpu_us: int, cpu: int, steal: Path) -> None:
        self.cpu = cpu
        busy = STEAL_PERIOD_US - STEAL_PERIOD_US * cpu_us // PERIOD_US
        self.thief = subprocess.Popen([str(steal), str(cpu), str(busy), str(STEAL_PERIOD_US)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.thief.stdout is not None and self.thief.stderr is not None
        if self.thief.stdout.readline().strip() != "ready":
            self.thief.wait()
            raise EmulationError(f"cannot slow CPU {cpu}: {self.thief.stderr.read().strip()} "
                                 "(real-time scheduling needs root; or try --cpu quota)")
        self.kind = (f"CPU {cpu} slowed to {cpu_us}/{PERIOD_US}: a real-time thread runs "
                     f"{busy} of every {STEAL_PERIOD_US} µs on it")

    def enter(self) -> None:
        os.sched_setaffinity(0, {self.cpu})

    def remove(self) -> None:
        self.thief.kill()
        self.thief.wait()


@dataclass(frozen=True)
class CpuSpec:
    """How the processor is emulated: `kind` "slowed" or "quota", `cpu_us` of every
    `PERIOD_US`, the slowed cores' thief and the CPUs they may be made of. Handed to the
    emulated processes in the environment (`ENV`)."""

    kind: str
    cpu_us: int
    steal: Path
    cpus: tuple[int, ...]

    ENV = "PI_BUDGET_CPU"

    def core(self, nth: int = 0) -> Core:
        """An emulated core; with `slowed`, the `nth` CPU (a measurement's second
        process, such as tap -> frame's screen, gets a CPU of its own, as on a Pi)."""
        if self.kind == "quota":
            return Quota(self.cpu_us)
        if nth >= len(self.cpus):
            raise EmulationError(f"a slowed core each needs {nth + 1} CPUs, this process may "
                                 f"use {len(self.cpus)} (or try --cpu quota)")
        return SlowedCore(self.cpu_us, self.cpus[nth], self.steal)

    def to_env(self) -> str:
        return json.dumps([self.kind, self.cpu_us, str(self.steal), self.cpus])

    @classmethod
    def from_env(cls) -> CpuSpec:
        """The emulation this process runs in (`EmulationError` outside pi_budget.py)."""
        text = os.environ.get(cls.ENV)
        if text is None:
            raise EmulationError("not run by benchmarks/pi_budget.py (--run)")
        kind, cpu_us, steal, cpus = json.loads(text)
        return cls(kind, cpu_us, Path(steal), tuple(cpus))


def _compiled(folder: Path, name: str, source: str, *flags: str) -> Path:
    """`source` built with gcc into `folder / name`."""
    if shutil.which("gcc") is None:
        raise EmulationError(f"gcc is needed to build the emulation's {name}")
    written, built = folder / f"{Path(name).stem}.c", folder / name
    written.write_text(source)
    subprocess.run(["gcc", "-O2", "-o", str(built), str(written), *flags], check=True)
    return built


def build_shim(folder: Path) -> Path:
    return _compiled(folder, "slow_fsync.so", SHIM, "-shared", "-fPIC", "-ldl")


def build_steal(folder: Path) -> Path:
    return _compiled(folder, "steal", STEAL)


@dataclass
class Emulation:
    cpu: CpuSpec
    core: Core
    shim: Path

    def run(self, argv: list[str], fsync_ms: int, **kwargs: object) -> subprocess.CompletedProcess[str]:  # noqa: E501
        """`argv` on the emulated core, with every fsync `fsync_ms` slower."""
        env = {**os.environ, "LD_PRELOAD": str(self.shim), "FSYNC_DELAY_US": str(fsync_ms * 1000),
               CpuSpec.ENV: self.cpu.to_env()}
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            argv, env=env, preexec_fn=self.core.enter, text=True, **kwargs)


# ---- the figures, each measured in a worker inside the emulation --------------------


def _p(samples: list[float], q: float) -> float:
    samples = sorted(samples)
    return samples[min(len(samples) - 1, round(q * len(samples)))]


def fig_latency(folder: Path, rounds: int) -> dict[str, float]:
    from service_latency import measure

    game = folder / f"latency-{os.getpid()}"
    game.mkdir()
    samples = measure(4, {"preset": "tournament", "rounds": rounds}, game)
    return {"p50": statistics.median(samples) * 1000, "p99": _p(samples, 0.99) * 1000,
            "n": len(samples)}


def fig_start(folder: Path, rounds: int) -> dict[str, float]:
    from service_start import ready_times

    times, unclean = ready_times(folder / "stored")
    return {"median": statistics.median(times) * 1000, "worst": max(times) * 1000,
            "unclean": unclean * 1000}


def fig_resume(folder: Path, rounds: int) -> dict[str, float]:
    from service_start import RESUMES, resume_times

    out = {}
    for k, how in enumerate(RESUMES):
        parts: dict[str, list[float]] = {}
        times = resume_times(folder / "stored", how, parts)
        out[f"median{k}"] = statistics.median(times) * 1000
        out[f"worst{k}"] = max(times) * 1000
        out[f"journal{k}"] = statistics.median(parts["journal"]) * 1000
        out[f"table{k}"] = statistics.median(parts["table"]) * 1000
    return out


def fig_engine(folder: Path, rounds: int) -> dict[str, float]:
    """Wall-clock rounds/s: on the emulated core the CPU time of a round hardly changes."""
    from engine_speed import round_player

    from firmware_py.rules import BUILD

    play_round, rng = round_player("classic"), random.Random(1)
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < 5.0:
        play_round(rng)
        count += 1
    return {"rounds_s": count / (time.perf_counter() - start),
            "compiled": float(BUILD == "compiled")}


def fig_frame(folder: Path, rounds: int) -> dict[str, float]:
    """Tap -> frame on the table screen (benchmarks/tap_to_pixel.py's game: 8 seats, two
    rounds, 1920x1080): the service on this emulated core, the screen on one of its own,
    as a Pi's screen process has a core of its own."""
    from tap_to_pixel import measure

    game = folder / f"frame-{os.getpid()}"
    game.mkdir()
    samples = measure(8, 2, (1920, 1080), 0.1, game, screen_core=True)[0]
    return {"p90": _p(samples, 0.9) * 1000, "p99": _p(samples, 0.99) * 1000,
            "n": len(samples)}


def fig_screens(folder: Path, rounds: int) -> dict[str, float]:
    """The table screen alone (benchmarks/display_redraw.py): each new view of the
    recorded 14-seat round drawn in parts with the table's wait between views, and the
    newest tile's pulse at 14 seats."""
    from display_redraw import game, in_parts, pulse_at

    from display.client import WindowSink

    size = (1920, 1080)
    wall = in_parts(game(14), size, True, 0.02)[0]
    fps, gaps, _, _ = pulse_at(WindowSink(size, False, 0), 14)
    return {"p90": _p(wall, 0.9) * 1000, "fps": fps, "gap_p90": _p(gaps, 0.9) * 1000}


FIGURES: dict[str, Callable[[Path, int], dict[str, float]]] = {
    "latency": fig_latency, "frame": fig_frame, "screens": fig_screens, "start": fig_start,
    "resume": fig_resume, "engine": fig_engine,
}


def worker(name: str, folder: Path, rounds: int) -> None:
    sys.path.insert(0, str(HERE))
    print(json.dumps(FIGURES[name](folder, rounds)))


PRECOMPILE = """
import compileall, importlib, pathlib
for name in ("roundhouse", "firmware_py", "hardware", "display"):
    compileall.compile_dir(pathlib.Path(importlib.import_module(name).__file__).parent, quiet=1)
"""


def precompile(python: str) -> None:
    """Write the project's .pyc files, as installing it on the Pi does (pip compiles them),
    even where PYTHONDONTWRITEBYTECODE is set or the install is editable: without them
    every start compiles the project's modules from source, a third of READY."""
    subprocess.run([python, "-c", PRECOMPILE], check=True, cwd="/")


def prepare(folder: Path, games: int, archive: bool = True) -> None:
    """Outside the emulation: a journal of `games` finished 13-round games; with
    `archive`, all but the newest moved into its archive, as a service that has run
    keeps them (without, as the first start after an upgrade finds them)."""
    sys.path.insert(0, str(HERE))
    from service_start import archived, played_game, stored

    played = played_game(folder)
    target, _ = stored(folder, played, games)
    if archive:
        archived(target)
    target.rename(folder / "stored")


# ---- the table ----------------------------------------------------------------------


@dataclass
class Row:
    figure: str
    value: float
    shown: str
    goal: str
    meets: bool | None  # None: no goal


def measure(emulation: Emulation, folder: Path, rounds: int, games: int,
            python: str, only: Sequence[str] = (), archived: bool = True) -> list[Row]:
    def figures(name: str, fsync_ms: int = FSYNC_MS) -> dict[str, float]:
        done = emulation.run([python, __file__, "--worker", name, "--folder", str(folder),
                              "--rounds", str(rounds)], fsync_ms, check=True,
                             stdout=subprocess.PIPE, cwd=HERE)
        return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]

    def wanted(name: str) -> bool:
        return not only or name in only

    rows = []
    if wanted("latency"):
        lat = figures("latency")
        rows.append(Row("tap -> view published, p99", lat["p99"], f"{lat['p99']:.0f} ms",
                        "<= 20 ms", lat["p99"] <= 20))
        busy = figures("latency", BUSY_FSYNC_MS)
        rows.append(Row(f"  same, busy card ({BUSY_FSYNC_MS} ms fsync)", busy["p99"],
                        f"{busy['p99']:.0f} ms", "<= 50 ms", busy["p99"] <= 50))
    if wanted("frame"):
        frame = figures("frame")
        rows.append(Row("tap -> frame on the table screen, p99 (8 seats)", frame["p99"],
                        f"{frame['p99']:.0f} ms (p90 {frame['p90']:.0f} ms)", "<= 50 ms",
                        frame["p99"] <= 50))
    if wanted("screens"):
        screens = figures("screens")
        rows.append(Row("new view, 14 seats, drawn in parts, p90", screens["p90"],
                        f"{screens['p90']:.0f} ms", "<= 16 ms", screens["p90"] <= 16))
        # The loop is capped at 30 frames a second: a steady pulse is one frame each
        # 33.3 ms, give or take the scheduler's wake-up.
        rows.append(Row("the newest tile's pulse, 14 seats", screens["fps"],
                        f"{screens['fps']:.1f} frames/s, p90 {screens['gap_p90']:.0f} ms apart",
                        ">= 30 /s", screens["fps"] >= 29.5 and screens["gap_p90"] <= 40))
    if wanted("start"):
        start = figures("start")
        rows.append(Row("start -> READY", start["median"],
                        f"median {start['median']:.0f} ms, worst {start['worst']:.0f} ms",
                        "<= 500 ms", start["median"] <= 500))
        stored = f"{games} games, {'all but one archived' if archived else 'none archived'}"
        rows.append(Row(f"start after an unclean stop ({stored})", start["unclean"],
                        f"{start['unclean']:.0f} ms", "<= 2,000 ms",
                        start["unclean"] <= 2000))
    if wanted("resume"):
        resume = figures("resume")
        for k, label in enumerate(("resume a 13-round game, mid-round (snapshot)",
                                   "  same, at the game's end (snapshot)",
                                   "  same, every entry replayed (no snapshot)")):
            median, worst = resume[f"median{k}"], resume[f"worst{k}"]
            rows.append(Row(label, median, f"median {median:.0f} ms, worst {worst:.0f} ms",
                            "<= 100 ms", median <= 100))
            rows.append(Row("    of it: journal opened / table taking the game up",
                            resume[f"table{k}"],
                            f"{resume[f'journal{k}']:.0f} ms / {resume[f'table{k}']:.0f} ms",
                            "-", None))
    if wanted("engine"):
        engine = figures("engine")
        build = "compiled" if engine["compiled"] else "pure"
        rows.append(Row(f"engine, classic rounds/s ({build})", engine["rounds_s"],
                        f"{engine['rounds_s']:.0f}", "-", None))
    return rows


def print_table(profile: str, core: Core, rows: list[Row]) -> None:
    print(f"\nemulated {profile}: {core.kind}, {FSYNC_MS} ms per fsync")
    width = max(len(r.figure) for r in rows)
    shown = max(len(r.shown) for r in rows)
    print(f"{'figure':<{width}}  {'measured':<{shown}}  goal (Pi 4)  meets")
    for r in rows:
        meets = "-" if r.meets is None else ("yes" if r.meets else "no")
        print(f"{r.figure:<{width}}  {r.shown:<{shown}}  {r.goal:<11}  {meets}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=[*PROFILES, "both"], default="both")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the latency game")
    parser.add_argument("--games", type=int, default=100, help="games in the journal")
    parser.add_argument("--unarchived", action="store_true",
                        help="keep every game in the journal itself, none archived (as the "
                             "first start after upgrading from a version without the "
                             "archive finds it)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter of the measurements (another venv's, say)")
    parser.add_argument("--only", action="append", choices=FIGURES, default=[],
                        help="measure only this figure (repeatable; default all)")
    parser.add_argument("--cpu", choices=["slowed", "quota"], default="slowed",
                        help="a core slowed by a real-time thread (default), or a cgroup "
                             "CPU quota")
    parser.add_argument("--run", nargs=argparse.REMAINDER, help="a command to run emulated")
    parser.add_argument("--worker", choices=FIGURES, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.folder, args.rounds)
        return
    profiles = list(PROFILES) if args.profile == "both" else [args.profile]
    with tempfile.TemporaryDirectory(prefix="roundhouse-pi-") as name:
        folder = Path(name)
        try:
            shim, steal = build_shim(folder), build_steal(folder)
            if not args.run:
                precompile(os.path.abspath(args.python))
                prepare(folder, args.games, archive=not args.unarchived)
            for profile in profiles:
                cpu = CpuSpec(args.cpu, PROFILES[profile], steal,
                              tuple(sorted(os.sched_getaffinity(0))))
                core = cpu.core()
                try:
                    emulation = Emulation(cpu, core, shim)
                    if args.run:
                        print(f"emulated {profile} ({core.kind}): {' '.join(args.run)}",
                              flush=True)
                        emulation.run(args.run, FSYNC_MS, check=False)
                    else:
                        rows = measure(emulation, folder, args.rounds, args.games,
                                       os.path.abspath(args.python), args.only,
                                       archived=not args.unarchived)
                        print_table(profile, core, rows)
                finally:
                    core.remove()
        except EmulationError as err:
            sys.exit(f"pi_budget: cannot emulate a Pi here: {err}")

if __name__ == "__main__":
    main()
