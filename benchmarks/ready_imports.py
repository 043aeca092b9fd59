"""What `roundhouse run` imports before it sends READY, by Python's own account.

    python benchmarks/ready_imports.py [--runs N] [--top N]

Starts `python -X importtime -m firmware_py.cli run` on the simulated table (mock pins,
five `loop://` readers, a fresh journal) N times, each until READY, and prints the
imports before READY: how many modules, their time summed (each module's least self
time over the runs, so that a busy machine counts less), that time by package, and the
largest modules. Write the project's `.pyc` files first (`python -m compileall
roundhouse firmware_py hardware`) where `PYTHONDONTWRITEBYTECODE` is set, or every
start compiles them. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from service_start import config_file

OURS = ("roundhouse", "firmware_py", "hardware")


def imports_until_ready(folder: Path, config: Path) -> dict[str, int]:
    """Module -> self time in µs, for every module imported before READY."""
    notify_path = folder / "notify"
    notify_path.unlink(missing_ok=True)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(notify_path))
    notify.settimeout(60)
    # Into a file: a pipe no one reads before READY could fill and stall the service.
    log = folder / "service.err"
    with log.open("w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "firmware_py.cli", "run", "--config",
             str(config)], env={**os.environ, "NOTIFY_SOCKET": str(notify_path)}, cwd=folder,
            stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            while not notify.recv(4096).startswith(b"READY=1"):
                pass
            proc.terminate()
            proc.wait(timeout=30)
        finally:
            proc.kill()
            notify.close()
    err = log.read_text(encoding="utf-8")
    # The service logs that it serves its seats just before READY.
    before = err.partition("INFO firmware_py.daemon: serving")[0]
    times: dict[str, int] = {}
    for line in before.splitlines():
        if line.startswith("import time:") and "[us]" not in line:
            self_us, _, name = line.removeprefix("import time:").split("|")
            times[name.strip()] = int(self_us)
    return times


def group(name: str) -> str:
    """The part of the start a module belongs to."""
    top = name.split(".")[0]
    if name.startswith("firmware_py.rules"):
        return "firmware_py.rules (the engine)"
    if top in OURS:
        return top
    return {"gpiozero": "gpiozero", "colorzero": "gpiozero", "serial": "pyserial"}.get(
        top, "standard library, site")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--top", type=int, default=15, help="how many modules to list")
    args = parser.parse_args()
    least: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="roundhouse-imports-") as name:
        folder = Path(name)
        config = config_file(folder)
        for _ in range(args.runs):
            for module, us in imports_until_ready(folder, config).items():
                least[module] = min(least.get(module, us), us)
    total = sum(least.values())
    ours = sum(us for m, us in least.items() if m.split(".")[0] in OURS)
    print(f"{len(least)} modules imported before READY, {total / 1000:.1f} ms "
          f"(the project's own {ours / 1000:.1f} ms), least self times over {args.runs} starts")
    by_group = Counter[str]()
    for module, us in least.items():
        by_group[group(module)] += us
    for name, us in by_group.most_common():
        print(f"  {us / 1000:6.1f} ms  {name}")
    print("largest modules (self time):")
    for module, us in sorted(least.items(), key=lambda item: -item[1])[:args.top]:
        print(f"  {us / 1000:6.1f} ms  {module}")


if __name__ == "__main__":
    main()
