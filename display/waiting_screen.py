"""What a screen shows while the table service is away."""

from __future__ import annotations

import pygame

from display import text, theme


def render(surface: pygame.Surface, socket_path: str) -> None:
    width, height = surface.get_size()
    surface.fill(theme.FELT_DARK)
    text.draw(surface, text.fit("Waiting for the table…", (width // 10, height // 3,
                                width * 8 // 10, height // 5), max_size=160, min_size=12,
                                colour=theme.INK))
    text.draw(surface, text.fit(f"connecting to {socket_path}", (width // 10, height * 3 // 5,
                                width * 8 // 10, height // 12), max_size=60, min_size=10,
                                colour=theme.INK_DIM))
