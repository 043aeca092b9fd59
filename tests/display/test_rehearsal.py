"""While the table waits for a player, the table screen lays out the views it is likely to
show next (`display.rehearsal`): the next seat's turn, and the first view of the stage
that may follow (the play, the reveal, the summary, the final ranking). The first view
of a stage then finds its fonts open and its words measured, so it is drawn quickly."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise

import pygame
import pytest
from sample_views import game

from display import ink, names, shaping, table_layout, table_screen, text, tiles
from display.rehearsal import likely_next
from roundhouse.view import Phase, Stage, View

SIZE = (1920, 1080)


def forget_words() -> None:
    """A screen that has drawn nothing: every font closed, every word measured and text
    fitted forgotten, and every layout."""
    for module in (ink, names, shaping, table_layout, text, tiles):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    table_layout._PANELS.clear()
    text._MISSED_BY.clear()
    shaping._HAS.clear()
    names._recent.clear()


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
    straight, waited = fonts_opened(views, waiting=False), fonts_opened(views, waiting=True)
    straight, waited = [straight[i] for i in firsts], [waited[i] for i in firsts]
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
    assert [t.id for t in play.trains] == [t.id for t in summary.trains]
    assert all(not t.tiles for t in play.trains) and play.turn is not None

    # Not the last round: the reveal leads to the summary; the last: to the ranking.
    (after,) = likely_next(replace(reveal, rounds=3))
    assert after.stage == Stage.SUMMARY and after.prompt is not None
    assert after.prompt.id in ("prompt.summary_out", "prompt.summary_blocked")
    (last,) = likely_next(reveal)
    assert last.stage == Stage.OVER and last.ranking is not None
    totals = [reveal.seats[s].total for s in last.ranking]
    assert totals == sorted(totals)


def test_a_lobby_nobody_joined_foresees_nothing():
    lobby = game(8)[0]
    assert not any(s.joined for s in lobby.seats)
    assert likely_next(lobby) == ()


def test_a_game_foreseen_from_the_lobby_seats_those_who_joined():
    lobby = game(8)[0]
    seats = tuple(replace(s, joined=s.seat in (1, 4, 6)) for s in lobby.seats)
    play, deal = likely_next(replace(lobby, seats=seats))
    for view in (play, deal):
        assert [(s.seat, s.name) for s in view.seats] == [
            (0, seats[1].name), (1, seats[4].name), (2, seats[6].name)]
    # As the table shows a round's first play: every train there, and empty.
    assert [t.owner for t in play.trains] == [0, 1, 2, None]
    assert all(not t.tiles for t in play.trains) and play.turn == 0


def test_each_guess_is_laid_out_once_a_round(monkeypatch):
    views = game(8)
    # A seat with its last tile: the round may end at the next move.
    view = next(v for v in views if v.stage == Stage.PLAY and v.turn is not None
                and any(s.hand == 1 for s in v.seats))
    painter = table_screen.Painter()
    painter.draw(pygame.Surface(SIZE), view)
    laid: list[View] = []

    def counted(v: View, size: tuple[int, int]) -> Iterator[None]:
        laid.append(v)
        return table_layout.layout_steps(v, size)

    monkeypatch.setattr(table_screen, "layout_steps", counted)
    for _ in painter.ahead():
        pass
    assert [v.phase for v in laid] == [Phase.PLAY, Phase.ROUND_OVER]
    laid.clear()
    for _ in painter.ahead():
        pass
    assert laid == []  # the same view again, while the table still waits

    # The next view of the round foresees its own next turn; the round's end, foreseen
    # with the same words, is not laid out again.
    later = replace(view, turn=likely_next(view)[0].turn, seq=view.seq + 1)
    painter.draw(pygame.Surface(SIZE), later)
    laid.clear()
    for _ in painter.ahead():
        pass
    assert [(v.phase, v.turn) for v in laid] == [(Phase.PLAY, likely_next(later)[0].turn)]

    # A new round, or a new game of one round after the last, forgets what was foreseen.
    summary = replace(view, phase=Phase.ROUND_OVER, stage=Stage.SUMMARY, rounds=2)
    over = replace(view, phase=Phase.GAME_OVER, stage=Stage.OVER)
    for before, fresh in ((over, view), (summary, replace(view, round=2, rounds=2))):
        painter.draw(pygame.Surface(SIZE), before)
        for _ in painter.ahead():
            pass
        painter.draw(pygame.Surface(SIZE), fresh)
        laid.clear()
        for _ in painter.ahead():
            pass
        assert [v.phase for v in laid] == [Phase.PLAY, Phase.ROUND_OVER]


def test_a_seat_that_changes_its_language_is_foreseen_in_it(monkeypatch):
    view = next(v for v in game(8) if v.stage == Stage.PLAY and v.turn is not None)
    painter = table_screen.Painter()
    painter.draw(pygame.Surface(SIZE), view)
    for _ in painter.ahead():
        pass
    laid: list[View] = []

    def counted(v: View, size: tuple[int, int]) -> Iterator[None]:
        laid.append(v)
        return table_layout.layout_steps(v, size)

    monkeypatch.setattr(table_screen, "layout_steps", counted)
    nxt = likely_next(view)[0].turn
    assert nxt is not None
    seats = tuple(replace(s, language="te") if s.seat == nxt else s for s in view.seats)
    painter.draw(pygame.Surface(SIZE), replace(view, seats=seats, seq=view.seq + 1))
    laid.clear()
    for _ in painter.ahead():
        pass
    assert [(v.turn, v.seats[nxt].language) for v in laid] == [(nxt, "te")]


@pytest.mark.parametrize("seats", [8, 14])
def test_a_view_foreseen_is_laid_out_a_panel_at_a_time(monkeypatch, seats):
    """The display loop looks for a new view between two steps of drawing ahead: a step
    lays out one lane with its panel, or the hub, so a tap's view waits for little more
    than one panel, not for the whole layout of a stage's first view."""
    view = next(v for v in game(seats) if v.stage == Stage.PLAY and v.turn is not None
                and any(s.hand == 1 for s in v.seats))
    painter = table_screen.Painter()
    painter.draw(pygame.Surface(SIZE), view)
    made: list[str] = []
    panels, hub = table_layout._kept_panel_texts, table_layout._hub
    monkeypatch.setattr(table_layout, "_kept_panel_texts",
                        lambda *a: made.append("panel") or panels(*a))
    monkeypatch.setattr(table_layout, "_hub", lambda *a: made.append("hub") or hub(*a))
    steps = []
    for _ in painter.ahead():
        steps.append(tuple(made))
        made.clear()
    guesses = likely_next(view)
    assert len(guesses) == 2  # the next turn, and the round's end
    assert sum(step.count("hub") for step in steps) == len(guesses)
    assert sum(step.count("panel") for step in steps) == len(guesses) * (seats + 1)
    assert {step for step in steps if step} == {("panel",), ("hub",)}


def test_a_view_foreseen_but_cut_short_by_a_new_view_is_laid_out_again(monkeypatch):
    view = next(v for v in game(8) if v.stage == Stage.PLAY and v.turn is not None
                and any(s.hand == 1 for s in v.seats))
    painter = table_screen.Painter()
    painter.draw(pygame.Surface(SIZE), view)
    hubs: list[View] = []
    hub = table_layout._hub
    monkeypatch.setattr(table_layout, "_hub", lambda v, *a: hubs.append(v) or hub(v, *a))
    steps = painter.ahead()
    for _ in range(4):  # a view comes while the next turn is laid out, before its hub
        next(steps)
    assert hubs == []
    painter.draw(pygame.Surface(SIZE), view)  # the same view again: nothing to draw
    for _ in painter.ahead():
        pass
    assert [v.phase for v in hubs] == [Phase.PLAY, Phase.ROUND_OVER]
