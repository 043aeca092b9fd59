"""The gettext catalogues: extract the templates, update each language, compile, check.

    python -m roundhouse.catalogues update    # after changing a message's template
    python -m roundhouse.catalogues compile   # .po -> .mo (installing does it too)
    python -m roundhouse.catalogues check     # what the tests check, as a list

Babel does the work: it extracts every `say`/`say_n` call of `roundhouse/messages.py`
and every `refusal`/`refusal_n` call of `roundhouse/refusals.py` (the message id
is the gettext context, the English template the msgid) into
`roundhouse/locale/roundhouse.pot`, merges that into each `<lang>.po`, and compiles
each `.po` to the `.mo` that `roundhouse.render` reads with the standard library.
Installing the package compiles them too (setup.py), so a fresh checkout needs nothing
run by hand. docs/languages.md tells how to add a language.

Babel is needed here only, never at run time.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

PACKAGE = Path(__file__).resolve().parent
LOCALE_DIR = PACKAGE / "locale"
TEMPLATE = LOCALE_DIR / "roundhouse.pot"
SOURCES = (PACKAGE / "messages.py", PACKAGE / "refusals.py")
# The calls that hold templates: (context argument, message argument[, plural argument]).
KEYWORDS = {
    "say": ((1, "c"), 2),
    "say_n": ((1, "c"), 2, 3),
    "refusal": ((1, "c"), 3),
    "refusal_n": ((1, "c"), 3, 4),
}
# "{train}", or "{train@genitive}": the argument in a grammatical case the sentence needs.
PLACEHOLDER = re.compile(r"\{([a-z_]+)(?:@[a-z]+)?\}")
# Anything between braces, to tell a placeholder written wrong ("{seat:gen}").
BRACES = re.compile(r"\{[^{}]*\}")
CASED = re.compile(r"\{([a-z_]+)@([a-z]+)\}")


def extract() -> Catalog:
    """Every template of the sources, as a catalogue template."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    template = Catalog(project="roundhouse", fuzzy=False)
    for source in SOURCES:
        for line, message, comments, context in extract_from_file(
            "python", source, keywords=KEYWORDS, comment_tags=("Translators:",)
        ):
            where = (str(source.relative_to(PACKAGE.parent)), line)
            template.add(message, locations=[where], auto_comments=comments, context=context)
    return template


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob("*.po"))


def read(path: Path) -> Catalog:
    from babel.messages.pofile import read_po

    with path.open("rb") as fp:
        return read_po(fp, locale=None if path.suffix == ".pot" else path.stem)


def update() -> None:
    """Write the template and merge it into every language's catalogue."""
    from babel.messages.pofile import write_po

    template = extract()
    if not TEMPLATE.is_file() or _messages(read(TEMPLATE)) != _messages(template):
        with TEMPLATE.open("wb") as fp:
            write_po(fp, template, width=100, include_lineno=False)
    for path in po_files():
        catalog = read(path)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        with path.open("wb") as fp:
            write_po(fp, catalog, width=100, ignore_obsolete=True, include_lineno=False)


def compiled(path: Path) -> bytes:
    """The .mo of one .po, as bytes."""
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read(path), use_fuzzy=False)
    return out.getvalue()


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every catalogue of `locale_dir` to a .mo beside it."""
    written = []
    for path in po_files(locale_dir):
        target = path.with_suffix(".mo")
        target.write_bytes(compiled(path))
        written.append(target)
    return written


def _key(message_id: object, context: str | None) -> tuple[str | None, str]:
    singular = message_id[0] if isinstance(message_id, tuple | list) else message_id
    return context, str(singular)


def _messages(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, " | ".join(_ids(m.id))) for m in catalog if m.id}


def problems(locale_dir: Path = LOCALE_DIR) -> Iterator[str]:
    """What is wrong with the catalogues: each a line naming the file and the message."""
    template = extract()
    wanted = {_key(m.id, m.context): m for m in template if m.id}
    if locale_dir == LOCALE_DIR and _messages(read(TEMPLATE)) != _messages(template):
        yield f"{TEMPLATE.name}: out of date (run `python -m roundhouse.catalogues update`)"
    for path in po_files(locale_dir):
        catalog = read(path)
        name = path.name
        if catalog.plural_forms is None or catalog.num_plurals < 1:
            yield f"{name}: no Plural-Forms header"
        found = {_key(m.id, m.context): m for m in catalog if m.id}
        for key, want in wanted.items():
            have = found.get(key)
            context = key[0]
            if have is None:
                yield f"{name}: {context}: missing (run `python -m roundhouse.catalogues update`)"
                continue
            raw = have.string
            strings = [str(x or "") for x in (raw if isinstance(raw, tuple | list) else [raw])]
            if _case_of_other_language(context, path.stem) and not any(strings):
                continue  # "seat.name@dative" in a language without a dative
            if have.fuzzy or not all(strings):
                yield f"{name}: {context}: not translated"
                continue
            if want.pluralizable and len(strings) != catalog.num_plurals:
                yield (f"{name}: {context}: {len(strings)} plural forms, the header says "
                       f"{catalog.num_plurals}")
            english = set(PLACEHOLDER.findall(" ".join(_ids(want.id))))
            wrong = [f"{name}: {context}: {said}" for form in strings
                     for said in _case_problems(form, path.stem)]
            if wrong:
                yield from wrong
                continue
            for form in strings:
                used = set(PLACEHOLDER.findall(form))
                # A plural form may say "one" instead of {n}; no other placeholder may go.
                if used - english or english - used - {"n"}:
                    yield (f"{name}: {context}: placeholders {sorted(used)} differ from the "
                           f"English {sorted(english)}")
                    break
        for key in found.keys() - wanted.keys():
            yield f"{name}: {key[0]}: no such message any more"


def _case_of_other_language(context: str | None, lang: str) -> bool:
    """Whether the message is the form of a case `lang` does not have (`seat.name@dative`
    in Greek, every case in Persian): that language need not translate it."""
    from roundhouse.declension import cases

    case = (context or "").rpartition("@")[2] if "@" in (context or "") else None
    return case is not None and case not in cases(lang)


def _case_problems(text: str, lang: str) -> Iterator[str]:
    """What is wrong with the placeholders of one translation: written wrong, or asking
    for a case the language has not, or for a case of what has none."""
    from roundhouse.declension import ALL_CASES, cases
    from roundhouse.message import is_seat, is_train

    for said in BRACES.findall(text):
        if not PLACEHOLDER.fullmatch(said):
            yield (f"{said} is not a placeholder: write {{name}}, or {{seat@genitive}} for a "
                   "seat in a case")
    have = cases(lang)
    for key, case in CASED.findall(text):
        asked = f"{{{key}@{case}}}"
        if case not in ALL_CASES:
            yield f"{asked}: no case {case!r}; the cases are {', '.join(ALL_CASES)}"
        elif case not in have:
            yield (f"{asked}: {lang} has no {case}" + (
                f"; its cases are {', '.join(have)}" if have else
                "; its sentences say names as they are, write {" + key + "}"))
        elif not (is_seat(key) or is_train(key)):
            yield f"{asked}: only a seat or a train is said in a case"


def _ids(message_id: object) -> list[str]:
    return [str(i) for i in message_id] if isinstance(message_id, tuple | list) else [
        str(message_id)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m roundhouse.catalogues",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "compile", "check"))
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
    if args.command in ("update", "compile"):
        for path in compile_all():
            print(path)
        return 0
    found = list(problems())
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
