"""Say a message in a language: `render(message, lang, names)`.

English comes from the templates themselves (`roundhouse.messages`, the engine's
`roundhouse.refusals`); every other language from its gettext catalogue,
`roundhouse/locale/<lang>.po`, compiled to `<lang>.mo` when the package is installed and
read with the standard library's `gettext` (`npgettext` chooses the plural form by the
argument `n`). Each message id is its template's gettext context. A language is any
catalogue in that folder (docs/languages.md); English is always there.

How arguments are said follows from their names (docs/view.md, "Messages"). A catalogue
may ask for a seat or a train in a grammatical case, `{seat@genitive}`: the forms come
from `roundhouse.declension`.

This module imports nothing of the project outside `roundhouse`, so the screens may import it.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from roundhouse import messages as m
from roundhouse.declension import Name, cases, decline, form_of
from roundhouse.message import TEMPLATES, Arg, Message, is_seat, is_train
from roundhouse.vocabulary import DEFAULT_LANGUAGE, MEXICAN

__all__ = ["DEFAULT_LANGUAGE", "FSI", "PDI", "Name", "Names", "clean", "digits", "direction",
           "language_name", "languages", "number", "render"]

LOCALE_DIR = Path(__file__).with_name("locale")
# The seats' names by position: as written, or with their grammar (`Name`).
Names = Sequence[str | Name]


def languages() -> tuple[str, ...]:
    """The language codes the table can speak: English and every catalogue shipped."""
    return _languages_in(LOCALE_DIR)


@cache
def _languages_in(folder: Path) -> tuple[str, ...]:
    # Asked for every seat and screen of a configuration: the folder is read once.
    codes = {DEFAULT_LANGUAGE} | {p.stem for p in folder.glob("*.po")}
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


# First strong isolate and pop directional isolate (Unicode's bidi isolates).
FSI, PDI = "\u2068", "\u2069"
# What a name or a text argument may not carry into a sentence: bidi embeddings,
# overrides and isolates (an unpaired one would reorder the rest of the sentence), the
# direction marks (the isolate around it does their work) and control characters (a
# line break, a tab, a NUL from a configuration file).
_UNSAFE = dict.fromkeys([*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x200E, 0x200F,
                         0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def clean(text: str) -> str:
    """`text` without bidi controls and control characters: what a screen may write."""
    return text.translate(_UNSAFE)


def render(message: Message | None, lang: str, names: Names = (),
           *, isolate: bool = False) -> str:
    """The sentence of `message` in language `lang`; `names` are the view's seat names by
    position (a seat without one is said "seat N"), each as written or as a `Name` with
    the forms the configuration gives it. `None` says nothing: "".

    With `isolate` (the screens), every argument is set in the sentence between Unicode
    bidi isolates (U+2068 ... U+2069), and names and texts lose any bidi controls of
    their own: a Persian name in an English sentence, a Latin one or a path in a Persian
    sentence, keep their own order and leave the sentence's alone."""
    if message is None:
        return ""
    text = _say(message, lang, names, isolate)
    first, cased = _first_argument(message, lang)
    if first is not None and (cased or _said_by_default(first, message.get(first), names)):
        # "seat 2 must draw" opens a sentence: "Seat 2 must draw"; so does a name with
        # its article: "Του Νίκου έμεινε μία πέτρα".
        at = len(text) - len(text.lstrip(FSI))
        text = text[:at] + text[at:at + 1].upper() + text[at + 1:]
    return text


def _first_argument(message: Message, lang: str) -> tuple[str | None, bool]:
    """The argument a sentence opens with in `lang`, if it opens with one, and whether
    the sentence asks for it in a case."""
    if message.id not in TEMPLATES:
        return None, False
    template = _template(message.id, lang, message.get("n"))
    if not template.startswith("{"):
        return None, False
    key, _, case = template[1 : template.find("}")].partition("@")
    return key, bool(case)


def _say(message: Message, lang: str, names: Names, isolate: bool = False) -> str:
    """A message as said inside a sentence: no capital letter of its own."""
    if message.id not in TEMPLATES:
        # A service of another version than this screen's: show the id, never crash.
        return message.id
    template = _template(message.id, lang, message.get("n"))
    said = {key: _argument(key, value, lang, names, isolate) for key, value in message.args}
    # A catalogue may ask for an argument in a grammatical case: "{train@genitive}".
    args = dict(message.args)
    for key, case in _CASED.findall(template):
        if key in args:
            said[f"{key}@{case}"] = _argument(key, args[key], lang, names, isolate, case)
    if isolate:
        said = {key: f"{FSI}{value}{PDI}" for key, value in said.items()}
    return template.format_map(_Arguments(said))


# A placeholder with a grammatical case: "{train@genitive}".
_CASED = re.compile(r"\{([a-z_]+)@([a-z]+)\}")


def _in_case(said: Message, case: str | None) -> Message:
    """A message said inside a sentence (a train's title, a pad) as the message of the
    case the sentence asks for (`train.seat@genitive`), where there is one."""
    if case and f"{said.id}@{case}" in TEMPLATES:
        return Message(f"{said.id}@{case}", said.args)
    return said


class _Arguments(dict[str, str]):
    """A message's arguments as said; one the sentence names but the message lacks (a
    service of another version) stays as its placeholder."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _said_by_default(key: str, value: Arg, names: Names) -> bool:
    if is_train(key) or isinstance(value, Message):
        return True
    if not is_seat(key) or not isinstance(value, int):
        return False
    if not 0 <= value < len(names):
        return True
    said = names[value]
    return not (said if isinstance(said, str) else said.text)  # "seat N" in its stead


def _seat(seat: int, lang: str, names: Names, isolate: bool, case: str | None) -> str:
    """A seat as its sentence says it: its name, in the case asked for where the language
    has it (the configuration's form, else the language's rules, else the catalogue's
    construction for a name it cannot decline), or "seat N" without a name."""
    person = names[seat] if 0 <= seat < len(names) else None
    name = Name(person) if isinstance(person, str) else person
    number = seat if name is None or name.number is None else name.number
    if case is not None and case in cases(lang):
        if name is None or name.number is not None or not name.text:
            said = Message(f"seat.numbered@{case}", (("number", number),))
            return _say(said, lang, names, isolate)
        # (Declined as written on the screen: a bidi control pasted into the name is gone.)
        form = (form_of(name.forms, lang, case)
                or decline(clean(name.text).strip(), lang, case, name.gender))
        if form is not None:
            return clean(form) if isolate else form
        return _say(Message(f"seat.name@{case}", (("name", name.text),)), lang, names, isolate)
    if name is not None and name.text:
        return clean(name.text) if isolate else name.text
    return _say(m.message(m.SEAT_NUMBERED, number=number), lang, names, isolate)


def _argument(key: str, value: Arg, lang: str, names: Names,
              isolate: bool = False, case: str | None = None) -> str:
    if isinstance(value, Message):
        return _say(_in_case(value, case), lang, names, isolate)
    if isinstance(value, list | tuple):
        separator = _template(m.LIST_SEPARATOR, lang, None)
        items = (_argument(key, item, lang, names, isolate) for item in value)
        return separator.join(f"{FSI}{item}{PDI}" if isolate else item for item in items)
    if is_seat(key) and isinstance(value, int) and not isinstance(value, bool):
        return _seat(value, lang, names, isolate, case)
    if is_train(key):
        if str(value) == MEXICAN:
            return _say(_in_case(m.message(m.TRAIN_MEXICAN), case), lang, names, isolate)
        if isinstance(value, int | str) and str(value).isdigit():
            title = m.message(m.TRAIN_OF_SEAT, seat=int(value))
            return _say(_in_case(title, case), lang, names, isolate)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, lang)
    # Tiles keep their pips; text arguments (tags, a reader's reason) are shown as given.
    return clean(str(value)) if isolate else str(value)
