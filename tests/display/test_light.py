"""What a screen costs a small Pi: it redraws only when the view shows something new,
drawing every sample view in six languages holds no file open and keeps its caches
bounded (figures: benchmarks/display_memory.py), and a whole round opens each font it
needs once."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from fakes import QueueFeed
from sample_views import all_view_names, as_view, game, load

from display import shaping, table_screen, text, wall_screen
from display.client import Follower, FrameSink, changed, in_language


def test_the_same_table_published_again_is_not_drawn_again(tmp_path):
    first = as_view(load("busy_8"))
    again = replace(first, seq=first.seq + 1)  # a new number, nothing else new
    moved = replace(first, seq=first.seq + 2, boneyard=first.boneyard - 1)
    assert not changed(again, first) and changed(moved, first) and changed(first, None)
    follower = Follower(QueueFeed([first, again, again, moved, moved]),
                        FrameSink(tmp_path, (640, 400), "table"), "table", animate=False)
    for _ in range(6):
        follower.step()
    assert follower.redraws == 2
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        f"table-{first.seq:06d}.png", f"table-{moved.seq:06d}.png"]


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_drawing_every_view_in_six_languages_opens_no_file_for_good():
    pygame.init()
    surface = pygame.Surface((1280, 720))
    table_screen.render(surface, as_view(load("play_4")))
    before = _open_files()
    for lang in ("en", "fa", "ar", "lt", "el", "te"):
        for name in all_view_names():
            view = as_view(load(name))
            table_screen.render(surface, in_language(view, "table", lang))
            wall_screen.render(surface, in_language(view, "wall", lang))
    # 512 fonts each held its file open: 465 and 637 open files on the two screens.
    assert _open_files() <= before + 2
    # 48 fonts keep a round's words from reopening fonts (the table screen held 74 MiB
    # after every sample view, under its 80 MiB goal).
    assert shaping.opened.cache_info().currsize <= shaping.FONT_CACHE <= 64
    assert text._line.cache_info().currsize <= text.LINE_CACHE


def test_one_font_serves_every_size_script_and_direction_that_opens_the_same_pixels():
    pygame.init()
    default, dejavu, numerals = shaping.DEFAULT, shaping.DEJAVU, shaping.NUMERALS
    assert default.pixels(32) == default.pixels(33) == 22  # the default font's sizes, cut down
    assert shaping.font(default, 32) is shaping.font(default, 33)
    assert shaping.font(default, 33) is not shaping.font(default, 34)
    # DejaVu Sans for words (0.62 of the size) and for numbers (0.78): one file, 31 px.
    assert dejavu.pixels(50) == numerals.pixels(40) == 31
    assert shaping.font(dejavu, 50) is shaping.font(numerals, 40)
    # Set up for the script and direction asked for, each time it is asked for.
    word = "\u0628\u0627\u0632\u06cc"  # Persian "game", its letters joined right to left
    joined = shaping.font(dejavu, 50, "Arab", rtl=True).render(word, True, (255, 255, 255))
    apart = shaping.font(dejavu, 50).render(word, True, (255, 255, 255))
    again = shaping.font(dejavu, 50, "Arab", rtl=True).render(word, True, (255, 255, 255))
    assert pygame.image.tobytes(joined, "RGBA") != pygame.image.tobytes(apart, "RGBA")
    assert pygame.image.tobytes(joined, "RGBA") == pygame.image.tobytes(again, "RGBA")
    # Beyond the sizes a face keeps worked out, as below them.
    assert default.pixels(1000) == 687 and dejavu.pixels(1000) == 620
    assert shaping.font(default, 1000).get_height() > shaping.font(default, 500).get_height()


@pytest.mark.parametrize(("seats", "lang"), [(8, None), (8, "el"), (14, None)])
def test_a_whole_round_drawn_in_order_opens_each_font_once(seats, lang, monkeypatch):
    """A font opened again loads its letters again, the slow part of a new view's words.
    Fonts were kept by nominal size, script and direction, and a 14-seat round asked for
    93 where 46 were distinct in pixels: more than the screen keeps, so it reopened fonts
    369 times. In Persian, Greek and Telugu the scripts and directions split them further."""
    pygame.init()
    for cached in (shaping.opened, text.fit, text.text_width, text._line, text._turned_line):
        cached.cache_clear()
    real = shaping.opened
    asked: set[tuple[str, int]] = set()

    def opened(file: str, pixels: int) -> pygame.font.Font:
        asked.add((file, pixels))
        return real(file, pixels)

    monkeypatch.setattr(shaping, "opened", opened)
    surface = pygame.Surface((1920, 1080))
    painter = table_screen.Painter()
    for view in game(seats):
        painter.draw(surface, in_language(view, "table", lang) if lang else view)
    assert len(asked) > 30  # the round's words at their many sizes
    assert real.cache_info().misses == len(asked)


def test_the_display_unit_limits_a_screen_to_64_open_files():
    unit = Path(__file__).resolve().parents[2] / "systemd" / "roundhouse-display@.service"
    assert "\nLimitNOFILE=64\n" in unit.read_text(encoding="utf-8")
