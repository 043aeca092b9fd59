"""Shared fixtures for the screen tests: SDL without a display, the sample views."""

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

# SDL must be told before pygame is imported anywhere in the test session.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

VIEWS = Path(__file__).resolve().parents[1] / "views"
SIZES = ((1920, 1080), (1080, 1920), (1280, 800), (800, 480))


def load(name: str) -> dict[str, Any]:
    return json.loads((VIEWS / f"{name}.json").read_text(encoding="utf-8"))


def all_view_names() -> list[str]:
    return sorted(p.stem for p in VIEWS.glob("*.json"))


def stress(seats: int, length: int = 20) -> dict[str, Any]:
    """`seats` seats, every train (and the Mexican train) `length` tiles long, two
    pending doubles and a chicken foot: more than any real game lays."""
    view = copy.deepcopy(load(f"play_{seats}"))
    top = view["set"]
    engine = int(view["engine"].split("-")[0])
    for n, train in enumerate(view["trains"]):
        tiles, end = [], engine
        for i in range(length):
            nxt = (end + 1 + (i + n) % top) % (top + 1)
            if i in (length - 1, 7) and n % 3 == 1:
                nxt = end
            tiles.append(f"{end}-{nxt}")
            end = nxt
        train["tiles"] = tiles
        train["open"] = n % 2 == 0
        train["branches"] = []
    foot = view["trains"][-2]
    end = int(foot["tiles"][-1].split("-")[1])
    foot["tiles"][-1] = f"{foot['tiles'][-1].split('-')[0]}-{end}"
    foot["tiles"].append(f"{end}-{end}")
    foot["branches"] = [{"tiles": [f"{end}-{(end + k) % (top + 1)}"] * 3, "branches": []}
                        for k in (1, 2, 3)]
    doubles = [t for t in view["trains"] if t["tiles"][-1].split("-")[0] ==
               t["tiles"][-1].split("-")[1]]
    view["pending_doubles"] = [{"train": t["id"], "tile": t["tiles"][-1], "order": i + 1}
                               for i, t in enumerate(doubles[:2])]
    view["last_play"] = {"seat": 0, "train": "0", "tile": view["trains"][0]["tiles"][-1]}
    view["rejection"] = {"seat": 1, "message": {"id": "rules.no_match",
                                                "args": {"end": 6, "train": "0"}}}
    view["readers"][0] = {"pad": "0", "online": False, "reason": "no answer from /dev/ttyUSB0"}
    view["alerts"] = [{"seat": 0, "message": {
        "id": "alert.reader_offline_why",
        "args": {"pad": {"id": "pad.seat", "args": {"seat": 0}},
                 "text": "no answer from /dev/ttyUSB0"}}}]
    return view


@pytest.fixture
def view() -> Callable[[str], dict[str, Any]]:
    return load


@pytest.fixture
def stress_view() -> Callable[..., dict[str, Any]]:
    return stress
