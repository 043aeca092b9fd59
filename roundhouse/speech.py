"""What the table says aloud, and how a sentence is said for the ear.

A screen's sentences are written to be read: "12-12" is read "twelve dash twelve" by a
speech synthesiser in English and "twelve minus twelve" in Greek, a Persian score is in
Persian digits. `spoken` says a message for the ear instead: a tile as "double twelve"
or "twelve five" (the `speech.double` and `speech.tile` messages of each catalogue),
numbers as plain digits, which the synthesiser reads as words of its language, and no
"x/y" alternatives.

`announcements(old, new)` says what changed between two public views that is worth
saying aloud: whose turn it is (and a double to satisfy), a seat down to one tile, the
end of a round and who went out, the winner. They are drawn from the public view only and
name no tile but a pending double on the table, so a hidden tile is never spoken. Each
is in the language of the seat it is about, else in the table's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from roundhouse import messages as m
from roundhouse.declension import Name
from roundhouse.message import Arg, Message, message
from roundhouse.render import Names, clean, render
from roundhouse.view import View
from roundhouse.vocabulary import tile_pips

__all__ = ["Announcement", "announcements", "spoken"]

# A choice written with a slash between two words ("του/της"): the first is said.
_ALTERNATIVE = re.compile(r"(?<=[^\W\d_])/[^\W\d_]+")


@dataclass(frozen=True)
class Announcement:
    """One sentence to say: about `seat` (None: the whole table), in `lang`."""

    seat: int | None
    lang: str
    text: str


def _is_tile_key(key: str) -> bool:
    return key == "tile" or key.endswith("_tile")


def _for_the_ear(key: str, value: Arg) -> Arg:
    if isinstance(value, Message):
        return _spoken_message(value)
    if _is_tile_key(key) and isinstance(value, str) and "-" in value:
        try:
            a, b = tile_pips(value)
        except (ValueError, TypeError):
            return value
        if a == b:
            return message(m.SPEECH_DOUBLE, value=str(a))
        return message(m.SPEECH_TILE, a=str(a), b=str(b))
    return value


def _spoken_message(said: Message) -> Message:
    return Message(said.id, tuple((k, _for_the_ear(k, v)) for k, v in said.args))


def _clean(name: str | Name) -> Name:
    if isinstance(name, str):
        return Name(clean(name))
    forms = tuple((lang, tuple((case, clean(form)) for case, form in cased))
                  for lang, cased in name.forms)
    return replace(name, text=clean(name.text), forms=forms)


def spoken(said: Message, lang: str, names: Names = ()) -> str:
    """`said` as a synthesiser should read it in `lang` (tiles by their numbers, digits
    0-9, names without control characters, in the case the sentence needs)."""
    text = render(_spoken_message(said), lang, [_clean(n) for n in names])
    digits = render(message(m.LANGUAGE_DIGITS), lang)
    if len(digits) == 10:
        text = text.translate(str.maketrans(digits, "0123456789"))
    return _ALTERNATIVE.sub("", text)


def _language(view: View, seat: int | None) -> str:
    if seat is not None and 0 <= seat < len(view.seats):
        return str(view.seats[seat].language or view.language or "en")
    return str(view.language or "en")


def _names(view: View) -> tuple[Name, ...]:
    return view.people()


def _first_pending(view: View) -> str | None:
    pending = view.pending_doubles or ()
    return pending[0].tile if pending else None


def announcements(old: View | None, new: View) -> list[Announcement]:
    """What to say aloud now that `new` follows `old` (None: the first view seen, of
    which only the seat to act is said)."""
    out: list[Announcement] = []

    def say(seat: int | None, said: Message) -> None:
        lang = _language(new, seat)
        out.append(Announcement(seat, lang, spoken(said, lang, _names(new))))

    playing = new.phase == "play"
    was_playing = old is not None and old.phase == "play"
    if playing and old is not None:
        for seat, info in enumerate(new.seats):
            before = old.seats[seat].one_tile if seat < len(old.seats) else False
            if info.one_tile and not before:
                say(seat, message(m.SPEECH_ONE_TILE, seat=seat))
    turn = new.turn
    first = _first_pending(new)
    if playing and turn is not None:
        new_seat = old is None or not was_playing or old.turn != turn
        # A seat also keeps its turn to satisfy the double it just laid (or the next one
        # in order): a new thing to do, though not a new seat to do it.
        new_double = old is None or first != _first_pending(old)
        if first is not None and (new_seat or new_double):
            say(turn, message(m.SPEECH_SATISFY, seat=turn, tile=first))
        elif new_seat:
            say(turn, message(m.SPEECH_TURN, seat=turn))
    if was_playing and new.phase in ("round_over", "game_over"):
        if new.went_out is not None:
            say(None, message(m.SPEECH_ROUND_OVER, round=new.round, seat=new.went_out))
        else:
            say(None, message(m.SPEECH_ROUND_BLOCKED, round=new.round))
    over = new.phase == "game_over" and (old is None or old.phase != "game_over")
    if over and new.ranking:
        say(None, message(m.SPEECH_WINNER, seat=new.ranking[0]))
    return out
