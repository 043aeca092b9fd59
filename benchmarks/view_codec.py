"""What a view costs on its way from the service to a screen: built into JSON by the
service (`View.to_line`), then read and checked by a screen (`parse_view`), for the
views of tests/views/ at 2, 8 and 14 seats.

    python benchmarks/view_codec.py [--seconds S]

Prints microseconds per view for each step, beside `json.dumps`/`json.loads` of the same
object alone: the floor that any other codec would start from. The typed views are
plain frozen dataclasses read by hand-written checks; this shows what that choice costs.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from roundhouse.view import View, load_view, parse_view

VIEWS = Path(__file__).resolve().parent.parent / "tests" / "views"


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """Microseconds per call, the best of five runs of about `seconds` / 5 each."""
    best = float("inf")
    for _ in range(5):
        n, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / 5:
            for _ in range(50):
                fn()
            n += 50
        best = min(best, elapsed / n * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per figure")
    args = parser.parse_args()
    print("| view | bytes | to_line | json.dumps alone | parse_view | json.loads alone |")
    print("|---|---|---|---|---|---|")
    for name in ("play_2", "busy_8", "play_14", "full_14", "game_over_14"):
        view: View = load_view(VIEWS / f"{name}.json")
        line = view.to_line()
        obj = view.to_json()
        figures = [
            per_call(view.to_line, args.seconds),
            per_call(partial(json.dumps, obj, separators=(",", ":"), ensure_ascii=False),
                     args.seconds),
            per_call(partial(parse_view, line, name), args.seconds),
            per_call(partial(json.loads, line), args.seconds),
        ]
        print(f"| {name} | {len(line)} | " + " | ".join(f"{f:.0f} µs" for f in figures) + " |")


if __name__ == "__main__":
    main()
