"""The catalogues: every message in every language, with the English placeholders and
the language's plural forms, compiled to what the table reads, in the game's words."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from roundhouse import catalogues, render
from roundhouse.messages import message

LANGUAGES = ("ar", "el", "en", "fa", "lt", "te")


def test_the_table_speaks_the_six_languages():
    assert render.languages() == LANGUAGES


def test_every_message_is_translated_with_the_english_placeholders():
    assert list(catalogues.problems()) == []


def test_a_missing_translation_or_a_changed_placeholder_is_named(tmp_path: Path):
    shutil.copy(catalogues.LOCALE_DIR / "lt.po", tmp_path / "lt.po")
    text = (tmp_path / "lt.po").read_text(encoding="utf-8")
    text = text.replace('msgstr "Atsarga tuščia."', 'msgstr ""')
    text = text.replace('msgstr "{seat} neturi {tile}."', 'msgstr "{seat} neturi {tiles}."')
    (tmp_path / "lt.po").write_text(text, encoding="utf-8")
    found = list(catalogues.problems(tmp_path))
    assert "lt.po: rules.boneyard_empty: not translated" in found
    assert any(line.startswith("lt.po: rules.not_held: placeholders") for line in found)
    assert len(found) == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plural_forms_are_the_languages_own(lang: str):
    catalog = catalogues.read(catalogues.LOCALE_DIR / f"{lang}.po")
    # CLDR's rule, as Babel knows it: Arabic has six forms, Lithuanian three.
    assert catalog.plural_forms == Catalog(locale=lang).plural_forms
    assert catalog.num_plurals == {"ar": 6, "lt": 3}.get(lang, 2)


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_the_installed_catalogue_is_compiled_from_its_po(lang: str):
    path = catalogues.LOCALE_DIR / f"{lang}.po"
    mo = path.with_suffix(".mo")
    assert mo.is_file(), f"{mo} is missing: `pip install -e .` compiles the catalogues"
    assert mo.read_bytes() == catalogues.compiled(path), (
        f"{path.with_suffix('.mo')} is out of date: run `python -m roundhouse.catalogues "
        "compile` (installing the package does it too)"
    )


def test_plural_forms_are_chosen_by_the_count():
    tiles = [render.render(message("screen.tiles", n=n), "ar") for n in (0, 1, 2, 3, 11, 100)]
    # The count is always written as a numeral, 1 and 2 too: a panel says "١ قطعة" beside
    # its state "قطعة واحدة!", not "one tile" twice.
    assert tiles == ["٠ قطعة", "١ قطعة", "٢ قطعتان", "٣ قطع", "١١ قطعة", "١٠٠ قطعة"]
    tiles = [render.render(message("screen.tiles", n=n), "lt") for n in (1, 2, 10, 21, 22)]
    assert tiles == ["1 plytelė", "2 plytelės", "10 plytelių", "21 plytelė", "22 plytelės"]


def test_numbers_use_the_languages_digits_and_tiles_keep_their_pips():
    said = render.render(message("prompt.lead", round=12, tile="12-12"), "fa")
    assert "۱۲" in said and "12-12" in said and "12 " not in said.replace("12-12", "")
    assert render.render(message("refuse.hand_full", seat=0, n=15), "ar", ["Ali"]) == (
        "لدى Ali ١٥ قطعة بالفعل."
    )
    assert render.digits("Ali 34", "fa") == "Ali ۳۴"
    assert render.direction("fa") == render.direction("ar") == "rtl"
    assert render.direction("te") == "ltr"


# The game's words as the rule texts use them (docs/languages.md, "The game's words").
TERMS = {
    "fa": {"train.mexican": "قطار مکزیکی", "rules.boneyard_empty": "توده",
           "prompt.satisfy": "دوبل", "alert.marker_out": "نشانگر", "screen.engine": "موتور"},
    "ar": {"train.mexican": "القطار المكسيكي", "rules.boneyard_empty": "الكومة",
           "prompt.satisfy": "المزدوج", "alert.marker_out": "علام", "screen.engine": "المحرك"},
    "lt": {"train.mexican": "Meksikos traukinys", "rules.boneyard_empty": "Atsarga",
           "prompt.satisfy": "dvigub", "alert.marker_out": "žymekl", "screen.engine": "variklis"},
    "el": {"train.mexican": "μεξικάνικο τρένο", "rules.boneyard_empty": "αποθεματικό",
           "prompt.satisfy": "διπλό", "alert.marker_out": "δείκτη", "screen.engine": "μηχανή"},
    "te": {"train.mexican": "మెక్సికన్ రైలు", "rules.boneyard_empty": "బోన్ పైల్",
           "prompt.satisfy": "డబుల్", "alert.marker_out": "మార్కర్", "screen.engine": "ఇంజిన్"},
}


@pytest.mark.parametrize("lang", sorted(TERMS))
def test_the_catalogues_use_the_seeds_words(lang: str):
    catalog = catalogues.read(catalogues.LOCALE_DIR / f"{lang}.po")
    for context, term in TERMS[lang].items():
        entry = next(m for m in catalog if m.context == context)
        assert term in entry.string, (lang, context)
    docs = (Path(__file__).parents[2] / "docs" / "languages.md").read_text(encoding="utf-8")
    for term in TERMS[lang].values():
        assert term.lower() in docs.lower()


def test_a_new_language_is_one_catalogue_and_no_code(tmp_path: Path, monkeypatch):
    # A catalogue of its own for Esperanto, from the template, with one message said.
    template = catalogues.read(catalogues.TEMPLATE)
    po = tmp_path / "eo.po"
    text = catalogues.TEMPLATE.read_text(encoding="utf-8")
    text = text.replace('"Content-Type: text/plain; charset=utf-8\\n"',
                        '"Content-Type: text/plain; charset=utf-8\\n"\n'
                        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"')
    text = text.replace('msgctxt "rules.boneyard_empty"\nmsgid "The boneyard is empty."\nmsgstr ""',
                        'msgctxt "rules.boneyard_empty"\nmsgid "The boneyard is empty."\n'
                        'msgstr "La rezervo estas malplena."')
    po.write_text(text, encoding="utf-8")
    assert len(template) > 100
    catalogues.compile_all(tmp_path)
    monkeypatch.setattr(render, "LOCALE_DIR", tmp_path)
    render._catalogue.cache_clear()
    try:
        assert "eo" in render.languages()
        said = render.render(message("rules.boneyard_empty"), "eo")
        assert said == "La rezervo estas malplena."
        # What it does not say yet, it says in English.
        assert render.render(message("rules.round_over"), "eo") == "The round is over."
    finally:
        render._catalogue.cache_clear()


def test_the_runtime_reads_the_catalogues_with_the_standard_library():
    with (catalogues.LOCALE_DIR / "el.mo").open("rb") as fp:
        greek = gettext.GNUTranslations(fp)
    assert greek.pgettext("rules.boneyard_empty", "The boneyard is empty.") == (
        "Το αποθεματικό άδειασε."
    )


def _translations(lang: str) -> str:
    from babel.messages.pofile import read_po

    with (catalogues.LOCALE_DIR / f"{lang}.po").open("rb") as fp:
        catalogue = read_po(fp)
    said = []
    for entry in catalogue:
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        said += [f for f in forms if f]
    return "\n".join(said)


@pytest.mark.parametrize(("lang", "words"), [
    ("fa", ["مهره", "جمع در هر دور"]),  # the tile is a دومینو; the chart's totals run on
    ("lt", ["kauliuk", "Kauliuk", "Ratas", "ratas", "rato ", "ratą"]),  # plytelė, raundas
    ("el", ["ο/η", "Ο/Η", "του/της", "ΠΑΙΖΕΤΕ", "Μπήκαν", "ανά γύρο"]),
    ("ar", ["انقر", "نقر"]),  # a tile is passed over a pad, not clicked
    ("te", ["{n} ఆటగాడు ఆడలేరు", "{joined} నిండాయి"]),  # no plural verb after one
])
def test_the_words_that_read_wrong_are_gone(lang, words):
    said = _translations(lang)
    for word in words:
        assert word not in said, f"{lang}: {word!r}"


def test_a_catalogue_says_a_train_in_the_case_its_sentence_needs():
    """Lithuanian puts a train after "ant" in the genitive: "ant Eli traukinio"."""
    prompt = message("prompt.satisfy", seat=0, tile="5-5", train="1")
    assert render.render(prompt, "lt", ["Bo", "Eli"]) == (
        "Bo: patenkinkite dvigubą 5-5 ant Eli traukinio")
    assert render.render(message("rules.no_match", end=6, train="mexican"), "lt") == (
        "Ši plytelė netinka prie atviro Meksikos traukinio 6 galo.")
    # English and the screens' isolates are unaffected.
    assert render.render(prompt, "en", ["Bo", "Eli"]) == "Bo: satisfy the 5-5 on Eli's train"
    isolated = render.render(prompt, "lt", ["Bo", "Eli"], isolate=True)
    assert isolated.count("\u2068") == isolated.count("\u2069") > 0
