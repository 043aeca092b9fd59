"""What the phone page is sent of a table: what the wall shows, in the phone's
language, never more."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from gamenight.board import board, negotiate
from roundhouse.render import languages
from roundhouse.view import load_view

VIEWS = Path(__file__).resolve().parents[1] / "views"


def test_the_phone_gets_the_counts_of_hands_never_a_tile_of_them() -> None:
    view = load_view(VIEWS / "play_6.json")
    sent = json.dumps(board(view, "en"))
    for seat in board(view, "en")["seats"]:
        assert set(seat) == {"seat", "name", "colour", "tiles", "points", "turn", "one_tile"}
    # Nothing of the trains either (the page has no use for them): only open doubles.
    doubles = {d.tile for d in view.pending_doubles}
    laid = {t for train in view.trains for t in train.tiles} - doubles
    assert laid and not any(f'"{tile}' in sent or f" {tile} " in sent for tile in laid)


def test_the_open_doubles_are_said_with_their_trains() -> None:
    view = load_view(VIEWS / "play_6.json")
    assert board(view, "en")["doubles"] == ["7-7 on Bo's train"]
    assert board(view, "fa")["doubles"] == ["7-7 روی قطار Bo"]


def test_numbers_and_seats_without_names_are_said_in_the_language() -> None:
    view = load_view(VIEWS / "play_6.json")
    shown = board(view, "fa")
    assert shown["dir"] == "rtl"
    assert all(ch in "۰۱۲۳۴۵۶۷۸۹" for ch in shown["history"]["totals"][0])
    assert "0" not in shown["seats"][0]["tiles"]


def test_a_game_over_shows_the_ranking_best_first() -> None:
    view = load_view(VIEWS / "game_over_8.json")
    shown = board(view, "en")
    assert view.ranking is not None
    assert [r["name"] for r in shown["ranking"]] == [view.seats[s].name for s in view.ranking]
    assert shown["headline"].startswith("Game over")
    assert len(shown["chart"]["running"]) == len(view.scores)
    assert shown["chart"]["running"][-1] == list(view.totals)


def test_the_phones_first_language_that_the_table_speaks_is_chosen() -> None:
    assert negotiate("fa-IR,fa;q=0.9,en-US;q=0.8,en;q=0.7") == "fa"
    assert negotiate("de-DE,de;q=0.9,lt;q=0.5,el;q=0.6") == "el"
    assert negotiate("de, te;q=0") == "en"
    assert negotiate("*", fallback="ar") == "ar"
    assert negotiate(None, fallback="lt") == "lt"


@given(st.text(max_size=80))
def test_any_header_gives_a_language_the_table_speaks(header: str) -> None:
    assert negotiate(header) in languages()
