"""The league wall's picture in docs/game-night.md is what the wall draws today, and
every phone picture the guide shows is there (docs/phone_pictures.py makes them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pygame

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _script():
    spec = importlib.util.spec_from_file_location("phone_pictures", DOCS / "phone_pictures.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_league_wall_picture_is_what_the_wall_draws() -> None:
    script = _script()
    kept = pygame.image.load(str(DOCS / script.LEAGUE_WALL))
    drawn = script.draw_league_wall()
    assert kept.get_size() == drawn.get_size()
    tolerance = (40, 40, 40, 255)
    similar = pygame.transform.threshold(None, drawn, None, threshold=tolerance,
                                         set_behavior=0, search_surf=kept)
    width, height = kept.get_size()
    assert width * height - similar <= 0.005 * width * height, (
        "docs/league-wall.png is not what the league's wall draws: run "
        "python docs/phone_pictures.py")


def test_every_phone_picture_is_kept() -> None:
    for picture in _script().PICTURES:
        kept = pygame.image.load(str(DOCS / picture.path))
        assert kept.get_width() == picture.size[0], picture.path
