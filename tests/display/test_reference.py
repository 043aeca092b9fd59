"""Key screens compared with reference pictures, within a tolerance (fonts may be
smoothed a little differently from one machine to the next).

After an intended change of the look, regenerate the pictures and look at them:

    ROUNDHOUSE_REGEN_REFERENCE=1 python -m pytest tests/display/test_reference.py
"""

import json
import os
from pathlib import Path

import pygame
import pytest
from sample_views import as_view

from display import table_screen, wall_screen

HERE = Path(__file__).resolve().parent
VIEWS = HERE.parent / "views"
REFERENCE = HERE / "reference"
SCREENS = {"table": table_screen.render, "wall": wall_screen.render}
CASES = [
    ("table", "busy_8", (1280, 800)),
    ("table", "two_pending_5", (1280, 720)),
    ("table", "chicken_foot_4", (1080, 1920)),
    ("wall", "play_14", (1280, 800)),
    ("wall", "game_over_8", (800, 480)),
]
# Screens in other languages, made from sample views and said from the catalogues:
# (screen, name, sample, size, how).
NAMES = {"fa": "فرشته", "ar": "فريد", "te": "రాము", "lt": "Gintarė", "el": "Ελένη"}
WALL_NAMES = ("فرشته", "فريد", "రాము", "Gintarė", "Ελένη", "Bo", "علی‌رضا", "వెంకట లక్ష్మి")
def _wall_in(lang: str, view: dict) -> dict:
    view["wall_language"] = lang
    for seat, name in zip(view["seats"], WALL_NAMES, strict=False):
        seat["name"] = name
    return view


def _four_languages(view: dict) -> dict:
    for seat, lang in zip(view["seats"], ("fa", "te", "ar", "lt"), strict=True):
        seat["language"] = lang
        seat["name"] = NAMES[lang]
    view["language"] = "en"
    return view


LANGUAGE_CASES = [
    ("wall", "fa", "play_8", (1280, 800), lambda v: _wall_in("fa", v)),
    ("wall", "ar", "play_8", (1280, 800), lambda v: _wall_in("ar", v)),
    ("wall", "te", "play_8", (1280, 800), lambda v: _wall_in("te", v)),
    ("table", "four_languages", "play_4", (1280, 800), _four_languages),
]
CHANNEL_TOLERANCE = 40  # per colour channel, for anti-aliasing differences
PIXEL_SHARE = 0.005  # at most this share of pixels may differ beyond it


@pytest.mark.parametrize(("screen", "name", "size"), CASES,
                         ids=[f"{s}-{n}-{w}x{h}" for s, n, (w, h) in CASES])
def test_key_screens_match_their_reference(screen, name, size):
    view = json.loads((VIEWS / f"{name}.json").read_text(encoding="utf-8"))
    surface = pygame.Surface(size)
    SCREENS[screen](surface, as_view(view))
    _compare(surface, REFERENCE / f"{screen}-{name}-{size[0]}x{size[1]}.png")


@pytest.mark.parametrize(("screen", "name", "sample", "size", "how"), LANGUAGE_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in LANGUAGE_CASES])
def test_screens_in_other_languages_match_their_reference(screen, name, sample, size, how):
    view = how(json.loads((VIEWS / f"{sample}.json").read_text(encoding="utf-8")))
    surface = pygame.Surface(size)
    SCREENS[screen](surface, as_view(view))
    _compare(surface, REFERENCE / f"{screen}-{name}-{size[0]}x{size[1]}.png")


def _compare(surface: pygame.Surface, path: Path) -> None:
    size = surface.get_size()
    if os.environ.get("ROUNDHOUSE_REGEN_REFERENCE") == "1":
        REFERENCE.mkdir(exist_ok=True)
        pygame.image.save(surface, str(path))
        pytest.skip(f"regenerated {path.name}")
    assert path.exists(), f"{path.name} is missing: run with ROUNDHOUSE_REGEN_REFERENCE=1"
    reference = pygame.image.load(str(path))
    assert reference.get_size() == size
    tolerance = (CHANNEL_TOLERANCE,) * 3 + (255,)
    similar = pygame.transform.threshold(None, surface, None, threshold=tolerance,
                                         set_behavior=0, search_surf=reference)
    differing = size[0] * size[1] - similar
    assert differing <= PIXEL_SHARE * size[0] * size[1], (
        f"{differing} pixels differ from {path.name}"
    )


def test_the_comparison_catches_a_real_change():
    view = json.loads((VIEWS / "busy_8.json").read_text(encoding="utf-8"))
    surface = pygame.Surface((1280, 800))
    table_screen.render(surface, as_view(view))
    view["turn"] = (view["turn"] + 1) % len(view["seats"])
    changed = pygame.Surface((1280, 800))
    table_screen.render(changed, as_view(view))
    tolerance = (CHANNEL_TOLERANCE,) * 3 + (255,)
    similar = pygame.transform.threshold(None, changed, None, threshold=tolerance,
                                         set_behavior=0, search_surf=surface)
    assert 1280 * 800 - similar > PIXEL_SHARE * 1280 * 800
