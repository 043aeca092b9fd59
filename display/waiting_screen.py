"""What a screen shows while the table service is away (in the screen's `--lang`, as
it has no view to take a language from)."""

from __future__ import annotations

import pygame

from display import text, theme
from display.names import say
from roundhouse.messages import message
from roundhouse.render import DEFAULT_LANGUAGE


def render(surface: pygame.Surface, socket_path: str, lang: str | None = None) -> None:
    width, height = surface.get_size()
    lang = lang or DEFAULT_LANGUAGE
    surface.fill(theme.FELT_DARK)
    text.draw(surface, text.fit(say(message("screen.waiting_table"), lang),
                                (width // 10, height // 3, width * 8 // 10, height // 5),
                                max_size=160, min_size=12, colour=theme.INK, lang=lang))
    # Isolated like every argument, a path keeps its slashes in any sentence.
    text.draw(surface, text.fit(say(message("screen.connecting", text=socket_path), lang),
                                (width // 10, height * 3 // 5, width * 8 // 10, height // 12),
                                max_size=60, min_size=10, colour=theme.INK_DIM, lang=lang))
