"""Say a message in a language: `render(message, lang, names)`.

English comes from the templates themselves (`roundhouse.messages`, the engine's
`roundhouse.refusals`); every other language from its gettext catalogue,
`roundhouse/locale/<lang>.po`, compiled to `<lang>.mo` when the package is installed and
read with the standard library's `gettext` (`npgettext` chooses the plural form by the
argument `n`). Each message id is its template's gettext context. A language is any
catalogue in that folder (docs/languages.md); English is always there.

How arguments are said follows from their names (docs/view.md, "Messages").

This module imports nothing of the project outside `roundhouse`, so the screens may import it.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from roundhouse import messages as m
from roundhouse.message import TEMPLATES, Arg, Message, is_seat, is_train
from roundhouse.vocabulary import DEFAULT_LANGUAGE, MEXICAN

__all__ = ["DEFAULT_LANGUAGE", "digits", "direction", "language_name", "languages",
           "number", "render"]

LOCALE_DIR = Path(__file__).with_name("locale")


def languages() -> tuple[str, ...]:
    """The language codes the table can speak: English and every catalogue shipped."""
    codes = {DEFAULT_LANGUAGE} | {p.stem for p in LOCALE_DIR.glob("*.po")}
    return tuple(sorted(codes))


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    path = LOCALE_DIR / f"{lang}.mo"
    if lang == DEFAULT_LANGUAGE or not path.is_file():
        # An unknown code speaks English: check-config names it before the table starts.
        return gettext.NullTranslations()
    with path.open("rb") as fp:
        return gettext.GNUTranslations(fp)


def _template(message_id: str, lang: str, n: object) -> str:
    entry = TEMPLATES[message_id]
    catalogue = _catalogue(lang)
    if entry.plural is None:
        return catalogue.pgettext(message_id, entry.singular)
    count = n if isinstance(n, int) else 0
    return catalogue.npgettext(message_id, entry.singular, entry.plural, count)


def language_name(lang: str) -> str:
    """The language's name in itself ("فارسی", "Lietuvių")."""
    return _template(m.LANGUAGE_NAME, lang, None)


def direction(lang: str) -> str:
    """"rtl" or "ltr": how the language's lines run."""
    return "rtl" if _template(m.LANGUAGE_DIRECTION, lang, None).strip() == "rtl" else "ltr"


@cache
def _digit_table(lang: str) -> dict[int, int]:
    digits = _template(m.LANGUAGE_DIGITS, lang, None)
    if len(digits) != 10:
        digits = "0123456789"
    return str.maketrans("0123456789", digits)


def digits(text: str, lang: str) -> str:
    """`text` with its digits 0-9 written in the language's own digits."""
    return text.translate(_digit_table(lang))


def number(value: int, lang: str) -> str:
    return digits(str(value), lang)


def render(message: Message | None, lang: str, names: Sequence[str] = ()) -> str:
    """The sentence of `message` in language `lang`; `names` are the view's seat names by
    position (a seat without one is said "seat N"). `None` says nothing: ""."""
    if message is None:
        return ""
    text = _say(message, lang, names)
    first = _first_argument(message, lang)
    if first is not None and _said_by_default(first, message.get(first), names):
        # "seat 2 must draw" opens a sentence: "Seat 2 must draw".
        text = text[:1].upper() + text[1:]
    return text


def _first_argument(message: Message, lang: str) -> str | None:
    """The argument a sentence opens with in `lang`, if it opens with one."""
    if message.id not in TEMPLATES:
        return None
    template = _template(message.id, lang, message.get("n"))
    return template[1 : template.find("}")] if template.startswith("{") else None


def _say(message: Message, lang: str, names: Sequence[str]) -> str:
    """A message as said inside a sentence: no capital letter of its own."""
    if message.id not in TEMPLATES:
        # A service of another version than this screen's: show the id, never crash.
        return message.id
    template = _template(message.id, lang, message.get("n"))
    shown = _Arguments({key: _argument(key, value, lang, names) for key, value in message.args})
    return template.format_map(shown)


class _Arguments(dict[str, str]):
    """A message's arguments as said; one the sentence names but the message lacks (a
    service of another version) stays as its placeholder."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _said_by_default(key: str, value: Arg, names: Sequence[str]) -> bool:
    if is_train(key) or isinstance(value, Message):
        return True
    return is_seat(key) and not (isinstance(value, int) and 0 <= value < len(names))


def _argument(key: str, value: Arg, lang: str, names: Sequence[str]) -> str:
    if isinstance(value, Message):
        return _say(value, lang, names)
    if isinstance(value, list | tuple):
        separator = _template(m.LIST_SEPARATOR, lang, None)
        return separator.join(_argument(key, item, lang, names) for item in value)
    if is_seat(key) and isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(names):
            return names[value]
        return _say(m.message(m.SEAT_NUMBERED, number=value), lang, names)
    if is_train(key):
        if str(value) == MEXICAN:
            return _say(m.message(m.TRAIN_MEXICAN), lang, names)
        if isinstance(value, int | str) and str(value).isdigit():
            return _say(m.message(m.TRAIN_OF_SEAT, seat=int(value)), lang, names)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, lang)
    # Tiles keep their pips; text arguments (tags, a reader's reason) are shown as given.
    return str(value)
