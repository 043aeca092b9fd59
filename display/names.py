"""How the screens write a seat's name, in the reader's language.

A seat the configuration names nobody is called "Seat N" in the view, in English
(`firmware_py/config.py` gives that default, and the game's records keep it). The screens
say it in their reader's language instead (a Persian panel reads "جایگاه ۵", not
"Seat 5"), as their sentences already say a seat without a name.
"""

from __future__ import annotations

from functools import lru_cache

from roundhouse.declension import Name
from roundhouse.message import Message
from roundhouse.messages import SEAT_NUMBERED, message
from roundhouse.render import Names, clean, render
from roundhouse.view import SeatView, View


def seat_name(view: View, seat: int, lang: str) -> str:
    """The name of `seat` as its reader in `lang` sees it, without bidi controls or control
    characters (a name from the configuration may hold any text)."""
    return _named(str(view.seats[seat].name), seat, lang)


@lru_cache(maxsize=512)  # a screen's few seats in its few languages, asked for each text
def _named(given: str, seat: int, lang: str) -> str:
    name = clean(given).strip()
    if name and name != f"Seat {seat + 1}":
        return name
    said = render(message(SEAT_NUMBERED, number=seat + 1), lang)
    return said[:1].upper() + said[1:]


# The names of the view drawn last, in each language, with that view's seats.
_recent: dict[str, tuple[tuple[SeatView, ...], tuple[Name, ...]]] = {}


def names(view: View, lang: str) -> tuple[Name, ...]:
    """The seats' names as a sentence in `lang` says them, with the grammar the
    configuration gives them (a sentence may ask for a name in a case: "του Νίκου")."""
    # Asked for by nearly every text of a view: the seats of the view drawn last are
    # known by identity, not rebuilt and hashed each time.
    seats = view.seats
    known = _recent.get(lang)
    if known is not None and known[0] is seats:
        return known[1]
    said = _names(tuple(str(s.name) for s in seats), view.people(), lang)
    _recent[lang] = (seats, said)
    return said


@lru_cache(maxsize=64)
def _names(given: tuple[str, ...], people: tuple[Name, ...], lang: str) -> tuple[Name, ...]:
    out = []
    for i, (name, person) in enumerate(zip(given, people, strict=True)):
        said = _named(name, i, lang)
        if said != clean(name).strip():  # "Seat N", or a blank name
            person = Name(said, number=i + 1)
        out.append(Name(said, person.gender, person.forms, person.number))
    return tuple(out)


def say(said: Message | None, lang: str, seat_names: Names = ()) -> str:
    """A message as the screens write it: every argument between bidi isolates, so a
    name, a path or a number keeps its own direction inside any sentence and leaves the
    sentence's order alone."""
    return render(said, lang, seat_names, isolate=True)
