"""Say a message in a language: `render(message, lang, names)`.

English comes from the templates themselves (`firmware_py.messages`, the engine's
`firmware_py.rules.refusals`); every other language from its gettext catalogue,
`firmware_py/locale/<lang>.po`, compiled to `<lang>.mo` when the package is installed and
read with the standard library's `gettext` (`npgettext` chooses the plural form by the
argument `n`). Each message id is its template's gettext context. A language is any
catalogue in that folder (docs/languages.md); English is always there.

How arguments are said follows from their names (docs/view.md, "Messages").

This module imports nothing from the project but the message tables, so the screens may
import it.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from firmware_py import messages as m
from firmware_py.rules.refusals import MEXICAN_ID, is_seat, is_train

LOCALE_DIR = Path(__file__).with_name("locale")
DEFAULT_LANGUAGE = "en"


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
    entry = m.TEMPLATES[message_id]
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


def render(message: Mapping[str, Any] | None, lang: str, names: Sequence[str] = ()) -> str:
    """The sentence of `message` in language `lang`; `names` are the view's seat names by
    position (a seat without one is said "seat N"). `None` says nothing: ""."""
    if not message:
        return ""
    message_id = str(message.get("id"))
    args: Mapping[str, Any] = message.get("args") or {}
    if message_id not in m.TEMPLATES:
        # A service of another version than this screen's: show the id, never crash.
        return message_id
    template = _template(message_id, lang, args.get("n"))
    shown = _Arguments({key: _argument(key, value, lang, names) for key, value in args.items()})
    text = template.format_map(shown)
    first = template[1 : template.find("}")] if template.startswith("{") else None
    if first is not None and _said_by_default(first, args.get(first), names):
        # "seat 2 must draw" opens a sentence: "Seat 2 must draw".
        text = text[:1].upper() + text[1:]
    return text


class _Arguments(dict[str, str]):
    """A message's arguments as said; one the sentence names but the message lacks (a
    service of another version) stays as its placeholder."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _said_by_default(key: str, value: object, names: Sequence[str]) -> bool:
    if is_train(key) or isinstance(value, Mapping):
        return True
    return is_seat(key) and not (isinstance(value, int) and 0 <= value < len(names))


def _argument(key: str, value: Any, lang: str, names: Sequence[str]) -> str:
    if isinstance(value, Mapping):
        return render(value, lang, names)
    if isinstance(value, list | tuple):
        separator = _template(m.LIST_SEPARATOR, lang, None)
        return separator.join(_argument(key, item, lang, names) for item in value)
    if is_seat(key) and isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(names):
            return names[value]
        return render(m.message(m.SEAT_NUMBERED, number=value), lang, names)
    if is_train(key):
        if str(value) == MEXICAN_ID:
            return render(m.message(m.TRAIN_MEXICAN), lang, names)
        return render(m.message(m.TRAIN_OF_SEAT, seat=int(value)), lang, names)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, lang)
    # Tiles keep their pips; text arguments (tags, a reader's reason) are shown as given.
    return str(value)
