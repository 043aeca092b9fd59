"""How the screens write a seat's name, in the reader's language.

A seat the configuration names nobody is called "Seat N" in the view, in English
(`firmware_py/config.py` gives that default, and the game's records keep it). The screens
say it in their reader's language instead (a Persian panel reads "جایگاه ۵", not
"Seat 5"), as their sentences already say a seat without a name.
"""

from __future__ import annotations

from display import text
from roundhouse.messages import SEAT_NUMBERED, message
from roundhouse.render import render
from roundhouse.view import View


def seat_name(view: View, seat: int, lang: str) -> str:
    """The name of `seat` as its reader in `lang` sees it."""
    name = str(view.seats[seat].name)
    if name != f"Seat {seat + 1}":
        return name
    said = render(message(SEAT_NUMBERED, number=seat + 1), lang)
    return said[:1].upper() + said[1:]


def names(view: View, lang: str) -> list[str]:
    """The seats' names as a sentence in `lang` takes them: each closed with a mark of the
    sentence's direction, so a number after a name stays in the sentence's order."""
    return [text.isolated(seat_name(view, i, lang), lang) for i in range(len(view.seats))]
