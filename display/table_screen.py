"""The table screen: the hub, every train, the seats and the messages, painted from the
geometry of `table_layout`. No game logic: the same view gives the same pixels."""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from display import text, theme, tiles
from display.table_layout import TableLayout, TilePlace, layout
from roundhouse.view import View

NEWEST_PULSE = 1.6  # seconds the newest tile pulses after it is laid


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


def _ring(surface: pygame.Surface, rect: pygame.Rect, width: int, radius: int) -> None:
    """A gold ring fading into the felt around a large area (opaque, so it stays cheap
    on big rectangles)."""
    steps = 3
    for i in range(steps, 0, -1):
        colour = _mix(theme.GOLD, theme.FELT, i / (steps + 1))
        grow = 2 * i * width // steps
        pygame.draw.rect(surface, colour, rect.inflate(grow, grow), width=max(1, width // steps),
                         border_radius=radius + grow // 2)


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
    the same for every view of one table, so it is drawn once and copied."""
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


def _draw_board(surface: pygame.Surface, lay: TableLayout) -> None:
    """The background, then what is lit: the seat whose turn it is, loud panels,
    the hub's notices."""
    edge = max(2, lay.tile_short // 5)
    surface.blit(_background(
        lay.size,
        tuple((ln.rect, ln.colour, ln.seat is None) for ln in lay.lanes),
        tuple((p.rect, p.colour, p.seat is None) for p in lay.panels),
        lay.hub,
        edge,
    ), (0, 0))
    turn = {ln.seat for ln in lay.lanes if ln.turn}
    for lane in lay.lanes:
        if lane.turn:
            rect = pygame.Rect(lane.rect)
            _ring(surface, rect, edge * 2, edge * 2)
            pygame.draw.rect(surface, theme.GOLD, rect, width=edge, border_radius=edge * 2)
    for panel in lay.panels:
        rect = pygame.Rect(panel.rect)
        if panel.state in PANEL_FILLS:
            pygame.draw.rect(surface, PANEL_FILLS[panel.state], rect, border_radius=edge * 2)
            pygame.draw.rect(surface, panel.colour, rect, width=max(2, edge),
                             border_radius=edge * 2)
        if panel.seat is not None and panel.seat in turn:
            _ring(surface, rect, edge * 2, edge * 2)
            pygame.draw.rect(surface, theme.GOLD, rect, width=max(2, edge),
                             border_radius=edge * 2)
    radius = max(6, min(lay.hub[2], lay.hub[3]) // 12)
    for box, kind in lay.notice_boxes:
        colour = theme.ALERT if kind == "alert" else theme.WARNING
        pygame.draw.rect(surface, colour, box, border_radius=max(3, radius // 2))


def _draw_rails(surface: pygame.Surface, lay: TableLayout) -> None:
    width = max(2, lay.tile_short // 6)
    for rail in lay.rails:
        colour, w = (theme.GOLD, width * 2) if rail.turn else (rail.colour, width)
        pygame.draw.lines(surface, colour, False, rail.points, w)
    for points, colour in lay.tracks:
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, width)


def _draw_tiles(surface: pygame.Surface, lay: TableLayout, now: float) -> None:
    ring = max(3, lay.tile_short // 5)
    for tile in lay.tiles:
        if tile.pending is not None:
            _glow(surface, _inflate(tile.rect, ring // 2), theme.WARNING, ring, ring)
        if tile.newest:
            _newest(surface, tile, ring, now)
    for tile in lay.tiles:
        tiles.draw_tile(surface, tile.rect, tile.a, tile.b, tile.a_first, tile.facing)
    for tile in lay.tiles:
        if tile.pending is not None:
            pygame.draw.rect(surface, theme.WARNING, _inflate(tile.rect, 1),
                             width=max(2, ring // 2),
                             border_radius=ring)
    for marker in lay.markers:
        x, y, w, h = marker.rect
        img = tiles.marker(w, h, marker.colour, marker.train == "mexican")
        surface.blit(img, (x, y))
    for chip in lay.chips:
        pygame.draw.rect(surface, theme.INK_DIM, chip.rect, border_radius=ring)
        text.draw(surface, chip.label)
    for badge in lay.badges:
        pygame.draw.circle(surface, theme.INK, badge.centre, badge.radius)
        inner = badge.radius - max(2, badge.radius // 6)
        pygame.draw.circle(surface, theme.ALERT, badge.centre, inner)
        text.draw(surface, badge.label)


def _newest(surface: pygame.Surface, tile: TilePlace, ring: int, now: float) -> None:
    """The newest tile glows; for a moment after it is laid the glow pulses."""
    if now < NEWEST_PULSE:
        phase = math.sin(now / NEWEST_PULSE * 3 * math.pi) ** 2
        grow = round(ring * (1 + phase))
    else:
        grow = ring
    _glow(surface, _inflate(tile.rect, grow // 2), theme.INK, max(2, grow), ring)


def render(surface: pygame.Surface, view: View, *, now: float = 0.0) -> None:
    """Draw the table screen for `view`; `now` (seconds since the view arrived) only
    drives the pulse of the newest tile."""
    lay = layout(view, surface.get_size())
    _draw_board(surface, lay)
    _draw_rails(surface, lay)
    _draw_tiles(surface, lay, now)
    for item in lay.texts:
        text.draw(surface, item)
