"""The screens say the view's messages in their readers' languages: each seat's panel
and rejection in the seat's, the wall in its own, `--lang` for a screen of its own."""

from __future__ import annotations

import pygame
import pytest
from sample_views import as_view, plain

from display.client import in_language
from display.table_layout import layout as table_layout
from display.wall_layout import layout as wall_layout
from roundhouse.messages import message


def said(lay, rect=None) -> str:
    box = pygame.Rect(rect) if rect else None
    return plain(" ".join(" ".join(t.lines) for t in lay.texts
                          if box is None or box.contains(t.box)))


def test_the_wall_speaks_its_own_language(view):
    sample = view("play_4")
    assert "satisfy the" in said(wall_layout(as_view(sample), (1280, 800)))
    sample["wall_language"] = "fa"
    assert "پاسخ دهید" in said(wall_layout(as_view(sample), (1280, 800)))


def test_the_hub_says_the_prompt_in_the_language_of_the_seat_to_play(view):
    sample = view("play_4")
    sample["seats"][sample["turn"]]["language"] = "lt"
    lay = table_layout(as_view(sample), (1280, 800))
    assert "patenkinkite dvigubą" in said(lay, lay.hub)


def test_a_rejection_is_said_in_the_language_of_the_seat_that_acted(view):
    sample = view("open_hands_6")
    sample["seats"][sample["rejection"]["seat"]]["language"] = "el"
    lay = table_layout(as_view(sample), (1280, 800))
    assert "δεν ταιριάζει με το ανοιχτό 6" in said(lay, lay.hub)


def test_lang_gives_a_screen_a_language_of_its_own(view):
    sample = as_view(view("reader_offline_6"))
    wall = in_language(sample, "wall", "ar")
    assert wall.wall_language == "ar" and sample.wall_language == "en"
    assert "أكمل المزدوج" in said(wall_layout(wall, (1280, 800)))
    table = in_language(sample, "table", "te")
    assert {s.language for s in table.seats} == {"te"}
    lay = table_layout(table, (1280, 800))
    assert "రీడర్ ఆఫ్‌లైన్‌లో ఉంది" in said(lay)
    assert in_language(sample, "table", None) is sample


def test_each_panel_speaks_its_seats_language(view):
    sample = view("play_4")
    for seat, lang in zip(sample["seats"], ("fa", "ar", "lt", "el"), strict=True):
        seat["language"] = lang
    lay = table_layout(as_view(sample), (1280, 800))
    panels = {p.seat: p for p in lay.panels}
    tiles = {0: "دومینو", 1: "قطع", 2: "plytel", 3: "πέτρ"}
    for seat, word in tiles.items():
        assert word in said(lay, panels[seat].rect), (seat, said(lay, panels[seat].rect))
    # The turn's panel says so in its own words, and its points in its own digits.
    turn = sample["turn"]
    assert {1: "دورك"}.get(turn, "") in said(lay, panels[turn].rect)
    total = sample["seats"][0]["total"]
    assert "".join("۰۱۲۳۴۵۶۷۸۹"[int(d)] for d in str(total)) in said(lay, panels[0].rect)


def test_the_walls_own_words_are_in_its_language(view):
    sample = view("game_over_8")
    sample["wall_language"] = "el"
    words = said(wall_layout(as_view(sample), (1920, 1080)))
    assert "Τέλος παιχνιδιού: κερδίζει ο παίκτης Bo" in words


def test_the_waiting_screen_speaks_the_screens_language(monkeypatch):
    from display import waiting_screen

    drawn: list[str] = []
    monkeypatch.setattr(waiting_screen.text, "draw",
                        lambda surface, item: drawn.append(" ".join(item.lines)))
    waiting_screen.render(pygame.Surface((800, 480)), "/run/roundhouse/view.sock", "el")
    assert drawn[0] == "Αναμονή για το τραπέζι…"
    assert "/run/roundhouse/view.sock" in drawn[1]


def test_the_walls_scores_and_places_are_in_its_languages_digits(view):
    sample = view("game_over_8")
    english = said(wall_layout(as_view(sample), (1920, 1080)))
    assert "1st" in english and str(sample["totals"][sample["ranking"][0]]) in english
    sample["wall_language"] = "fa"
    persian = said(wall_layout(as_view(sample), (1920, 1080)))
    best = sample["totals"][sample["ranking"][0]]
    assert "".join("۰۱۲۳۴۵۶۷۸۹"[int(d)] for d in str(best)) in persian
    assert "1st" not in persian


LANGS = ("en", "fa", "ar", "lt", "el", "te", "en", "fa")


def _mixed(sample):
    for i, seat in enumerate(sample["seats"]):
        seat["language"] = LANGS[i % len(LANGS)]
    return sample


def _panel(lay, seat):
    panel = next(p for p in lay.panels if p.seat == seat)
    box = pygame.Rect(panel.rect)
    return panel, [t for t in lay.texts if box.contains(t.box)]


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_seat_still_to_show_its_tiles_is_told_in_its_language_facing_it(size, view):
    """In an 8-seat mixed reveal the one Arabic seat still to act was told in English, in
    the hub facing the bottom edge: now each such seat reads it in its own panel."""
    from roundhouse.render import render

    sample = _mixed(view("reveal_8"))
    lay = table_layout(as_view(sample), size)
    for seat, shown in enumerate(sample["revealed"]):
        lang = sample["seats"][seat]["language"]
        told = render(message("screen.show_tiles"), lang)
        panel, mine = _panel(lay, seat)
        said = [t for t in mine if plain(" ".join(t.lines)).replace("  ", " ") == told
                or told.startswith(plain(t.lines[0]))]
        if shown is None:
            assert said, (seat, lang, [t.lines for t in mine])
            assert all(t.angle == panel.angle for t in said)
            assert not any("…" in ln for t in said for ln in t.lines)
        else:
            assert not said, (seat, lang)


@pytest.mark.parametrize(("name", "message_id"), [("summary_8", "screen.hold_next"),
                                                   ("game_over_8", "screen.hold_new_game")])
def test_every_seat_is_told_how_to_go_on_in_its_language(name, message_id, view):
    from roundhouse.render import render

    sample = _mixed(view(name))
    lay = table_layout(as_view(sample), (1920, 1080))
    for seat, info in enumerate(sample["seats"]):
        told = render(message(message_id), info["language"])
        _, mine = _panel(lay, seat)
        assert any(told.startswith(plain(t.lines[0])) for t in mine), (seat, told)
