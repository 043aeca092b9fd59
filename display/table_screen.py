"""The table screen: the hub, every train, the seats and the messages, painted from the
geometry of `table_layout`. No game logic: the same view gives the same pixels."""

from __future__ import annotations

import math

import pygame

from display import text, theme, tiles
from display.table_layout import TableLayout, TilePlace, layout
from display.views import View

NEWEST_PULSE = 1.6  # seconds the newest tile pulses after it is laid


def _inflate(rect: tuple[int, int, int, int], d: int) -> pygame.Rect:
    return pygame.Rect(rect).inflate(2 * d, 2 * d)


def _glow(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour, width: int,
          radius: int) -> None:
    """A soft halo `width` pixels wide around `rect`, strongest next to it."""
    halo = pygame.Surface((rect.w + 2 * width, rect.h + 2 * width), pygame.SRCALPHA)
    area = halo.get_rect()
    for i in range(width):
        alpha = 40 + 180 * i // max(1, width)
        pygame.draw.rect(halo, (*colour, alpha), area.inflate(-2 * i, -2 * i), width=1,
                         border_radius=radius + width - i)
    surface.blit(halo, (rect.x - width, rect.y - width))


def _draw_lanes(surface: pygame.Surface, lay: TableLayout) -> None:
    edge = max(2, lay.tile_short // 5)
    for lane in lay.lanes:
        rect = pygame.Rect(lane.rect)
        fill = theme.MEXICAN_LANE if lane.seat is None else theme.LANE
        pygame.draw.rect(surface, fill, rect, border_radius=edge * 2)
        if lane.turn:
            _glow(surface, rect, theme.GOLD, edge * 2, edge * 2)
            pygame.draw.rect(surface, theme.GOLD, rect, width=edge, border_radius=edge * 2)
        else:
            pygame.draw.rect(surface, lane.colour, rect, width=1, border_radius=edge * 2)
    for panel in lay.panels:
        rect = pygame.Rect(panel.rect)
        fill = {
            "turn": theme.GOLD,
            "one_tile": theme.ALERT,
            "empty": theme.EMPTY_SEAT,
            "mexican": theme.MEXICAN_LANE,
        }.get(panel.state, theme.PANEL)
        pygame.draw.rect(surface, fill, rect, border_radius=edge * 2)
        border = theme.GOLD if panel.state == "turn" else panel.colour
        if panel.seat is not None and lay.lanes and any(
            ln.turn and ln.seat == panel.seat for ln in lay.lanes
        ):
            _glow(surface, rect, theme.GOLD, edge * 2, edge * 2)
            border = theme.GOLD
        pygame.draw.rect(surface, border, rect, width=max(2, edge), border_radius=edge * 2)


def _draw_hub(surface: pygame.Surface, lay: TableLayout) -> None:
    rect = pygame.Rect(lay.hub)
    radius = max(6, min(rect.w, rect.h) // 12)
    pygame.draw.rect(surface, theme.HUB, rect, border_radius=radius)
    pygame.draw.rect(surface, theme.SPINNER, rect, width=max(2, radius // 4), border_radius=radius)
    for box, kind in lay.notice_boxes:
        colour = theme.ALERT if kind == "alert" else theme.WARNING
        pygame.draw.rect(surface, colour, box, border_radius=max(3, radius // 2))


def _draw_rails(surface: pygame.Surface, lay: TableLayout) -> None:
    width = max(2, lay.tile_short // 6)
    turn_seats = {ln.seat for ln in lay.lanes if ln.turn}
    for lane, rail in zip(lay.lanes, lay.rails, strict=False):
        colour = theme.GOLD if lane.seat in turn_seats else rail.colour
        w = width * 2 if lane.seat in turn_seats else width
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
    surface.fill(theme.FELT)
    _draw_lanes(surface, lay)
    _draw_hub(surface, lay)
    _draw_rails(surface, lay)
    _draw_tiles(surface, lay, now)
    for item in lay.texts:
        text.draw(surface, item)
