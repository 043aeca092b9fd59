"""What a screen costs a small Pi: it redraws only when the view shows something new, and
drawing every sample view in six languages holds no file open and keeps its caches
bounded (figures: benchmarks/display_memory.py)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pygame
from fakes import QueueFeed
from sample_views import all_view_names, as_view, load

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
    # 64 fonts keep a new view's words from reopening fonts over and over (the table
    # screen held 73 MiB after every sample view, under its 80 MiB goal).
    assert shaping.font.cache_info().currsize <= shaping.FONT_CACHE <= 64
    assert text._line.cache_info().currsize <= text.LINE_CACHE


def test_the_display_unit_limits_a_screen_to_64_open_files():
    unit = Path(__file__).resolve().parents[2] / "systemd" / "roundhouse-display@.service"
    assert "\nLimitNOFILE=64\n" in unit.read_text(encoding="utf-8")
