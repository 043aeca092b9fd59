"""Names in the case their sentence needs, on the screens and aloud: a Greek table says
"στο τρένο του Νίκου" in its hub and "Του Νίκου έμεινε μία πέτρα!" aloud, a Lithuanian
one "Jonui liko viena plytelė!", and the configuration's forms reach both through the
view."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame
from sample_views import as_view, plain

from display import table_screen, wall_screen
from display.table_layout import layout as table_layout
from display.wall_layout import layout as wall_layout
from display.wall_layout import prompt_text
from roundhouse.speech import announcements

GREEK = ["Νίκος", "Μαρία", "Ali", "Ελένη"]
NIKOLAKIS = {"el": {"genitive": "του Νικολάκη", "vocative": "Νικολάκη"}}


def _reading(sample: dict[str, Any], lang: str, names: list[str]) -> dict[str, Any]:
    sample["language"] = sample["wall_language"] = lang
    for seat, name in zip(sample["seats"], names, strict=True):
        seat["language"] = lang
        seat["name"] = name
    for train in sample["trains"]:
        if train["owner"] is not None:
            train["name"] = names[train["owner"]]
    return sample


def test_a_greek_table_says_the_names_in_their_cases_in_the_hub_and_on_the_wall(view):
    sample = _reading(view("play_4"), "el", GREEK)  # the prompt: seat 1, satisfy on train 0
    shown = as_view(sample)
    hub = " ".join(plain(" ".join(t.lines)) for t in table_layout(shown, (1920, 1080)).texts)
    assert "Μαρία: καλύψτε το διπλό 11-11 στο τρένο του Νίκου" in hub
    assert plain(prompt_text(shown) or "") == (
        "Μαρία: καλύψτε το διπλό 11-11 στο τρένο του Νίκου")
    sample["seats"][0]["forms"] = NIKOLAKIS
    sample["seats"][1]["gender"] = "feminine"
    shown = as_view(sample)
    assert plain(prompt_text(shown) or "").endswith("στο τρένο του Νικολάκη")
    for size in ((1920, 1080), (800, 480)):
        surface = pygame.Surface(size)
        table_screen.render(surface, shown)
        wall_screen.render(surface, shown)


def test_a_greek_game_over_and_round_end_draw_with_a_name_of_another_script(view):
    for name in ("game_over_8", "reveal_8", "lobby_6"):
        sample = view(name)
        names = (GREEK * 4)[:len(sample["seats"])]
        shown = as_view(_reading(sample, "el", names))
        surface = pygame.Surface((1280, 800))
        table_screen.render(surface, shown)
        wall_screen.render(surface, shown)
    over = as_view(_reading(view("game_over_8"), "el", (GREEK * 2)[:8]))
    words = " ".join(plain(" ".join(t.lines)) for t in wall_layout(over, (1920, 1080)).texts)
    assert "κερδίζει " in words and "/" not in words.replace("DRAW", "")


def test_speech_says_the_greek_names_in_their_cases(view):
    sample = _reading(view("play_4"), "el", GREEK)
    play = as_view(sample)
    (turn,) = announcements(None, replace(play, pending_doubles=()))
    assert turn.text == "Μαρία, σειρά σας"
    moved = replace(play, turn=0, pending_doubles=())
    (turn,) = announcements(play, moved)
    assert turn.text == "Νίκο, σειρά σας"
    lonely = replace(moved, seats=tuple(replace(s, one_tile=i in (0, 2))
                                        for i, s in enumerate(moved.seats)))
    said = {a.text for a in announcements(moved, lonely)}
    assert said == {"Του Νίκου έμεινε μία πέτρα!", "Του παίκτη Ali έμεινε μία πέτρα!"}
    # The configuration's forms, carried by the view.
    sample["seats"][0]["forms"] = NIKOLAKIS
    sample["seats"][2]["gender"] = "masculine"
    forms = as_view(sample)
    moved = replace(forms, turn=0, pending_doubles=())
    (turn,) = announcements(replace(forms, pending_doubles=()), moved)
    assert turn.text == "Νικολάκη, σειρά σας"
    lonely = replace(moved, seats=tuple(replace(s, one_tile=i in (0, 2))
                                        for i, s in enumerate(moved.seats)))
    said = {a.text for a in announcements(moved, lonely)}
    assert said == {"Του Νικολάκη έμεινε μία πέτρα!", "Του Ali έμεινε μία πέτρα!"}


def test_speech_says_the_lithuanian_names_in_their_cases(view):
    sample = _reading(view("play_4"), "lt", ["Jonas", "Eglė", "Eli", "Seat 4"])
    play = as_view(sample)
    moved = replace(play, turn=0, pending_doubles=(),
                    seats=tuple(replace(s, one_tile=False) for s in play.seats))
    (turn,) = announcements(play, moved)
    assert turn.text == "Jonai, jūsų ėjimas"
    lonely = replace(moved, seats=tuple(replace(s, one_tile=True) for s in moved.seats))
    said = {a.text for a in announcements(moved, lonely)}
    # Seat 4 has no name of its own: "vieta 4", in the dative.
    assert said == {"Jonui liko viena plytelė!", "Eglei liko viena plytelė!",
                    "Eli liko viena plytelė!", "Vietai 4 liko viena plytelė!"}


def test_a_seat_without_a_name_is_said_by_number_in_its_case_on_the_screens(view):
    sample = _reading(view("play_4"), "el", ["Seat 1", "Μαρία", " ", "Ελένη"])
    shown = as_view(sample)
    assert plain(prompt_text(shown) or "").endswith("στο τρένο της θέσης 1")
    hub = " ".join(plain(" ".join(t.lines)) for t in table_layout(shown, (1920, 1080)).texts)
    assert "Θέση 1" in hub  # its panel's name, as ever
