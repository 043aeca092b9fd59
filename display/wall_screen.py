"""The wall screen: the scoreboard seen from across the room, painted from the geometry
of `wall_layout`. No game logic: the same view gives the same pixels."""

from __future__ import annotations

import pygame

from display import text, theme, tiles
from display.views import View
from display.wall_layout import layout

FILLS: dict[str, theme.Colour] = {
    "title": theme.HUB,
    "header": theme.FELT_DARK,
    "row": theme.PANEL,
    "row_alt": theme.FELT_DARK,
    "turn": theme.GOLD,
    "winner": theme.GOLD,
    "current": theme.LANE,
    "first": theme.GOLD,
}


def render(surface: pygame.Surface, view: View, *, now: float = 0.0) -> None:
    """Draw the wall screen for `view`. `now` is accepted for symmetry with the table
    screen; the scoreboard has no animation."""
    lay = layout(view, surface.get_size())
    surface.fill(theme.FELT)
    radius = max(3, lay.size[1] // 200)
    for cell in lay.cells:
        pygame.draw.rect(surface, FILLS[cell.kind], cell.rect,
                         border_radius=0 if cell.kind in ("title", "current") else radius)
    for tile in lay.tiles:
        tiles.draw_tile(surface, tile.rect, tile.a, tile.b, tile.a_first, tile.facing)
    for item in lay.texts:
        text.draw(surface, item)
