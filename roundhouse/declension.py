"""A seat's name in the grammatical case its sentence needs (docs/languages.md, "Names in
their cases").

A catalogue of a language with cases may ask for a seat in one: `{seat@genitive}`. The
form said comes, first found, from

1. the configuration: `[[seats]] forms.el = { genitive = "του Νίκου" }`, carried to the
   screens in the view (`Name.forms`);
2. the rules here, for the common endings of names in the language's script: Greek
   masculine -ος, -ας, -ης and feminine -α, -η with their articles; Lithuanian -as, -is,
   -ys, -us, -a, -ė (`decline`);
3. the catalogue's own construction for a name it cannot decline, `seat.name@CASE`
   (Greek "του παίκτη {name}", "of the player Ali"); a seat without a name is said by
   `seat.numbered@CASE` ("της θέσης 3").

`CASES` lists the cases each language's sentences may ask for; the catalogue checker
refuses any other. A language without an entry has none: its sentences say names as
they are.

This module imports nothing of the project, so the screens may import it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import TypeAlias

from roundhouse.value import Value, frozen

__all__ = ["ALL_CASES", "CASES", "GENDERS", "Forms", "Name", "decline", "form_of"]

# Every case a catalogue may name, in the order the docs list them.
ALL_CASES = ("nominative", "genitive", "dative", "accusative", "vocative")
CASES: dict[str, tuple[str, ...]] = {
    # Greek says a name with its article in every case but the vocative; what other
    # languages say with a dative, Greek says with the genitive ("Του Νίκου έμεινε...").
    "el": ("nominative", "genitive", "accusative", "vocative"),
    "lt": ("nominative", "genitive", "dative", "accusative", "vocative"),
}
GENDERS = ("masculine", "feminine")

# A name's forms from the configuration: ((language, ((case, form), ...)), ...).
Forms: TypeAlias = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


@frozen
class Name(Value):
    """A seat's name as the sentences say it: `text` as written (or the catalogue's
    "Seat N" for a seat the configuration names nobody, `number` then set), the
    person's `gender` where the configuration gives it, and the forms it gives."""

    text: str
    gender: str | None = None
    forms: Forms = ()
    number: int | None = None  # a seat without a name: said "seat N" in every case

    def __str__(self) -> str:
        return self.text


def form_of(forms: Forms, lang: str, case: str) -> str | None:
    """The form the configuration gives for `lang` and `case`, if it gives one."""
    for code, cased in forms:
        if code == lang:
            for name, form in cased:
                if name == case:
                    return form
    return None


def cases(lang: str) -> tuple[str, ...]:
    """The cases `lang`'s sentences may ask for (none: names are said as they are)."""
    return CASES.get(lang, ())


@lru_cache(maxsize=1024)  # the screens say the same few names many times a second
def decline(text: str, lang: str, case: str, gender: str | None = None) -> str | None:
    """`text` (a person's name) in `case` of `lang`, with its article where the language
    uses one, or None where the rules do not know how (another script, an ending they do
    not decline): the sentence then says the catalogue's construction instead."""
    words = text.split()
    if not words or case not in cases(lang):
        return None
    if lang == "el":
        return _greek(words, case, gender)
    if lang == "lt":
        return _lithuanian(words, case)
    return None


def _script(word: str) -> str | None:
    """The script of a word's letters ("GREEK", "LATIN"), None if mixed or no letters."""
    found = {unicodedata.name(c, "").split(" ")[0] for c in word if c.isalpha()}
    return found.pop() if len(found) == 1 else None


def _ending(word: str, old: str, new: str) -> str:
    """`word` with its ending `old` replaced by `new`, in capitals if it was written so."""
    stem = word[: len(word) - len(old)]
    tail = word[len(word) - len(old):]
    return stem + (new.upper() if tail.isupper() else new)


# --- Greek ------------------------------------------------------------------------------

# ending: (gender, genitive, accusative, vocative); "" as vocative: by the accent.
_GREEK_ENDINGS: tuple[tuple[str, str, str, str, str], ...] = (
    ("ος", "masculine", "ου", "ο", ""),
    ("ός", "masculine", "ού", "ό", "έ"),
    ("ας", "masculine", "α", "α", "α"),
    ("άς", "masculine", "ά", "ά", "ά"),
    ("ης", "masculine", "η", "η", "η"),
    ("ής", "masculine", "ή", "ή", "ή"),
    ("α", "feminine", "ας", "α", "α"),
    ("ά", "feminine", "άς", "ά", "ά"),
    ("η", "feminine", "ης", "η", "η"),
    ("ή", "feminine", "ής", "ή", "ή"),
)
_GREEK_ARTICLES = {
    "masculine": {"nominative": "ο", "genitive": "του", "accusative": "τον"},
    "feminine": {"nominative": "η", "genitive": "της", "accusative": "την"},
}
_GREEK_VOWELS = frozenset("αεηιουωάέήίόύώϊϋΐΰ")
_GREEK_ACCENTED = frozenset("άέήίόύώΐΰ")


def _greek_rule(word: str) -> tuple[str, str, str, str, str] | None:
    if _script(word) != "GREEK":
        return None
    low = word.lower()
    for rule in _GREEK_ENDINGS:
        if low.endswith(rule[0]) and len(low) > len(rule[0]) + 1:
            return rule
    return None


# Two vowels read as one (a digraph): a vowel group, its accent on the second letter.
_GREEK_DIGRAPHS = frozenset(("αι", "ει", "οι", "ου", "υι", "αυ", "ευ"))
_UNACCENTED = str.maketrans("άέήίόύώΐΰ", "αεηιουωϊϋ")
_ACCENTED = str.maketrans("αεηιουω", "άέήίόύώ")


def _vowel_groups(word: str) -> list[tuple[int, int]]:
    """Where each vowel group of a lower-case word stands ([start, end) indexes): a
    digraph (ου, αι, ...) is one, other vowels side by side (Νικόλαος: α, ο) are two."""
    groups: list[tuple[int, int]] = []
    for i, c in enumerate(word):
        if c not in _GREEK_VOWELS:
            continue
        pair = (word[i - 1] + c).translate(_UNACCENTED) if i else ""
        if (groups and groups[-1] == (i - 1, i) and pair in _GREEK_DIGRAPHS
                and word[i - 1] not in _GREEK_ACCENTED and c not in "ϊϋΐΰ"):
            groups[-1] = (i - 1, i + 1)
        else:
            groups.append((i, i + 1))
    return groups


def _accented_group(word: str) -> tuple[list[tuple[int, int]], int | None]:
    groups = _vowel_groups(word)
    at = next((k for k, (a, b) in enumerate(groups)
               if any(c in _GREEK_ACCENTED for c in word[a:b])), None)
    return groups, at


def _syllables_after_accent(word: str) -> int:
    """How many vowel groups follow the accented one: 2 for Θεόδωρος, 1 for Νίκος."""
    groups, at = _accented_group(word.lower())
    return 1 if at is None else len(groups) - 1 - at


def _genitive_of_os(word: str) -> str:
    """The genitive of a masculine name in -ος: -ου, and a name accented three syllables
    from its end takes the accent one nearer (Θεόδωρος, του Θεοδώρου; Νικόλαος, του
    Νικολάου), as the long ending wants."""
    said = _ending(word, "ος", "ου")
    if _syllables_after_accent(word) < 2:
        return said
    low = said.lower()
    groups, _ = _accented_group(low)
    if len(groups) < 2:
        return said
    b = groups[-2][1]  # the end of the stem's last vowel group, before -ου
    plain = said.translate(_UNACCENTED)
    return plain[:b - 1] + plain[b - 1].translate(_ACCENTED) + plain[b:]


def _greek_word(word: str, rule: tuple[str, str, str, str, str], case: str) -> str:
    ending, _gender, genitive, accusative, vocative = rule
    if case == "genitive":
        if ending == "ος":
            return _genitive_of_os(word)
        return _ending(word, ending, genitive)
    if case == "accusative":
        return _ending(word, ending, accusative)
    if case == "vocative":
        if not vocative:
            # Νίκο, Γιώργο; but Αλέξανδρε, Θεόδωρε, accented three from the end.
            vocative = "ε" if _syllables_after_accent(word) >= 2 else "ο"
        return _ending(word, ending, vocative)
    return word


def _greek(words: list[str], case: str, gender: str | None) -> str | None:
    first = _greek_rule(words[0])
    if gender is None:
        if first is None:
            return None
        gender = first[1]
    said = []
    for i, word in enumerate(words):
        if "-" in word.strip("-"):
            # Νίκος-Γιάννης: each part, του Νίκου-Γιάννη.
            parts = [_greek_rule(p) for p in word.split("-")]
            if all(r is not None and r[1] == gender for r in parts):
                said.append("-".join(_greek_word(p, r, case) for p, r in
                                     zip(word.split("-"), parts, strict=True) if r))
                continue
        rule = _greek_rule(word)
        # A woman's surname is not declined (Μαρία Παππά, της Μαρίας Παππά); a man's is.
        if rule is not None and rule[1] == gender and (gender == "masculine" or i == 0):
            said.append(_greek_word(word, rule, case))
        else:
            said.append(word)
    # A name the rules cannot decline (Ali, Zoë) keeps its letters and takes the
    # article of its gender, as Greek says a foreign name: του Ali, της Zoë.
    article = _GREEK_ARTICLES.get(gender, {}).get(case)
    name = " ".join(said)
    return f"{article} {name}" if article else name


# --- Lithuanian -------------------------------------------------------------------------

# ending: genitive, dative, accusative, vocative (longest endings first).
_LITHUANIAN_ENDINGS: tuple[tuple[str, str, str, str, str], ...] = (
    ("as", "o", "ui", "ą", "ai"),
    ("is", "io", "iui", "į", "i"),
    ("ys", "io", "iui", "į", "y"),
    ("us", "aus", "ui", "ų", "au"),
    ("a", "os", "ai", "ą", "a"),
    ("ė", "ės", "ei", "ę", "e"),
)
_LITHUANIAN_CASES = {"genitive": 1, "dative": 2, "accusative": 3, "vocative": 4}


def _lithuanian_word(word: str, case: str) -> str | None:
    if _script(word) != "LATIN":
        return None
    low = word.lower()
    for rule in _LITHUANIAN_ENDINGS:
        ending = rule[0]
        if low.endswith(ending) and len(low) > len(ending) + 1:
            new = rule[_LITHUANIAN_CASES[case]]
            said = _ending(word, ending, new)
            if new.startswith("io") or new.startswith("iu"):
                # Kęstutis, Kęstučio: t and d soften before io, iu.
                stem = said[: len(said) - len(new)]
                soft = {"t": "č", "d": "dž", "T": "Č", "D": "DŽ"}.get(stem[-1:])
                if soft is not None:
                    said = stem[:-1] + soft + said[len(stem):]
            return said
    return None


def _lithuanian(words: list[str], case: str) -> str | None:
    if case == "nominative":
        return " ".join(words)
    said = [_lithuanian_word(word, case) for word in words]
    if all(s is None for s in said):
        return None
    return " ".join(s if s is not None else w for s, w in zip(said, words, strict=True))
