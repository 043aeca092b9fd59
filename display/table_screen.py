"""The table screen: the hub, every train, the seats and the messages, painted from the
geometry of `table_layout`. No game logic: the same view gives the same pixels.

A picture is a list of strokes, painted in order: the felt with its lanes, panels and hub,
then what is lit (the seat to act, loud panels, the hub's notices), the rails, the glows,
the tiles, markers and badges, and last the words. Each stroke says which rectangles of
the screen it may touch. `render` paints them all; a `Painter` keeps the strokes of the
picture on its surface and, for the next view (or the next frame of the newest tile's
pulse), repaints only where a stroke came or went: inside those rectangles, clipped to
each, it paints every stroke that reaches there, in the same order, from the felt up. So
what overlaps (a glow under its tile, a rail under a train, the words on a panel) comes
out as a whole picture would, pixel for pixel.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator
from functools import lru_cache
from typing import Any

import pygame

from display import text, theme, tiles
from display.rehearsal import likely_next
from display.table_layout import (
    Rect,
    TableLayout,
    TilePlace,
    layout,
    layout_steps,
    max_short,
    smaller_tiles,
    tiles_at,
)
from roundhouse.view import Phase, View

# The phases in the order a round goes through them (docs/flow.md), as `Phase` lists them.
_FLOW = tuple(Phase)
NEWEST_PULSE = 1.6  # seconds the newest tile pulses after it is laid
AHEAD_SIZES = 2  # smaller tile sizes whose faces are drawn ahead (tiles.FACES_KEPT)


def _inflate(rect: tuple[int, int, int, int], d: int) -> pygame.Rect:
    return pygame.Rect(rect).inflate(2 * d, 2 * d)


def _glow(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour, width: int,
          radius: int) -> None:
    """A soft halo `width` pixels wide around `rect`, strongest next to it."""
    surface.blit(_halo(rect.w, rect.h, colour, width, radius), (rect.x - width, rect.y - width))


@lru_cache(maxsize=32)  # a glow is as large as a panel: a frame needs a few
def _halo(w: int, h: int, colour: theme.Colour, width: int, radius: int) -> pygame.Surface:
    halo = pygame.Surface((w + 2 * width, h + 2 * width), pygame.SRCALPHA)
    area = halo.get_rect()
    for i in range(width):
        alpha = 40 + 180 * i // max(1, width)
        pygame.draw.rect(halo, (*colour, alpha), area.inflate(-2 * i, -2 * i), width=1,
                         border_radius=radius + width - i)
    return halo


def _mix(a: theme.Colour, b: theme.Colour, t: float) -> theme.Colour:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


RING_STEPS = 3


def _ring_colour(i: int) -> theme.Colour:
    """The colour of a ring's `i`-th band from the inside (1 to RING_STEPS)."""
    return _mix(theme.GOLD, theme.FELT, i / (RING_STEPS + 1))


def _ring(surface: pygame.Surface, rect: pygame.Rect, width: int, radius: int) -> None:
    """A gold ring fading into the felt around a large area (opaque, so it stays cheap
    on big rectangles)."""
    for i in range(RING_STEPS, 0, -1):
        grow = 2 * i * width // RING_STEPS
        pygame.draw.rect(surface, _ring_colour(i), rect.inflate(grow, grow),
                         width=max(1, width // RING_STEPS), border_radius=radius + grow // 2)


# Never drawn by a lit frame: what of its picture is left this colour is not copied.
_UNLIT = (255, 0, 255)


@lru_cache(maxsize=16)  # the table's lit lanes and panels: 10 sizes at 14 seats, 0.7 MB
def _lit(w: int, h: int, edge: int, border: int) -> pygame.Surface:
    """A lit lane's or panel's ring and border, drawn once for its size: the turn moves
    on at every play, and the frames it leaves and reaches are painted again in every
    cell they cross. Drawn `2 * edge` pixels in from the picture's edge, as far as the
    ring reaches beyond the area; a byte a pixel, its few colours in a palette, as the
    picture is mostly the area inside, left unpainted."""
    pad = 2 * edge
    picture = pygame.Surface((w + 2 * pad, h + 2 * pad), depth=8)
    picture.set_palette([_UNLIT, theme.GOLD, *map(_ring_colour, range(1, RING_STEPS + 1))])
    picture.fill(_UNLIT)
    picture.set_colorkey(_UNLIT)
    area = pygame.Rect(pad, pad, w, h)
    _ring(picture, area, edge * 2, edge * 2)
    pygame.draw.rect(picture, theme.GOLD, area, width=border, border_radius=edge * 2)
    return picture


PANEL_FILLS = {"turn": theme.GOLD, "one_tile": theme.ALERT, "empty": theme.EMPTY_SEAT}


@lru_cache(maxsize=1)  # a whole screen: the last view's, drawn again when only trains move
def _background(
    size: tuple[int, int],
    lanes: tuple[tuple[tuple[int, int, int, int], theme.Colour, bool], ...],
    panels: tuple[tuple[tuple[int, int, int, int], theme.Colour, bool], ...],
    hub: tuple[int, int, int, int],
    edge: int,
) -> pygame.Surface:
    """The felt, the lanes, the panels and the hub as they are when nothing is lit:
    the same for every view of one table, so it is drawn once and copied. A new one is
    another table (or screen size): the lit frames kept are for the last one's sizes."""
    _lit.cache_clear()
    surface = pygame.Surface(size)
    surface.fill(theme.FELT)
    for rect, colour, mexican in lanes:
        pygame.draw.rect(surface, theme.MEXICAN_LANE if mexican else theme.LANE, rect,
                         border_radius=edge * 2)
        pygame.draw.rect(surface, colour, rect, width=1, border_radius=edge * 2)
    for rect, colour, mexican in panels:
        pygame.draw.rect(surface, theme.MEXICAN_LANE if mexican else theme.PANEL, rect,
                         border_radius=edge * 2)
        pygame.draw.rect(surface, colour, rect, width=max(2, edge), border_radius=edge * 2)
    radius = max(6, min(hub[2], hub[3]) // 12)
    pygame.draw.rect(surface, theme.HUB, hub, border_radius=radius)
    pygame.draw.rect(surface, theme.SPINNER, hub, width=max(2, radius // 4), border_radius=radius)
    return surface


# A stroke: what it paints (its kind, then everything its pixels depend on) and the
# rectangles of the screen it may touch.
Stroke = tuple[tuple[Any, ...], tuple[Rect, ...]]


def _frame(rect: Rect, outside: int, inside: int) -> tuple[Rect, ...]:
    """The band from `outside` pixels beyond `rect` to `inside` pixels within it, as
    four strips (the whole rectangle where the band fills it)."""
    x, y, w, h = rect
    ox, oy, ow, oh = x - outside, y - outside, w + 2 * outside, h + 2 * outside
    band = outside + inside
    if 2 * inside >= min(w, h):
        return ((ox, oy, ow, oh),)
    return ((ox, oy, ow, band), (ox, oy + oh - band, ow, band),
            (ox, oy + band, band, oh - 2 * band), (ox + ow - band, oy + band, band, oh - 2 * band))


@lru_cache(maxsize=256)  # a table's rails and tracks: a view changes a few
def _segments(points: tuple[tuple[int, int], ...], width: int) -> tuple[Rect, ...]:
    """The rectangles a line `width` pixels wide through `points` may touch."""
    pad = width // 2 + 2
    marks = []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        left, top = min(x0, x1) - pad, min(y0, y1) - pad
        marks.append((left, top, abs(x1 - x0) + 2 * pad + 1, abs(y1 - y0) + 2 * pad + 1))
    return tuple(marks)


@lru_cache(maxsize=512)  # a frame's texts, most of them the last frame's
def _text_marks(item: text.Text) -> tuple[Rect, ...]:
    return tuple((x, y, img.get_width(), img.get_height())
                 for img, (x, y) in text.placed_lines(item))


def strokes(lay: TableLayout, now: float = 0.0) -> list[Stroke]:
    """The strokes of the table screen for `lay`, in the order they are painted; `now`
    (seconds since the view arrived) only moves the pulse of the newest tile."""
    # The lanes' and panels' edges are as thick as a round's first, largest tiles call for,
    # and stay so as the trains' tiles shrink: the felt under everything stays the same,
    # so a smaller tile size repaints the trains, not the whole screen.
    edge = max(2, max_short(*lay.size) // 5)
    out: list[Stroke] = [(("felt", lay.size,
                           tuple((ln.rect, ln.colour, ln.seat is None) for ln in lay.lanes),
                           tuple((p.rect, p.colour, p.seat is None) for p in lay.panels),
                           lay.hub, edge), ((0, 0, *lay.size),))]
    # A lit lane or panel is ringed: the ring and its border reach a little beyond and
    # within its edge, never into the middle, where the train lies.
    lit = (2 * edge + 2, 2 * edge + 2)
    turn = {ln.seat for ln in lay.lanes if ln.turn}
    for lane in lay.lanes:
        if lane.turn:
            out.append((("lane_lit", lane.rect, edge), _frame(lane.rect, *lit)))
    for panel in lay.panels:
        if panel.state in PANEL_FILLS:
            out.append((("panel_fill", panel.rect, PANEL_FILLS[panel.state], panel.colour,
                         edge), (panel.rect,)))
        if panel.seat is not None and panel.seat in turn:
            out.append((("panel_lit", panel.rect, edge), _frame(panel.rect, *lit)))
    radius = max(6, min(lay.hub[2], lay.hub[3]) // 12)
    for box, kind in lay.notice_boxes:
        colour = theme.ALERT if kind == "alert" else theme.WARNING
        out.append((("box", box, colour, max(3, radius // 2)), (box,)))
    width = max(2, lay.tile_short // 6)
    for rail in lay.rails:
        colour, w = (theme.GOLD, width * 2) if rail.turn else (rail.colour, width)
        out.append((("line", rail.points, colour, w), _segments(rail.points, w)))
    for points, colour in lay.tracks:
        if len(points) > 1:
            out.append((("line", points, colour, width), _segments(points, width)))
    ring = max(3, lay.tile_short // 5)
    for tile in lay.tiles:
        if tile.pending is not None:
            out.append(_glow_stroke(_inflate(tile.rect, ring // 2), theme.WARNING, ring, ring))
        if tile.newest:
            out.append(_newest(tile, ring, now))
    for tile in lay.tiles:
        out.append((("tile", tile.rect, tile.a, tile.b, tile.a_first, tile.facing),
                    (tile.rect,)))
    for tile in lay.tiles:
        if tile.pending is not None:
            x, y, w, h = _inflate(tile.rect, 1)
            out.append((("outline", (x, y, w, h), theme.WARNING, max(2, ring // 2), ring),
                        ((x, y, w, h),)))
    for marker in lay.markers:
        out.append((("marker", marker.rect, marker.colour, marker.train == "mexican"),
                    (marker.rect,)))
    for chip in lay.chips:
        out.append((("chip", chip.rect, ring), (chip.rect,)))
        out.append((("text", chip.label), _text_marks(chip.label)))
    for badge in lay.badges:
        (cx, cy), r = badge.centre, badge.radius
        out.append((("badge", badge.centre, r), ((cx - r - 1, cy - r - 1, 2 * r + 3, 2 * r + 3),)))
        out.append((("text", badge.label), _text_marks(badge.label)))
    for item in lay.texts:
        out.append((("text", item), _text_marks(item)))
    return out


def _glow_stroke(rect: pygame.Rect, colour: theme.Colour, width: int, radius: int) -> Stroke:
    area = (rect.x - width, rect.y - width, rect.w + 2 * width, rect.h + 2 * width)
    return (("glow", tuple(rect), colour, width, radius), (area,))


def _newest(tile: TilePlace, ring: int, now: float) -> Stroke:
    """The newest tile glows; for a moment after it is laid the glow pulses."""
    if now < NEWEST_PULSE:
        phase = math.sin(now / NEWEST_PULSE * 3 * math.pi) ** 2
        grow = round(ring * (1 + phase))
    else:
        grow = ring
    return _glow_stroke(_inflate(tile.rect, grow // 2), theme.INK, max(2, grow), ring)


def _paint_lit(surface: pygame.Surface, rect: Rect, edge: int, border: int) -> None:
    x, y, w, h = rect
    surface.blit(_lit(w, h, edge, border), (x - 2 * edge, y - 2 * edge))


# The felt stroke of the view being painted, with its picture.
_felt_shown: tuple[tuple[Any, ...], pygame.Surface] | None = None


def _felt(what: tuple[Any, ...]) -> pygame.Surface:
    """The felt's picture for the stroke `what`. A view's felt is painted once for each
    rectangle repainted, and finding it by its arguments (every lane and panel) costs
    more than copying a rectangle of it: the same stroke is known by identity."""
    global _felt_shown
    if _felt_shown is None or _felt_shown[0] is not what:
        _felt_shown = (what, _background(*what[1:]))
    return _felt_shown[1]


def _paint(surface: pygame.Surface, what: tuple[Any, ...]) -> None:
    """Paint one stroke."""
    kind = what[0]
    if kind == "text":
        text.draw(surface, what[1])
    elif kind == "tile":
        tiles.draw_tile(surface, *what[1:])
    elif kind == "line":
        _, points, colour, width = what
        pygame.draw.lines(surface, colour, False, points, width)
    elif kind == "glow":
        _, rect, colour, width, radius = what
        _glow(surface, pygame.Rect(rect), colour, width, radius)
    elif kind == "felt":
        surface.blit(_felt(what), (0, 0))
    elif kind == "lane_lit":
        _paint_lit(surface, what[1], what[2], what[2])
    elif kind == "panel_lit":
        _paint_lit(surface, what[1], what[2], max(2, what[2]))
    elif kind == "panel_fill":
        _, rect, fill, colour, edge = what
        pygame.draw.rect(surface, fill, rect, border_radius=edge * 2)
        pygame.draw.rect(surface, colour, rect, width=max(2, edge), border_radius=edge * 2)
    elif kind == "box":
        _, box, colour, radius = what
        pygame.draw.rect(surface, colour, box, border_radius=radius)
    elif kind == "outline":
        _, box, colour, width, radius = what
        pygame.draw.rect(surface, colour, box, width=width, border_radius=radius)
    elif kind == "marker":
        _, (x, y, w, h), colour, mexican = what
        surface.blit(tiles.marker(w, h, colour, mexican), (x, y))
    elif kind == "chip":
        _, rect, ring = what
        pygame.draw.rect(surface, theme.INK_DIM, rect, border_radius=ring)
    elif kind == "badge":
        _, centre, radius = what
        pygame.draw.circle(surface, theme.INK, centre, radius)
        pygame.draw.circle(surface, theme.ALERT, centre, radius - max(2, radius // 6))
    else:
        raise AssertionError(f"no such stroke: {kind!r}")


def render(surface: pygame.Surface, view: View, *, now: float = 0.0) -> None:
    """Draw the table screen for `view`; `now` (seconds since the view arrived) only
    drives the pulse of the newest tile."""
    for what, _ in strokes(layout(view, surface.get_size()), now):
        _paint(surface, what)


# Where the changes would cover more than this share of the screen, it is painted whole:
# as quick, and one rectangle for the screen to take.
WHOLE_FROM = 0.5


CELL = 32  # px: changes are repainted in whole cells of this size, joined into rectangles


def _cells(changed: list[Rect], size: tuple[int, int]) -> list[pygame.Rect]:
    """Rectangles, none overlapping another, that cover every changed rectangle: the
    screen's cells that any of them touches, joined along each row of cells, then rows
    with the same span joined into one rectangle."""
    width, height = size
    columns, rows = -(-width // CELL), -(-height // CELL)
    # Each row of cells as a number, a bit a cell: a rectangle lights its columns in
    # each of its rows at once.
    lit = [0] * rows
    for x, y, w, h in changed:
        if w <= 0 or h <= 0:
            continue
        c0, c1 = max(0, x // CELL), min(columns - 1, (x + w - 1) // CELL)
        r0, r1 = max(0, y // CELL), min(rows - 1, (y + h - 1) // CELL)
        if c0 > c1:
            continue
        bits = ((1 << (c1 - c0 + 1)) - 1) << c0
        for row in range(r0, r1 + 1):
            lit[row] |= bits
    out: list[pygame.Rect] = []
    growing: dict[tuple[int, int], tuple[int, int]] = {}  # span -> (first row, last row)
    for row, cells in enumerate(lit):
        spans = _spans(cells)
        for span in [s for s in growing if s not in spans]:
            out.append(_cell_rect(span, growing.pop(span), size))
        for span in spans:
            growing[span] = (growing[span][0] if span in growing else row, row)
    out += [_cell_rect(span, rows_of, size) for span, rows_of in growing.items()]
    return out


def _spans(cells: int) -> list[tuple[int, int]]:
    """The runs of lit cells in a row, as (first column, last column), left to right."""
    out = []
    while cells:
        first = (cells & -cells).bit_length() - 1
        rest = cells >> first
        length = (~rest & (rest + 1)).bit_length() - 1
        out.append((first, first + length - 1))
        cells &= ~(((1 << length) - 1) << first)
    return out


def _cell_rect(span: tuple[int, int], rows: tuple[int, int], size: tuple[int, int]) -> pygame.Rect:
    x, y = span[0] * CELL, rows[0] * CELL
    return pygame.Rect(x, y, min(size[0], (span[1] + 1) * CELL) - x,
                       min(size[1], (rows[1] + 1) * CELL) - y)


class Painter:
    """Paints views of one table on one surface, each only where it differs from the
    picture already there. `draw` returns the rectangles it repainted, None when it
    painted the whole surface; `forget` after anything else has drawn on the surface
    (the waiting screen, dimming), so the next view is painted whole."""

    def __init__(self) -> None:
        self._surface: pygame.Surface | None = None
        self._shown: dict[tuple[Hashable, int], tuple[int, tuple[Rect, ...]]] = {}
        self._view: View | None = None
        self._layout: TableLayout | None = None
        # The views laid out ahead (`likely_next`) this round, by what they guessed: each
        # is laid out once, not after every view that foresees it again.
        self._rehearsed: set[tuple[object, ...]] = set()
        self._rehearsed_at: tuple[int, int, tuple[int, int]] | None = None

    def forget(self) -> None:
        self._surface = None
        self._shown = {}

    def layout(self, view: View, size: tuple[int, int]) -> TableLayout:
        """The layout of `view` (kept for the frames of one view: a pulse lays out once)."""
        if self._view is not view or self._layout is None or self._layout.size != size:
            self._view, self._layout = view, layout(view, size)
        return self._layout

    def draw(self, surface: pygame.Surface, view: View, *,
             now: float = 0.0) -> list[pygame.Rect] | None:
        size = surface.get_size()
        drawn = strokes(self.layout(view, size), now)
        shown = _counted(drawn)
        before, self._shown = self._shown, shown
        if self._surface is not surface:
            self._surface = surface
            return self._whole(surface, drawn)
        changed: list[Rect] = []
        kept_before: list[int] = []
        for key, (order, marks) in before.items():
            if key in shown:
                kept_before.append(order)
            else:
                changed += marks
        kept_now = []
        for key, (_, marks) in shown.items():
            was = before.get(key)
            if was is not None:
                kept_now.append(was[0])
            else:
                changed += marks
        if kept_now != sorted(kept_before):
            # What stays is painted in another order: painting it over could differ.
            return self._whole(surface, drawn)
        if not changed:
            return []
        dirty = _cells(changed, size)
        if sum(r.w * r.h for r in dirty) >= WHOLE_FROM * size[0] * size[1]:
            return self._whole(surface, drawn)
        marks_of: list[pygame.Rect] = []
        owner: list[int] = []
        for i, (_, marks) in enumerate(drawn):
            for mark in marks:
                marks_of.append(pygame.Rect(mark))
                owner.append(i)
        clip = surface.get_clip()
        try:
            for rect in dirty:
                surface.set_clip(rect)
                for i in sorted({owner[k] for k in rect.collidelistall(marks_of)}):
                    _paint(surface, drawn[i][0])
        finally:
            surface.set_clip(clip)
        return dirty

    def ahead(self) -> Iterator[None]:
        """Draws ahead, a step at a time, what the next view is likely to need: the face
        of every tile on the table at the likeliest sizes the trains would shrink to if
        one of them grew (`smaller_tiles`), the trains laid out a lane a step, a face a
        step; and the layout of the views the table is likely to show next
        (`rehearsal.likely_next`: the next seat's turn, the next stage), a lane with its
        panel a step and the hub another, each once for what it guesses. Without it the
        view that shrinks the tiles draws every face anew, and the first view of a stage
        opens its fonts and measures its words: the slowest views of a round. Only
        caches are filled: the pictures are the same. The caller can stop between any
        two steps to draw a view that came."""
        view, lay = self._view, self._layout
        yield
        if view is None or lay is None:
            return
        # Forgotten at each new round, and where the flow goes back (a new game of one
        # round after the last, a move taken back).
        at = (view.round, _FLOW.index(view.phase), lay.size)
        last = self._rehearsed_at
        if last is None or at[0] != last[0] or at[1] < last[1] or at[2] != last[2]:
            self._rehearsed.clear()
        self._rehearsed_at = at
        # Again as seats join, change their names or languages; a next stage again
        # whenever its words change (a round's end, as the seats' counts go down).
        seats = tuple((s.joined, s.name, s.language) for s in view.seats)
        for guess in likely_next(view):
            key = (guess.phase, guess.stage, guess.round, guess.turn, seats, view.language,
                   None if guess.phase == view.phase else guess.prompt)
            if key not in self._rehearsed:
                yield from layout_steps(guess, lay.size)
                # Only once laid out whole: a view that comes halfway stops it, and the
                # next wait lays it out again (what was laid out is kept and quick).
                self._rehearsed.add(key)
                yield  # the hub, after the last lane, is a step of its own
        for short in smaller_tiles(view, lay.size)[:AHEAD_SIZES]:
            yield
            for lane in tiles_at(view, lay.size, short):
                yield
                for tile in lane:
                    tiles.face(tile.a, tile.b, tile.rect[2], tile.rect[3], tile.a_first,
                               tile.facing)
                    yield

    def _whole(self, surface: pygame.Surface, drawn: list[Stroke]) -> list[pygame.Rect] | None:
        """Paint every stroke (None: the whole surface was painted)."""
        for what, _ in drawn:
            _paint(surface, what)
        return None


def _counted(drawn: list[Stroke]) -> dict[tuple[Hashable, int], tuple[int, tuple[Rect, ...]]]:
    """Each stroke by what it paints and how many times the same was painted before it,
    with its place in the order and its rectangles."""
    out: dict[tuple[Hashable, int], tuple[int, tuple[Rect, ...]]] = {}
    for order, (what, marks) in enumerate(drawn):
        # Nearly every stroke is the only one of its kind: one look finds it new.
        key = (what, 0)
        while key in out:
            key = (what, key[1] + 1)
        out[key] = (order, marks)
    return out
