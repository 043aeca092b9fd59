"""While the table waits for a player, the table screen lays out the views it is likely to
show next (`display.rehearsal`): the next seat's turn, and the first view of the stage
that may follow (the play, the reveal, the summary, the final ranking). The first view
of a stage then finds its fonts open and its words measured, so it is drawn quickly."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pygame
import pytest
from sample_views import game

from display import shaping, table_layout, table_screen, text
from display.rehearsal import likely_next
from roundhouse.view import Phase, Stage, View

SIZE = (1920, 1080)


def forget_words() -> None:
    """Close every font and forget every word measured and text fitted."""
    for cached in (shaping.opened, shaping.runs, text.fit, text.text_width, text._line,
                   text._turned_line, text.line_height):
        cached.cache_clear()
    table_layout._PANELS.clear()
    text._MISSED_BY.clear()


def first_views(views: list[View]) -> list[int]:
    """Where each stage after the lobby starts."""
    return [i for i in range(1, len(views)) if views[i].stage != views[i - 1].stage]


def fonts_opened(views: list[View], waiting: bool) -> list[int]:
    """How many fonts the screen opened to draw each view, from a screen that has drawn
    nothing; `waiting`: the table waited after each view, and the screen drew ahead."""
    forget_words()
    painter = table_screen.Painter()
    surface = pygame.Surface(SIZE)
    counts = []
    for view in views:
        before = shaping.opened.cache_info().misses
        painter.draw(surface, view)
        counts.append(shaping.opened.cache_info().misses - before)
        if waiting:
            for _ in painter.ahead():
                pass
    return counts


@pytest.mark.parametrize("seats", (2, 8, 14))
def test_the_first_view_of_each_stage_finds_its_fonts_opened_ahead(seats):
    views = game(seats)
    firsts = first_views(views)
    assert [views[i].stage for i in firsts] == [Stage.HUNT, Stage.PLAY, Stage.REVEAL,
                                                Stage.OVER]
    straight = [fonts_opened(views, waiting=False)[i] for i in firsts]
    waited = [fonts_opened(views, waiting=True)[i] for i in firsts]
    assert all(w <= s for w, s in zip(waited, straight, strict=True)), (waited, straight)
    assert 2 * sum(waited) <= sum(straight), (waited, straight)


@pytest.mark.parametrize("seats", (2, 8, 14))
def test_the_next_stage_is_foreseen_with_the_tables_prompt(seats):
    views = game(seats)
    for i in first_views(views):
        before, first = views[i - 1], views[i]
        guesses = [g for g in likely_next(before) if g.phase == first.phase]
        assert guesses, f"{first.stage} not foreseen from {before.stage}"
        guess = guesses[0]
        assert guess.round == first.round
        assert (guess.revealed is None) == (first.revealed is None)
        if first.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            # The words of a round's end are the table's own, with their arguments.
            assert guess.prompt is not None and first.prompt is not None
            assert guess.prompt.id == first.prompt.id
            if first.stage == Stage.REVEAL:
                # The seat to play laid its last tile: the others show theirs.
                assert guess.prompt == first.prompt
                assert guess.revealed == first.revealed


@pytest.mark.parametrize("seats", (2, 8, 14))
def test_the_next_seats_turn_is_foreseen(seats):
    views = game(seats)
    passed = [(v, w) for v, w in pairwise(views)
              if v.phase == w.phase == Phase.PLAY and w.turn not in (None, v.turn)]
    assert len(passed) > 10
    foreseen = [w.turn == likely_next(v)[0].turn for v, w in passed]
    assert sum(foreseen) >= 0.9 * len(passed)


def test_after_a_rounds_summary_the_next_round_is_foreseen():
    reveal = next(v for v in game(8) if v.stage == Stage.REVEAL)
    summary = replace(reveal, stage=Stage.SUMMARY, revealed=None, rounds=3)
    phases = [(g.phase, g.round) for g in likely_next(summary)]
    assert (Phase.PLAY, 2) in phases and (Phase.DEAL, 2) in phases
    play = next(g for g in likely_next(summary) if g.phase == Phase.PLAY)
    assert play.trains == () and play.turn is not None

    # Not the last round: the reveal leads to the summary; the last: to the ranking.
    (after,) = likely_next(replace(reveal, rounds=3))
    assert after.stage == Stage.SUMMARY and after.prompt is not None
    assert after.prompt.id in ("prompt.summary_out", "prompt.summary_blocked")
    (last,) = likely_next(reveal)
    assert last.stage == Stage.OVER and last.ranking is not None
    totals = [reveal.seats[s].total for s in last.ranking]
    assert totals == sorted(totals)


def test_an_empty_lobby_foresees_nothing():
    lobby = replace(game(8)[0], seats=())
    assert likely_next(lobby) == ()


def test_each_guess_is_laid_out_once_a_round(monkeypatch):
    views = game(8)
    # A seat with its last tile: the round may end at the next move.
    view = next(v for v in views if v.stage == Stage.PLAY and v.turn is not None
                and any(s.hand == 1 for s in v.seats))
    painter = table_screen.Painter()
    painter.draw(pygame.Surface(SIZE), view)
    laid: list[View] = []

    def counted(v: View, size: tuple[int, int]) -> table_layout.TableLayout:
        laid.append(v)
        return table_layout.layout(v, size)

    monkeypatch.setattr(table_screen, "layout", counted)
    for _ in painter.ahead():
        pass
    assert [v.phase for v in laid] == [Phase.PLAY, Phase.ROUND_OVER]
    laid.clear()
    for _ in painter.ahead():
        pass
    assert laid == []  # the same view again, while the table still waits
