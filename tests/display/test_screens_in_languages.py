"""The screens for readers of other languages: each seat's panel and the wall in their
reader's direction and digits, the tiles' pips the same for everyone."""

from __future__ import annotations

import copy
from typing import Any

import pygame
from sample_views import as_view, plain

from display import shaping, text, wall_screen
from display.table_layout import layout as table_layout
from display.text import Text
from display.wall_layout import layout as wall_layout


def _in(lang: str, sample: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(sample)
    out["wall_language"] = lang
    return out


def _reading(item: Text) -> str:
    return " ".join(item.lines)


def test_the_wall_writes_scores_in_persian_and_arabic_digits(view):
    sample = view("play_4")  # totals 4, 2, 49, 56
    for lang, digits in (("fa", "۰۱۲۳۴۵۶۷۸۹"), ("ar", "٠١٢٣٤٥٦٧٨٩")):
        wall = wall_layout(as_view(_in(lang, sample)), (1280, 800))
        numbers = {_reading(t) for t in wall.key_numbers}
        assert text.numerals(49, lang) in numbers and text.numerals(56, lang) in numbers
        said = "".join(_reading(t) for t in wall.texts if t in wall.key_numbers)
        assert not set("0123456789") & set(said)
        assert set(said) & set(digits)
    english = {_reading(t) for t in wall_layout(as_view(sample), (1280, 800)).key_numbers}
    assert {"49", "56"} <= english


def test_a_right_to_left_wall_is_mirrored_with_the_names_on_the_right(view):
    sample = view("play_4")
    width = 1280
    left = wall_layout(as_view(sample), (width, 800))
    right = wall_layout(as_view(_in("fa", sample)), (width, 800))
    names = {s["name"] for s in sample["seats"]}
    for wall, on_right in ((left, False), (right, True)):
        boxes = [t for t in wall.texts if _reading(t) in names]
        assert len(boxes) == 4
        for item in boxes:
            x, _, w, _ = item.box
            assert (x + w / 2 > width / 2) == on_right, (item.lines, item.box)
            assert item.align == ("right" if on_right else "left")
            assert item.rtl == on_right


def test_the_tiles_keep_their_pips_in_every_language(view):
    sample = view("play_4")
    size = (1280, 800)
    english, persian = pygame.Surface(size), pygame.Surface(size)
    wall_screen.render(english, as_view(sample))
    wall_screen.render(persian, as_view(_in("fa", sample)))
    tiles_en = wall_layout(as_view(sample), size).tiles
    tiles_fa = wall_layout(as_view(_in("fa", sample)), size).tiles
    assert [(t.a, t.b) for t in tiles_en] == [(t.a, t.b) for t in tiles_fa]
    for a, b in zip(tiles_en, tiles_fa, strict=True):
        assert a.rect[2:] == b.rect[2:]
        look_en = pygame.image.tobytes(english.subsurface(a.rect), "RGB")
        look_fa = pygame.image.tobytes(persian.subsurface(b.rect), "RGB")
        assert look_en == look_fa, f"tile {a.a}-{a.b} is drawn differently in Persian"


def test_each_seat_s_panel_reads_in_its_own_language(view):
    sample = copy.deepcopy(view("play_4"))
    for seat, lang in zip(sample["seats"], ("fa", "te", "ar", "lt"), strict=True):
        seat["language"] = lang
    lay = table_layout(as_view(sample), (1280, 800))
    for panel in lay.panels:
        if panel.seat is None:
            continue
        info = sample["seats"][panel.seat]
        rtl = text.reads_rtl(info["language"])
        inside = [t for t in lay.texts if _inside(t.box, panel.rect)]
        [name] = [t for t in inside if _reading(t) == info["name"]]
        assert name.rtl == rtl
        # The name starts at the reader's right in a right-to-left panel, left otherwise.
        assert name.align == ("right" if rtl else "left")
        assert _on_readers_right(name.box, panel.rect, panel.angle) == rtl
        # Its points, in its language's digits (Persian ۰-۹, Arabic ٠-٩).
        total = text.numerals(info["total"], info["language"])
        assert any(total in _reading(t) for t in inside if t is not name)
        if info["language"] in ("fa", "ar"):
            assert total != str(info["total"])


def test_a_name_in_the_hub_keeps_its_own_count_beside_it(view):
    sample = copy.deepcopy(view("round_over_5"))  # Bo still to show his leftover tiles
    sample["seats"][0]["name"] = "فرشته"
    lay = table_layout(as_view(sample), (1280, 800))
    hub = pygame.Rect(lay.hub)
    [prompt] = [t for t in lay.texts if "PASS" in _reading(t) and hub.contains(t.box)]
    seen = plain(shaping.shown(_reading(prompt), prompt.rtl))
    # Read left to right: the name (its letters reversed on screen), then its own 0/8.
    assert "فرشته"[::-1] + " 0/8" in seen


def _inside(box: tuple[int, int, int, int], rect: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    rx, ry, rw, rh = rect
    return rx <= x and ry <= y and x + w <= rx + rw and y + h <= ry + rh


def _on_readers_right(box: tuple[int, int, int, int], rect: tuple[int, int, int, int],
                      angle: int) -> bool:
    """Whether `box` lies in the half of `rect` at the right hand of a reader facing it at
    `angle` degrees counter-clockwise."""
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    mx, my = rect[0] + rect[2] / 2, rect[1] + rect[3] / 2
    return {0: cx > mx, 180: cx < mx, 90: cy < my, 270: cy > my}[angle]


def test_the_players_waiting_on_an_arabic_wall_are_listed_right_to_left(view):
    sample = _in("ar", view("lobby_6"))
    joined = [s["name"] for s in sample["seats"] if s.get("joined", True)]
    wall = wall_layout(as_view(sample), (1280, 800))
    [listed] = [t for t in wall.texts if all(n in _reading(t) for n in joined[:2])]
    seen = shaping.shown(_reading(listed), True)
    # Read right to left, the first to join comes first: rightmost on the screen.
    assert seen.rindex(joined[0]) > seen.rindex(joined[1])
    english = wall_layout(as_view(view("lobby_6")), (1280, 800))
    [listed] = [t for t in english.texts if all(n in _reading(t) for n in joined[:2])]
    seen = shaping.shown(_reading(listed), False)
    assert seen.index(joined[0]) < seen.index(joined[1])
