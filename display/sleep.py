"""The screens sleep when the table does: with no game in play and nothing happening, a
screen dims, then blanks; any input or new view wakes it at once.

The table service and its journal know nothing of it: a sleeping screen still follows
every view, and the first one that shows something new (a seat joining in the lobby, a
new game) wakes it, as does a key, a click or a tap on the screen itself. During a game
(the deal, play, the reveal and summary of a round) a screen never sleeps. Dimming darkens
the picture (`dim_to` of its brightness); blanking draws it black, and the screen then
switches its panel off where it can (display.panel).
"""

from __future__ import annotations

import pygame

from roundhouse.tablefile import SleepSettings
from roundhouse.view import View

AWAKE, DIM, BLANK = "awake", "dim", "blank"
# The phases of a game in play: a screen stays awake through them.
IN_PLAY = frozenset({"deal", "play", "round_over"})


def in_play(view: View | None) -> bool:
    return view is not None and str(view.phase) in IN_PLAY


def state(settings: SleepSettings, idle: float, view: View | None) -> str:
    """How a screen should look after `idle` seconds without input or a new view."""
    if in_play(view):
        return AWAKE
    if settings.blank_after_s and idle >= settings.blank_after_s:
        return BLANK
    if settings.dim_after_s and idle >= settings.dim_after_s:
        return DIM
    return AWAKE


def darken(surface: pygame.Surface, how: str, settings: SleepSettings) -> None:
    """Dim the picture on `surface`, or blank it."""
    if how == BLANK:
        surface.fill((0, 0, 0))
    elif how == DIM:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, round(255 * (1 - settings.dim_to))))
        surface.blit(shade, (0, 0))
