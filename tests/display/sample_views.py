"""Views for the screen tests: written as the JSON the socket carries (easy to change in
a test), drawn as the typed views the screens take."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from roundhouse.view import View, parse_view


def as_view(view: View | dict[str, Any]) -> View:
    """The typed view of a sample, checked as a screen checks what the socket brings."""
    if isinstance(view, View):
        return view
    return View.from_json({"seq": 1, **view})


_ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")


def plain(words: str) -> str:
    """Words as read: the screens set every argument of a sentence between bidi isolates,
    which draw as nothing."""
    return words.translate(_ISOLATES)


_VIEWS = Path(__file__).resolve().parents[1] / "views"


def load(name: str) -> dict[str, Any]:
    """A sample view of tests/views/ as the JSON the socket carries."""
    return json.loads((_VIEWS / f"{name}.json").read_text(encoding="utf-8"))


def all_view_names() -> list[str]:
    return sorted(p.stem for p in _VIEWS.glob("*.json"))


def game(seats: int) -> list[View]:
    """The views of a whole simulated game (tests/views/record_games.py), in order."""
    with gzip.open(_VIEWS / "games" / f"classic_{seats}.jsonl.gz", "rt",
                   encoding="utf-8") as lines:
        return [parse_view(line, "recorded game") for line in lines if line.strip()]
