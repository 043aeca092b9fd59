"""The table screen draws what changed: after any sequence of views (and frames of the
newest tile's pulse) the picture repainted in parts is the picture drawn from scratch,
pixel for pixel, while a tile laid or a pulse frame repaints a small part of the screen;
the display loop draws a view as soon as it comes and pulses at a steady beat."""

from __future__ import annotations

import pygame
import pytest
from fakes import Clock, QueueFeed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sample_views import all_view_names, as_view, game, load

from display import client, sleep, table_screen, theme
from display.client import Follower, FrameSink, WindowSink
from display.rehearsal import likely_next
from display.table_layout import layout
from display.views import in_language
from roundhouse.tablefile import SleepSettings
from roundhouse.view import View

SIZES = ((1920, 1080), (1280, 720), (1080, 1920))
LANGUAGES = (None, "fa", "ar", "te", "el")

_GAMES = {seats: game(seats) for seats in (2, 8, 14)}


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def from_scratch(view: View, size: tuple[int, int], now: float = 0.0) -> bytes:
    surface = pygame.Surface(size)
    table_screen.render(surface, view, now=now)
    return pixels(surface)


def area(rects: list[pygame.Rect] | None, size: tuple[int, int]) -> float:
    """The share of the screen repainted (1.0 for the whole)."""
    if rects is None:
        return 1.0
    return sum(r.w * r.h for r in rects) / (size[0] * size[1])


rects = st.tuples(st.integers(-80, 1960), st.integers(-80, 1120), st.integers(-5, 900),
                  st.integers(-5, 700))


@settings(max_examples=200, deadline=None)
@given(changed=st.lists(rects, max_size=12), size=st.sampled_from(SIZES))
def test_what_changed_is_repainted_in_whole_cells_each_painted_once(changed, size):
    """Every cell a change touches is repainted, no other, and no cell twice (a cell
    painted twice costs the time twice; one missed keeps the old picture there)."""
    cell = table_screen.CELL
    columns, rows = -(-size[0] // cell), -(-size[1] // cell)
    touched = {(c, r) for x, y, w, h in changed if w > 0 and h > 0
               for c in range(max(0, x // cell), min(columns - 1, (x + w - 1) // cell) + 1)
               for r in range(max(0, y // cell), min(rows - 1, (y + h - 1) // cell) + 1)}
    painted: list[tuple[int, int]] = []
    for rect in table_screen._cells(changed, size):
        assert rect.x % cell == 0 and rect.y % cell == 0 and rect.w > 0 and rect.h > 0
        assert rect.right <= size[0] and rect.bottom <= size[1]
        painted += [(c, r) for c in range(rect.x // cell, -(-rect.right // cell))
                    for r in range(rect.y // cell, -(-rect.bottom // cell))]
    assert len(painted) == len(set(painted))
    assert set(painted) == touched


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.sampled_from(sorted(_GAMES)),
    size=st.sampled_from(SIZES),
    lang=st.sampled_from(LANGUAGES),
    start=st.integers(0, 200),
    steps=st.lists(st.tuples(st.integers(1, 6), st.sampled_from((None, 0.2, 0.5, 1.1, 2.0))),
                   min_size=1, max_size=6),
)
def test_any_run_of_a_real_game_painted_in_parts_is_the_whole_picture(
        seats, size, lang, start, steps):
    views = _GAMES[seats]
    painter, surface = table_screen.Painter(), pygame.Surface(size)
    at = start % len(views)
    painter.draw(surface, in_language(views[at], "table", lang))
    for skip, pulse in steps:
        # Views are skipped as a busy screen skips those that queued up.
        at = min(len(views) - 1, at + skip)
        view = in_language(views[at], "table", lang)
        painter.draw(surface, view)
        assert pixels(surface) == from_scratch(view, size)
        if pulse is not None:
            painter.draw(surface, view, now=pulse)
            assert pixels(surface) == from_scratch(view, size, pulse)


@pytest.mark.parametrize(("seats", "lang", "size"), [
    (2, "te", (1280, 720)), (8, "ar", (1920, 1080)), (14, "fa", (1080, 1920))])
def test_every_view_of_a_whole_game_painted_in_parts_is_the_whole_picture(seats, lang, size):
    painter, surface = table_screen.Painter(), pygame.Surface(size)
    for view in _GAMES[seats]:
        shown = in_language(view, "table", lang)
        painter.draw(surface, shown)
        assert pixels(surface) == from_scratch(shown, size), f"view {view.seq}"


@pytest.mark.parametrize("seats", [8, 14])
def test_a_play_repaints_a_small_part_of_a_big_table(seats):
    size = (1920, 1080)
    painter, surface = table_screen.Painter(), pygame.Surface(size)
    parts = []
    for view in _GAMES[seats]:
        rects = painter.draw(surface, view)
        if view.phase == "play":
            parts.append(area(rects, size))
    # A play changes a train, two panels, two rails and the hub, not the whole screen.
    assert sorted(parts)[len(parts) // 2] < 0.25
    assert sum(1 for a in parts if a == 1.0) <= 0.1 * len(parts)


@pytest.mark.parametrize("seats", [8, 14])
def test_tiles_shrinking_repaint_the_trains_not_the_whole_screen(seats):
    """The lanes' and panels' edges keep their thickness as the tiles shrink: they were
    drawn as thick as the tiles called for, so some smaller sizes redrew the felt under
    everything and repainted the whole screen."""
    size = (1920, 1080)
    painter, surface = table_screen.Painter(), pygame.Surface(size)
    shrinks, before = [], None
    for view in _GAMES[seats]:
        rects = painter.draw(surface, view)
        short = painter.layout(view, size).tile_short
        if view.phase == "play" and before is not None and short < before:
            shrinks.append(area(rects, size))
        before = short
    assert len(shrinks) >= 3
    assert max(shrinks) < 0.5


def test_sample_views_of_every_table_one_after_another():
    # Tables of different sizes too: whatever was on the screen before, the picture is
    # the new view's.
    painter, surface = table_screen.Painter(), pygame.Surface((1280, 800))
    for name in [*all_view_names(), *reversed(all_view_names())]:
        view = as_view(load(name))
        painter.draw(surface, view, now=0.3)
        assert pixels(surface) == from_scratch(view, (1280, 800), 0.3), name


def _lit_in_place(surface: pygame.Surface, rect: tuple[int, int, int, int], edge: int,
                  border: int) -> None:
    """A lit frame drawn straight onto the screen: its ring, then its gold border."""
    area = pygame.Rect(rect)
    table_screen._ring(surface, area, edge * 2, edge * 2)
    pygame.draw.rect(surface, theme.GOLD, area, width=border, border_radius=edge * 2)


@settings(max_examples=80, deadline=None)
@given(x=st.integers(-60, 700), y=st.integers(-60, 460), w=st.integers(0, 400),
       h=st.integers(0, 300), edge=st.integers(2, 12))
def test_a_lit_frame_drawn_once_and_copied_is_the_frame_drawn_in_place(x, y, w, h, edge):
    """The lit lane's and panel's frame is drawn once for its size and copied where it
    goes: every pixel is the one drawing it there gives, on whatever was under it, also
    where it reaches past the screen's edge (a pixel off would show as a seam the next
    time only part of the frame is repainted). The border is an edge wide, and a lane or
    a panel is more than two edges across."""
    w, h = w + 2 * edge + 1, h + 2 * edge + 1
    size = (640, 400)
    under = pygame.Surface(size)
    under.fill(theme.FELT)
    pygame.draw.rect(under, theme.LANE, (40, 30, 300, 200), border_radius=9)
    in_place, copied = under.copy(), under.copy()
    _lit_in_place(in_place, (x, y, w, h), edge, edge)
    table_screen._paint_lit(copied, (x, y, w, h), edge, edge)
    assert pixels(copied) == pixels(in_place)


def test_a_screen_keeps_the_lit_frames_of_the_table_it_shows_only():
    """Lit frames are kept by size for the table on the screen; another table's sizes
    are forgotten when its felt goes, so a screen shown many tables stays as small as
    one showing one."""
    size = (1920, 1080)
    painter, surface = table_screen.Painter(), pygame.Surface(size)
    for view in _GAMES[14]:
        painter.draw(surface, view)
    assert table_screen._lit.cache_info().currsize > 4
    small = [v for v in _GAMES[2] if v.phase == "play"]
    for view in small:
        painter.draw(surface, view)
    frames = {(w[1][2], w[1][3]) for v in small
              for w, _ in table_screen.strokes(layout(v, size)) if w[0].endswith("_lit")}
    assert 0 < table_screen._lit.cache_info().currsize <= len(frames)


def newest_area(view: View, size: tuple[int, int]) -> pygame.Rect:
    """Around the newest tile: as far as its largest glow reaches, in whole cells."""
    lay = layout(view, size)
    [tile] = [t for t in lay.tiles if t.newest]
    reach = 3 * max(3, lay.tile_short // 5) + table_screen.CELL
    return pygame.Rect(tile.rect).inflate(2 * reach, 2 * reach)


def test_a_pulse_frame_repaints_only_around_the_newest_tile():
    size = (1920, 1080)
    view = as_view(load("busy_8"))
    painter, surface = table_screen.Painter(), pygame.Surface(size)
    painter.draw(surface, view)
    around = newest_area(view, size)
    moved = 0
    for now in (0.1, 0.2, 0.35, 0.9, 1.5, table_screen.NEWEST_PULSE):
        rects = painter.draw(surface, view, now=now)
        assert rects is not None and all(around.contains(r) for r in rects)
        assert pixels(surface) == from_scratch(view, size, now)
        moved += bool(rects)
    assert moved >= 4, "the glow moves"
    # At rest the glow stays: nothing more to paint.
    assert painter.draw(surface, view, now=5.0) == []


# ---- the display loop ------------------------------------------------------------------


class Shown:
    """A sink that keeps a copy of each picture it is shown, with what was repainted."""

    def __init__(self, clock: Clock, size: tuple[int, int] = (1280, 720)) -> None:
        self.surface = pygame.Surface(size)
        self.clock = clock
        self.shown: list[tuple[str, list[pygame.Rect] | None, float, bytes]] = []
        self.touched = False

    def show(self, name: str, rects=None) -> None:
        self.shown.append((name, None if rects is None else list(rects), self.clock(),
                           pixels(self.surface)))

    def events(self) -> bool:
        return True


@pytest.fixture
def no_sleeping(monkeypatch):
    """The loop must never sleep before drawing: it waits only in the feed."""
    def refuse(seconds: float) -> None:
        raise AssertionError(f"the display loop slept {seconds} s")

    monkeypatch.setattr(client.time, "sleep", refuse)


def test_a_view_is_drawn_as_soon_as_it_comes_even_right_after_another(no_sleeping):
    clock = Clock()
    views = _GAMES[8][60:63]
    feed = QueueFeed(views, clock)
    sink = Shown(clock)
    follower = Follower(feed, sink, "table", animate=False, clock=clock)
    for _ in views:
        follower.step()
    names = [name for name, *_ in sink.shown]
    assert names == [f"{v.seq:06d}" for v in views]
    # No time passed between them: each was drawn in the turn it came.
    assert {at for _, _, at, _ in sink.shown} == {1000.0}
    assert sink.shown[-1][3] == from_scratch(views[-1], (1280, 720))


def test_the_newest_tile_pulses_at_a_steady_beat_then_rests(no_sleeping):
    clock = Clock()
    view = next(v for v in _GAMES[8][40:] if v.last_play is not None and v.phase == "play")
    feed = QueueFeed([view], clock)
    sink = Shown(clock)
    follower = Follower(feed, sink, "table", fps=30, clock=clock)
    for _ in range(200):
        follower.step()
    arrived = sink.shown[0][2]
    pulses = [(rects, at, shot) for name, rects, at, shot in sink.shown if name == "pulse"]
    beats = [at - arrived for _, at, _ in pulses]
    # Every frame a thirtieth of a second after the last, for as long as the pulse lasts.
    assert beats == pytest.approx([(k + 1) / 30 for k in range(len(beats))])
    # The last frame is the first one due once the pulse is over.
    assert beats[-2] < table_screen.NEWEST_PULSE <= beats[-1] + 1e-9
    around = newest_area(view, (1280, 720))
    for rects, at, shot in pulses:
        assert rects is not None and all(around.contains(r) for r in rects)
        age = min(at - arrived, table_screen.NEWEST_PULSE)
        assert shot == from_scratch(view, (1280, 720), age)
    # At rest the picture is the view's as drawn anew; then the loop only waits.
    assert pulses[-1][2] == from_scratch(view, (1280, 720))
    assert set(feed.waits[-5:]) == {client.IDLE_WAKE}


def test_a_window_is_updated_only_where_the_picture_changed(monkeypatch):
    updates: list[object] = []
    monkeypatch.setattr(pygame.display, "flip", lambda: updates.append("whole"))
    monkeypatch.setattr(pygame.display, "update", lambda rects: updates.append(list(rects)))
    clock = Clock()
    views = [v for v in _GAMES[14] if v.phase == "play"][30:33]
    sink = WindowSink((1280, 720), False, 0)
    follower = Follower(QueueFeed(views, clock), sink, "table", animate=False, clock=clock)
    for _ in views:
        follower.step()
    assert updates[0] == "whole"  # the first view fills the window
    for rects in updates[1:]:
        assert isinstance(rects, list) and 0 < area(rects, (1280, 720)) < 0.5
    assert pixels(sink.surface) == from_scratch(views[-1], (1280, 720))


def test_a_view_after_dimming_is_drawn_whole(tmp_path):
    clock = Clock()
    lobby = [v for v in _GAMES[8] if v.phase == "lobby"]
    feed = QueueFeed([lobby[0]], clock)
    follower = Follower(feed, FrameSink(tmp_path, (1280, 720), "table"), "table",
                        sleep_settings=SleepSettings(dim_after_s=60, blank_after_s=0,
                                                     dim_to=0.25), clock=clock)
    follower.step()
    clock.now += 61
    follower.step()
    assert follower.looks == sleep.DIM
    feed.views.append(lobby[1])  # a seat joins: the screen wakes
    follower.step()
    assert follower.looks == sleep.AWAKE
    shot = pygame.image.load(str(tmp_path / f"table-{lobby[1].seq:06d}.png"))
    assert pixels(shot) == from_scratch(lobby[1], (1280, 720))


def test_a_view_after_the_waiting_screen_is_drawn_whole(tmp_path):
    clock = Clock()
    views = [v for v in _GAMES[2] if v.phase == "play"][5:7]
    feed = QueueFeed([views[0]], clock)
    follower = Follower(feed, FrameSink(tmp_path, (1280, 720), "table"), "table",
                        animate=False, clock=clock)
    follower.step()
    feed.connected = False  # the service went away
    follower.step()
    assert (tmp_path / "table-waiting.png").exists()
    feed.connected = True
    feed.views.append(views[1])
    follower.step()
    shot = pygame.image.load(str(tmp_path / f"table-{views[1].seq:06d}.png"))
    assert pixels(shot) == from_scratch(views[1], (1280, 720))


def test_a_screen_dimmed_during_the_pulse_stays_dim(no_sleeping):
    clock = Clock()
    over = _GAMES[8][-1]  # the game is over; its last tile is the newest
    assert over.phase == "game_over" and over.last_play is not None
    feed = QueueFeed([over], clock)
    sink = Shown(clock)
    follower = Follower(feed, sink, "table", sleep_settings=SleepSettings(
        dim_after_s=0.5, blank_after_s=0, dim_to=0.25), clock=clock)
    for _ in range(100):
        follower.step()
    names = [name for name, *_ in sink.shown]
    assert "dim" in names
    assert "pulse" not in names[names.index("dim"):], "no frame undoes the dimming"
    assert follower.next_frame is None
    assert sink.shown[-1][3] == sink.shown[names.index("dim")][3]


def test_a_screen_in_a_language_of_its_own_lays_out_a_pulse_once(monkeypatch, no_sleeping):
    laid = []
    shown_once, ahead = table_screen.layout, table_screen.layout_steps
    monkeypatch.setattr(table_screen, "layout",
                        lambda view, size: laid.append(view) or shown_once(view, size))
    monkeypatch.setattr(table_screen, "layout_steps",
                        lambda view, size: laid.append(view) or ahead(view, size))
    clock = Clock()
    view = next(v for v in _GAMES[14][60:] if v.last_play is not None and v.phase == "play")
    sink = Shown(clock)
    follower = Follower(QueueFeed([view], clock), sink, "table", lang="fa", clock=clock)
    for _ in range(80):
        follower.step()
    pulses = [shot for name, _, _, shot in sink.shown if name == "pulse"]
    shown = in_language(view, "table", "fa")
    # Laid out once; the others are the views drawn ahead, each once.
    assert len(pulses) > 40 and laid.count(shown) == 1
    assert [v for v in laid if v != shown] == list(likely_next(shown))
    assert pulses[-1] == from_scratch(shown, (1280, 720))
