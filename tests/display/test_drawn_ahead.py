"""While the table waits for a player, the table screen draws ahead what the next view
is likely to need: the faces of the tiles on the table at the sizes the trains would
shrink to. The view that shrinks them then finds their faces drawn, a view that comes
meanwhile is drawn at once, and every picture is the same as without it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pygame
import pytest
from fakes import Clock, QueueFeed
from sample_views import game

from display import table_layout, table_screen, text, tiles
from display.client import Follower
from display.table_layout import TilePlace, layout, smaller_tiles, tiles_at
from roundhouse.view import View

_GAMES = {seats: game(seats) for seats in (8, 14)}
SIZES = ((1920, 1080), (1280, 800))


@cache
def shrinks(seats: int, size: tuple[int, int]) -> list[tuple[View, View]]:
    """Each view of a round whose tiles are smaller than the view's before it, with it."""
    views = _GAMES[seats]
    shorts = [layout(v, size).tile_short for v in views]
    return [(views[i - 1], views[i]) for i in range(1, len(views))
            if shorts[i] < shorts[i - 1] and views[i].round == views[i - 1].round]


class Sink:
    def __init__(self, size: tuple[int, int]) -> None:
        self.surface = pygame.Surface(size)
        self.shown: list[str] = []

    def show(self, name: str, rects: object = None) -> None:
        self.shown.append(name)

    def events(self) -> bool:
        return True


def faces_drawn(step: Callable[[], object]) -> int:
    """How many tile faces were drawn (not found ready) while `step()` ran."""
    before = tiles.face.cache_info().misses
    step()
    return tiles.face.cache_info().misses - before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", (8, 14))
def test_the_size_the_trains_shrink_to_is_foreseen(seats, size):
    pairs = list(shrinks(seats, size))
    assert len(pairs) >= 2, "the recorded game shrinks its tiles at this size"
    for before, after in pairs:
        foreseen = smaller_tiles(before, size)[:table_screen.AHEAD_SIZES]
        assert layout(after, size).tile_short in foreseen


def test_before_any_train_no_smaller_size_is_foreseen():
    lobby = next(v for v in _GAMES[8] if v.phase == "lobby")
    assert smaller_tiles(lobby, (1920, 1080)) == ()


def face_of(tile: TilePlace) -> tuple[int, ...]:
    """What a tile's face is drawn from (`tiles.face`'s arguments)."""
    return (tile.a, tile.b, tile.rect[2], tile.rect[3], tile.a_first, tile.facing)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", (8, 14))
def test_the_faces_drawn_ahead_are_those_the_view_that_shrinks_the_tiles_shows(seats, size):
    for before, after in shrinks(seats, size):
        short = layout(after, size).tile_short
        ahead = {face_of(tile) for lane in tiles_at(before, size, short) for tile in lane}
        shown = [face_of(t) for t in layout(after, size).tiles if t.train != "engine"]
        assert all(min(face[2:4]) == short for face in ahead)
        # All but the tile just laid.
        assert len([face for face in shown if face not in ahead]) <= 1


def follower_after(view: View, size: tuple[int, int]) -> tuple[Follower, QueueFeed, Sink]:
    clock = Clock()
    feed = QueueFeed([view], clock)
    sink = Sink(size)
    follower = Follower(feed, sink, "table", animate=False, clock=clock)
    follower.step()
    return follower, feed, sink


@pytest.mark.parametrize("seats", (8, 14))
def test_the_view_that_shrinks_the_tiles_finds_their_faces_drawn(seats):
    size = (1280, 800)
    before, after = list(shrinks(seats, size))[-1]
    laid = len(layout(after, size).tiles)

    # Drawn right after the view before it, the view draws every face anew.
    tiles.face.cache_clear()
    follower, feed, _ = follower_after(before, size)
    feed.views.append(after)
    assert faces_drawn(follower.step) >= laid // 2

    # With the table waiting in between, they were drawn ahead, a face or none a turn.
    tiles.face.cache_clear()
    follower, feed, sink = follower_after(before, size)
    turns = 0
    while follower.ahead is not None:
        assert faces_drawn(follower.step) <= 1
        turns += 1
        assert turns < 1000
    assert faces_drawn(follower.step) == 0  # nothing more to do: the loop only waits
    assert feed.waits[-1] > 0
    feed.views.append(after)
    assert faces_drawn(follower.step) <= 2  # the tile just laid
    assert sink.shown[-1] == f"{after.seq:06d}"
    drawn = pygame.Surface(size)
    table_screen.render(drawn, after)
    assert pygame.image.tobytes(sink.surface, "RGB") == pygame.image.tobytes(drawn, "RGB")


def test_a_view_that_comes_while_drawing_ahead_is_drawn_in_that_turn():
    size = (1280, 800)
    before, after = list(shrinks(14, size))[-1]
    tiles.face.cache_clear()
    follower, feed, sink = follower_after(before, size)
    for _ in range(5):
        follower.step()
    assert follower.ahead is not None, "still drawing ahead"
    assert feed.waits[-1] == 0.0  # drawing ahead, the loop only glances at the socket
    feed.views.append(after)
    shown = len(sink.shown)
    follower.step()
    assert sink.shown[shown:] == [f"{after.seq:06d}"]  # in the very turn it came


def forget_layouts() -> None:
    for cached in (table_layout._fit_lane, table_layout._lay_with_elision, table_layout._node,
                   table_layout._place, table_layout._table, text.fit, text.line_height):
        cached.cache_clear()


@pytest.mark.parametrize("seats", (8, 14))
def test_a_view_is_laid_out_the_same_whatever_was_laid_out_before_it(seats):
    """The layout keeps what it worked out for the trains and words of the views before
    (and of what was drawn ahead: the sizes the tiles may shrink to, the views likely to
    come next): what it kept never changes a view's layout."""
    size = (1280, 800)
    views = _GAMES[seats]
    forget_layouts()
    kept = []
    painter = table_screen.Painter()
    for view in views:
        kept.append(painter.layout(view, size))
        for _ in painter.ahead():
            pass
    for view, lay in list(zip(views, kept, strict=True))[::5]:
        forget_layouts()
        assert layout(view, size) == lay, f"view {view.seq}"
