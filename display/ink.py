"""How tall letters are drawn, measured as ink: the size a reader sees, not a nominal one.

A font size says little about how big letters look: pygame's default font opens at 0.6875
of the size asked for, DejaVu Sans and the Telugu font at about 0.6, and a capital letter
fills only part of the em. The screens set their type by the height of the letters as
drawn instead: the cap height of Latin, Greek and Cyrillic ("H"), and for scripts without
capitals their x-height, the body of a letter standing on the baseline (Arabic script's
tooth of a joined "ـسـ", Telugu's "వ"), measured on the rendered glyph of the font that
script is written in. A goal given as a capital's height asks of those scripts the
x-height of a Latin line with capitals that tall: Arabic script's body is small beside
its tall letters (at one nominal size half a Latin capital), so Persian and Arabic are
set larger than Latin to read as well.
"""

from __future__ import annotations

import io
from functools import lru_cache

import pygame

from display import shaping
from roundhouse.render import language_name

# The letter whose drawn height is the script's measure of size.
REFERENCE = {"Latn": "H", "Grek": "Η", "Cyrl": "Н", "Arab": "ـسـ", "Hebr": "ה",
             "Telu": "వ", "Zyyy": "H"}
LARGEST = 400  # nominal sizes searched for a height


def language_script(lang: str | None) -> str:
    """The script a language is written in, as its catalogue writes its own name."""
    if not lang:
        return "Latn"
    said = language_name(lang)
    return next((shaping.script_of(c) for c in said if shaping.script_of(c) != "Zyyy"),
                "Latn")


def face_for(script: str, rtl: bool) -> shaping.Face:
    """The font a run of `script` is written in first, in a line of that direction."""
    chains = shaping.CHAINS_RTL if rtl else shaping.CHAINS
    return chains.get(script, chains["Latn"])[0]


@lru_cache(maxsize=4096)
def height(face: shaping.Face, size: int, script: str) -> int:
    """The drawn height in pixels of `script`'s reference letter in `face` at nominal
    `size`. The font is opened here and let go: measuring must not fill the screens'
    font cache."""
    if not pygame.font.get_init():
        pygame.font.init()
    opened = pygame.font.Font(io.BytesIO(shaping.font_bytes(face.path)), face.pixels(size))
    opened.set_script(script if script != "Zyyy" else "Latn")
    if script in ("Arab", "Hebr"):
        opened.set_direction(pygame.DIRECTION_RTL)
    drawn = opened.render(REFERENCE.get(script, "H"), True, (255, 255, 255))
    return int(drawn.get_bounding_rect(min_alpha=128).height)


def run_height(run: shaping.Run, size: int) -> int:
    """How tall a run's letters stand at nominal `size`, by its script's measure."""
    return height(run.face, size, run.script)


CAPITALS = ("Latn", "Grek", "Cyrl", "Zyyy")


def x_share() -> float:
    """The default font's x-height as a share of its capitals' height."""
    return _x_share()


@lru_cache(maxsize=1)
def _x_share() -> float:
    if not pygame.font.get_init():
        pygame.font.init()
    opened = pygame.font.Font(io.BytesIO(shaping.font_bytes(shaping.DEFAULT.path)), 200)
    x, cap = (opened.render(c, True, (255, 255, 255)).get_bounding_rect(min_alpha=128).height
              for c in "xH")
    return x / cap


def goal(capitals: int, script: str) -> int:
    """The height a script's reference letter must reach for a goal of `capitals` px
    capitals: the capitals themselves, or for a script without them the x-height of a
    Latin line with capitals that tall."""
    if script in CAPITALS:
        return capitals
    return max(1, round(capitals * x_share()))


@lru_cache(maxsize=256)
def size_for(capitals: int, lang: str | None) -> int:
    """The smallest nominal size at which `lang`'s letters read as tall as capitals
    `capitals` pixels high (by `goal`)."""
    script = language_script(lang)
    face = face_for(script, script in ("Arab", "Hebr"))
    pixels = goal(capitals, script)
    low, high = 1, LARGEST
    while low < high:
        mid = (low + high) // 2
        if height(face, mid, script) >= pixels:
            high = mid
        else:
            low = mid + 1
    return low
