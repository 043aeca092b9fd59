"""Domino tiles, train markers and the other small tokens, drawn to look like the real
ones: ivory faces, a divider with a brass spinner, coloured pips up to 9 and clear
numerals from 10 to 18 (double-12 to double-18 sets)."""

from __future__ import annotations

from functools import lru_cache

import pygame

from display import text, theme

# Pip positions on a 3 x 3 grid, (along the tile, across it) in 0..2.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
    7: ((0, 0), (1, 0), (2, 0), (1, 1), (0, 2), (1, 2), (2, 2)),
    8: ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),
    9: tuple((i, j) for i in range(3) for j in range(3)),
}
SUPERSAMPLE = 2  # faces are drawn larger and scaled down, for round pips


def _half(face: pygame.Surface, value: int, area: pygame.Rect, vertical: bool, facing: int) -> None:
    side = min(area.w, area.h)
    if value <= 9:
        margin = side * 0.22
        step = (side - 2 * margin) / 2
        radius = max(1, round(side * 0.1))
        for along, across in PIPS[value]:
            dx, dy = (across, along) if vertical else (along, across)
            centre = (round(area.x + margin + dx * step), round(area.y + margin + dy * step))
            pygame.draw.circle(face, theme.PIP_COLOURS[value], centre, radius)
        return
    label = str(value)
    size = max(6, int(side * 1.15))
    while size > 6 and text.text_width(label, size) > side * 0.9:
        size -= 1
    img = text.font(size).render(label, True, theme.PIP_COLOURS[value])
    if facing:
        img = pygame.transform.rotate(img, facing)
    face.blit(img, img.get_rect(center=area.center))


# The tiles of a full table (a double-18 set laid out, 190) at three sizes: the one on
# the screen and two drawn ahead (table_screen.Painter.ahead).
FACES_KEPT = 640


@lru_cache(maxsize=FACES_KEPT)
def face(a: int, b: int, w: int, h: int, a_first: bool, facing: int) -> pygame.Surface:
    """The picture of one tile, `w` x `h` pixels, `a` at the top or left when `a_first`."""
    # When the trains' tiles shrink a size, every face is drawn anew: the blank face is
    # kept, and only the numbers are drawn on a copy of it.
    big = _blank(w, h).copy()
    k = SUPERSAMPLE
    bw, bh = w * k, h * k
    vertical = h > w
    if vertical:
        halves = (pygame.Rect(0, 0, bw, bh // 2), pygame.Rect(0, bh // 2, bw, bh // 2))
    else:
        halves = (pygame.Rect(0, 0, bw // 2, bh), pygame.Rect(bw // 2, 0, bw // 2, bh))
    first, second = (a, b) if a_first else (b, a)
    _half(big, first, halves[0], vertical, facing)
    _half(big, second, halves[1], vertical, facing)
    pygame.draw.circle(big, theme.SPINNER, big.get_rect().center, max(1, min(bw, bh) // 16))
    return pygame.transform.smoothscale(big, (w, h))


# Kept for a size or two of tiles (both ways round): drawn larger, a face is up to
# 120 x 240 pixels.
@lru_cache(maxsize=4)
def _blank(w: int, h: int) -> pygame.Surface:
    """A face without its numbers, drawn `SUPERSAMPLE` times larger: ivory, its edge,
    the divider."""
    k = SUPERSAMPLE
    bw, bh = w * k, h * k
    big = pygame.Surface((bw, bh), pygame.SRCALPHA)
    short = min(bw, bh)
    radius = max(2, short // 6)
    outer = big.get_rect()
    pygame.draw.rect(big, theme.IVORY_EDGE, outer, border_radius=radius)
    pygame.draw.rect(big, theme.IVORY, outer.inflate(-2 * k, -2 * k), border_radius=radius)
    if h > w:
        line = ((short // 8, bh // 2), (bw - short // 8, bh // 2))
    else:
        line = ((bw // 2, short // 8), (bw // 2, bh - short // 8))
    pygame.draw.line(big, theme.DIVIDER, *line, max(1, short // 24))
    return big


def draw_tile(surface: pygame.Surface, rect: tuple[int, int, int, int], a: int, b: int,
              a_first: bool, facing: int) -> None:
    x, y, w, h = rect
    surface.blit(face(a, b, w, h, a_first, facing), (x, y))


@lru_cache(maxsize=256)
def marker(w: int, h: int, colour: theme.Colour, mexican: bool) -> pygame.Surface:
    """A train token: a little locomotive on the seat's colour (tricolour for the
    Mexican train)."""
    k = SUPERSAMPLE
    big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
    r = big.get_rect()
    pygame.draw.rect(big, theme.DARK_INK, r, border_radius=r.w // 4)
    inner = r.inflate(-2 * k, -2 * k)
    if mexican:
        third = inner.w // 3
        for i, c in enumerate((theme.MEXICAN_GREEN, theme.INK, theme.MEXICAN)):
            pygame.draw.rect(big, c, (inner.x + i * third, inner.y, third + 1, inner.h))
        ink: theme.Colour = theme.DARK_INK
    else:
        pygame.draw.rect(big, colour, inner, border_radius=r.w // 4)
        ink = theme.INK

    def at(fx: float, fy: float, fw: float, fh: float) -> pygame.Rect:
        return pygame.Rect(inner.x + fx * inner.w, inner.y + fy * inner.h,
                           fw * inner.w, fh * inner.h)

    pygame.draw.rect(big, ink, at(0.14, 0.42, 0.5, 0.28))  # boiler
    pygame.draw.rect(big, ink, at(0.58, 0.24, 0.26, 0.46))  # cab
    pygame.draw.rect(big, ink, at(0.2, 0.24, 0.1, 0.2))  # chimney
    for fx in (0.3, 0.7):
        pygame.draw.circle(big, ink, at(fx, 0.76, 0, 0).topleft, max(1, inner.w // 9))
    return pygame.transform.smoothscale(big, (w, h))
