"""How fast a screen shows its first frame, and how much memory it holds.

    python benchmarks/display_startup.py

Starts `roundhouse display` as the service's unit does (following a view socket, here
with `--frames` because a benchmark has no screen), serves it the busy 8-seat view and
times start to first frame; then reads the process's resident memory. Also times a
one-off `--screenshot`. Prints figures; it asserts nothing. Goals: first frame under
1 s, resident memory under 120 MB.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VIEW = Path(__file__).resolve().parents[1] / "tests" / "views" / "busy_8.json"
COMMAND = [sys.executable, "-m", "firmware_py.cli", "display"]


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def follow_socket(folder: Path) -> tuple[float, float]:
    path = folder / "view.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen()
    frames = folder / "frames"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    start = time.perf_counter()
    proc = subprocess.Popen([*COMMAND, "--view", "table", "--socket", str(path),
                             "--frames", str(frames)], env=env)
    try:
        conn, _ = server.accept()
        conn.sendall(VIEW.read_bytes().replace(b"\n", b"") + b"\n")
        first = frames / f"table-{json.loads(VIEW.read_text())['seq']:06d}.png"
        deadline = start + 30
        while not first.exists():
            if proc.poll() is not None or time.perf_counter() > deadline:
                raise SystemExit("roundhouse display drew no frame")
            time.sleep(0.005)
        elapsed = time.perf_counter() - start
        return elapsed, resident_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait()
        server.close()


def screenshot(folder: Path) -> tuple[float, float]:
    start = time.perf_counter()
    subprocess.run([*COMMAND, "--view", "table", "--from", str(VIEW), "--screenshot",
                    str(folder / "shot.png")], check=True)
    elapsed = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, peak_kb / 1024


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        first, rss = follow_socket(folder)
        shot, peak = screenshot(folder)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"following the socket: start to first frame {first * 1000:.0f} ms, "
          f"resident memory {rss:.0f} MB (busy 8-seat view, 1920x1080)")
    print(f"--screenshot: start to picture written {shot * 1000:.0f} ms, "
          f"peak resident memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
