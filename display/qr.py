"""The QR code of the phone page's address on the wall (`roundhouse display --view wall
--qr URL`): dark modules on an ivory card with its quiet zone, in the bottom corner
on the reader's end side, with "scan to follow the game on your phone" under it, a
fifth of the screen's height: a phone reads it from a few steps. It is shown in the
lobby, while the players gather, where the wall has room for it above the prompt;
during the game every corner of the wall is the scoreboard's.

segno (the `night` extra) makes the code; a screen without it is told so at start.
"""

from __future__ import annotations

import pygame

from display import DisplayError, text, theme
from roundhouse.messages import WEB_SCAN, message
from roundhouse.render import render

QUIET = 2  # modules of white around the code; 4 is the standard's, 2 reads on a screen
Rect = tuple[int, int, int, int]


def matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules, rows from the top, True for dark."""
    try:
        import segno
    except ImportError:
        raise DisplayError("--qr needs segno: pip install 'roundhouse[night]'") from None
    return tuple(tuple(bool(m) for m in row) for row in segno.make(url, error="m").matrix)


def placement(size: tuple[int, int], modules: int, rtl: bool) -> tuple[Rect, int]:
    """The card's rectangle and the size of one module in pixels."""
    width, height = size
    side = max(modules + 2 * QUIET, height // 5)
    module = max(1, side // (modules + 2 * QUIET))
    side = module * (modules + 2 * QUIET)
    caption = max(14, height // 40) * 2
    margin = height // 60
    above_prompt = height // 11
    top = height - above_prompt - side - caption
    left = margin if rtl else width - margin - side
    return (left, top, side, side + caption), module


def shown(phase: str) -> bool:
    return phase == "lobby"


def draw(surface: pygame.Surface, url: str, lang: str,
         modules: tuple[tuple[bool, ...], ...]) -> Rect:
    """Draw the card; returns the rectangle of the code itself (quiet zone included)."""
    rtl = text.reads_rtl(lang)
    (left, top, side, full), module = placement(surface.get_size(), len(modules), rtl)
    pygame.draw.rect(surface, theme.IVORY, (left, top, side, full),
                     border_radius=max(2, module))
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                pygame.draw.rect(surface, theme.DARK_INK,
                                 (left + (QUIET + x) * module, top + (QUIET + y) * module,
                                  module, module))
    caption = render(message(WEB_SCAN), lang)
    text.draw(surface, text.fit(caption, (left + module, top + side, side - 2 * module,
                                          full - side - module),
                                max_size=48, min_size=8, colour=theme.DARK_INK, max_lines=2,
                                lang=lang))
    return (left, top, side, side)
