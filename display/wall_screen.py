"""The wall screen: the scoreboard seen from across the room, painted from the geometry
of `wall_layout`. No game logic: the same view gives the same pixels."""

from __future__ import annotations

import pygame

from display import text, theme, tiles
from display.wall_layout import Chart, layout
from roundhouse.view import View

FILLS: dict[str, theme.Colour] = {
    "title": theme.HUB,
    "header": theme.FELT_DARK,
    "row": theme.PANEL,
    "row_alt": theme.FELT_DARK,
    "turn": theme.GOLD,
    # Ivory, not gold: a round's winner stays visible on the gold row of the seat to act.
    "winner": theme.IVORY,
    "current": theme.LANE,
    "first": theme.GOLD,
    "one_tile": theme.ALERT,
    "chart": theme.FELT_DARK,
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
    if lay.chart is not None:
        _draw_chart(surface, lay.chart)
    for item in lay.texts:
        text.draw(surface, item)


def _draw_chart(surface: pygame.Surface, chart: Chart) -> None:
    for start, end in chart.grid:
        pygame.draw.line(surface, theme.LANE, start, end, max(1, chart.line_width // 2))
    # The leader's line last, on top of the others.
    for series in sorted(chart.series, key=lambda s: -s.points[-1][1]):
        if len(series.points) > 1:
            pygame.draw.lines(surface, series.colour, False, series.points, chart.line_width)
        for point in series.points[1:]:
            pygame.draw.circle(surface, series.colour, point, chart.line_width + 2)
