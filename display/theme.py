"""Colours shared by both screens, chosen to read from across a dim room."""

from __future__ import annotations

Colour = tuple[int, int, int]

FELT = (18, 74, 52)  # the table top behind everything
FELT_DARK = (12, 52, 37)
LANE = (24, 88, 63)
MEXICAN_LANE = (74, 44, 30)
HUB = (9, 38, 28)
INK = (245, 242, 232)
INK_DIM = (170, 190, 178)
DARK_INK = (25, 22, 18)
GOLD = (255, 196, 37)
ALERT = (214, 38, 38)
WARNING = (255, 140, 0)
IVORY = (246, 240, 222)
IVORY_EDGE = (120, 104, 80)
DIVIDER = (92, 80, 62)
SPINNER = (196, 160, 72)
PANEL = (10, 40, 30)
EMPTY_SEAT = (60, 70, 66)
MEXICAN = (206, 58, 44)
MEXICAN_GREEN = (0, 132, 72)

# One colour per seat (rails, panel accents, markers), far apart in hue.
SEAT_COLOURS: tuple[Colour, ...] = (
    (66, 160, 255), (255, 120, 60), (170, 110, 255), (60, 210, 140),
    (255, 90, 170), (230, 210, 60), (80, 220, 230), (240, 150, 200),
    (150, 200, 80), (200, 140, 90), (120, 140, 255), (255, 170, 110),
    (110, 230, 200), (210, 120, 230),
)

# Pip colours by number, as on coloured double-12 to double-18 sets: each number keeps
# its colour, so matching ends are found at a glance.
PIP_COLOURS: tuple[Colour, ...] = (
    (0, 0, 0), (20, 130, 200), (24, 130, 50), (200, 30, 30), (120, 70, 30),
    (30, 50, 160), (210, 110, 0), (130, 40, 150), (10, 100, 100), (50, 50, 50),
    (190, 0, 100), (0, 100, 160), (150, 90, 0), (90, 120, 20), (170, 40, 60),
    (40, 70, 120), (110, 60, 130), (0, 120, 80), (130, 30, 30),
)


def seat_colour(seat: int) -> Colour:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]
