"""What a screen holds after drawing every sample view in six languages: resident memory
and open files, for the table screen and the wall.

    python benchmarks/display_memory.py [--size 1920x1080]

Each screen runs in a process of its own, as on the Pi, and draws every view of
`tests/views/` in English, Persian, Arabic, Lithuanian, Greek and Telugu (the view's
seats and the wall speaking that language), through the same code as `roundhouse display`
(`display.client.in_language`, the table's `Painter` with a frame of the pulse and what
it draws ahead, the wall's `render`, then `display.memory.release` as the display loop
does after each new view). It prints, per screen, the resident memory (VmRSS) and the
number of open file descriptors once all are drawn, and the largest of each along the
way. Prints figures; it asserts nothing. Goals (a 2 GB Pi
running two screens beside the service): under 80 MiB and under 64 open files each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "fa", "ar", "lt", "el", "te")


def measure(screen: str, size: str) -> dict[str, float]:
    """Runs in the child: draw everything, report the figures as JSON."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from display import memory, table_screen, wall_screen
    from display.client import in_language, parse_size
    from roundhouse.view import View

    def rss() -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def files() -> int:
        return len(os.listdir("/proc/self/fd"))

    pygame.init()
    surface = pygame.Surface(parse_size(size))
    # The table screen is drawn as the display loop draws it: each view repainted where
    # it differs from the last one, a frame of the newest tile's pulse, and what the loop
    # draws ahead while the table waits.
    painter = table_screen.Painter()

    def draw(surface: pygame.Surface, view: View) -> None:
        if screen == "table":
            painter.draw(surface, view)
            painter.draw(surface, view, now=0.2)
            for _ in painter.ahead():
                pass
        else:
            wall_screen.render(surface, view)

    views = sorted((ROOT / "tests" / "views").glob("*.json"))
    start = rss()
    most_rss, most_files, drawn = start, files(), 0
    for lang in LANGS:
        for path in views:
            view = View.from_json({"seq": 1, **json.loads(path.read_text("utf-8"))})
            draw(surface, in_language(view, screen, lang))
            memory.release()  # as the display loop does after each new view
            drawn += 1
            most_rss, most_files = max(most_rss, rss()), max(most_files, files())
    return {"drawn": drawn, "start_mib": start, "rss_mib": rss(), "peak_mib": most_rss,
            "files": files(), "peak_files": most_files}


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--child":
        print(json.dumps(measure(args[1], args[2])))
        return
    size = args[args.index("--size") + 1] if "--size" in args else "1920x1080"
    print(f"every sample view in {', '.join(LANGS)} at {size}; goal < 80 MiB, < 64 files")
    for screen in ("table", "wall"):
        out = subprocess.run([sys.executable, __file__, "--child", screen, size],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        got = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{screen:5}  {got['drawn']} screens  resident {got['rss_mib']:.0f} MiB "
              f"(peak {got['peak_mib']:.0f}, after start-up {got['start_mib']:.0f})  "
              f"open files {got['files']} (peak {got['peak_files']})")


if __name__ == "__main__":
    main()
