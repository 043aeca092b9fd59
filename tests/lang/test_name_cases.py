"""A seat's name in the case its sentence needs: Greek with its article ("Του Νίκου
έμεινε μία πέτρα"), Lithuanian declined ("ant Jono traukinio"); the configuration's forms
first, the language's rules next, the catalogue's construction for a name neither knows;
and the catalogue checker refusing a case the language has not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roundhouse import catalogues
from roundhouse.declension import Name
from roundhouse.messages import TEMPLATES, message
from roundhouse.render import FSI, PDI, render
from roundhouse.view import View

GREEK = ["Νίκος", "Μαρία", "Ελένη", "Κώστας", "Ali"]
LITHUANIAN = ["Jonas", "Eglė", "Eli", "Kęstutis", "Paulius"]


def el(message_id: str, names: list[str | Name] = GREEK, **args: object) -> str:
    return render(message(message_id, **args), "el", names)


def lt(message_id: str, names: list[str | Name] = LITHUANIAN, **args: object) -> str:
    return render(message(message_id, **args), "lt", names)


def test_greek_says_a_masculine_and_a_feminine_name_with_their_articles():
    assert el("alert.one_tile", seat=0) == "Του Νίκου έμεινε μία πέτρα"
    assert el("alert.one_tile", seat=1) == "Της Μαρίας έμεινε μία πέτρα"
    assert el("screen.winner", seat=2) == "Τέλος παιχνιδιού: κερδίζει η Ελένη"
    assert el("screen.turn", seat=3) == "Παίζει ο Κώστας"
    assert el("refuse.not_your_turn", seat=0) == "Δεν είναι η σειρά σας: παίζει ο Νίκος."
    assert el("rules.in_other_hand", tile="5-5", other_seat=2) == (
        "Το 5-5 είναι στο χέρι της Ελένης.")
    # A train, and a player called by name (the vocative: no article).
    assert el("prompt.satisfy", seat=0, tile="6-6", train="1") == (
        "Νίκο: καλύψτε το διπλό 6-6 στο τρένο της Μαρίας")
    assert el("prompt.play_or_pass", seat=3) == "Κώστα: παίξτε ή PASS"
    assert el("prompt.over", winner_seat=1).startswith("Τέλος παιχνιδιού: κερδίζει η Μαρία.")
    assert el("prompt.summary_out", seat=0, round=2, next=3).startswith(
        "Ο γύρος 2 τελείωσε (έκλεισε ο Νίκος)")
    # No slashes left for the reader to choose between.
    for seat in range(len(GREEK)):
        for said in (el("alert.one_tile", seat=seat), el("refuse.only_left", seat=seat, n=2)):
            assert "/" not in said


def test_greek_declines_surnames_and_calls_a_long_name_by_its_own_vocative():
    names: list[str | Name] = ["Νίκος Παππάς", "Μαρία Παππά", "Αλέξανδρος"]
    assert el("alert.one_tile", names, seat=0) == "Του Νίκου Παππά έμεινε μία πέτρα"
    # A woman's surname keeps its form.
    assert el("alert.one_tile", names, seat=1) == "Της Μαρίας Παππά έμεινε μία πέτρα"
    assert el("prompt.play_or_draw", names, seat=2) == "Αλέξανδρε: παίξτε ή DRAW"


def test_greek_moves_the_accent_of_a_long_genitive_and_reads_two_vowels_as_two():
    names: list[str | Name] = ["Νικόλαος", "Θεόδωρος", "Νίκος-Γιάννης", "Σταύρος"]
    # Accented three syllables from the end, the genitive -ου takes it one nearer.
    assert el("alert.one_tile", names, seat=0) == "Του Νικολάου έμεινε μία πέτρα"
    assert el("alert.one_tile", names, seat=1) == "Του Θεοδώρου έμεινε μία πέτρα"
    assert el("alert.one_tile", names, seat=3) == "Του Σταύρου έμεινε μία πέτρα"
    # α-ο are two syllables (Νι-κό-λα-ος): the vocative of a name accented three from
    # its end.
    assert el("prompt.play_or_pass", names, seat=0) == "Νικόλαε: παίξτε ή PASS"
    # Both parts of a double first name.
    assert el("alert.one_tile", names, seat=2) == "Του Νίκου-Γιάννη έμεινε μία πέτρα"


def test_a_bidi_control_pasted_into_a_name_does_not_stop_its_declension():
    names: list[str | Name] = ["Νίκος\u2069", "\u2068Μαρία"]
    assert render(message("alert.one_tile", seat=0), "el", names) == (
        "Του Νίκου έμεινε μία πέτρα")
    assert render(message("alert.one_tile", seat=1), "el", names) == (
        "Της Μαρίας έμεινε μία πέτρα")


def test_a_name_greek_cannot_decline_keeps_its_letters_in_a_grammatical_sentence():
    # Another script, no gender known: the catalogue's "the player Ali".
    assert el("alert.one_tile", seat=4) == "Του παίκτη Ali έμεινε μία πέτρα"
    assert el("screen.winner", seat=4) == "Τέλος παιχνιδιού: κερδίζει ο παίκτης Ali"
    assert el("prompt.play_or_pass", seat=4) == "Ali: παίξτε ή PASS"
    # The gender from the configuration: the article of a foreign name, undeclined.
    zoe = Name("Zoë", gender="feminine")
    assert el("alert.one_tile", [zoe], seat=0) == "Της Zoë έμεινε μία πέτρα"
    # A seat without a name: "seat 3", in its case.
    assert el("alert.one_tile", [Name("Θέση 3", number=3)], seat=0) == (
        "Της θέσης 3 έμεινε μία πέτρα")
    assert el("rules.no_tiles_left", seat=7) == "Της θέσης 7 δεν έμειναν πέτρες."


def test_the_configured_forms_come_before_the_rules():
    nikos = Name("Νίκος", "masculine", (("el", (("genitive", "του Νικολάκη"),)),))
    assert el("alert.one_tile", [nikos], seat=0) == "Του Νικολάκη έμεινε μία πέτρα"
    # The cases it does not give come from the rules.
    assert el("screen.winner", [nikos], seat=0) == "Τέλος παιχνιδιού: κερδίζει ο Νίκος"
    ali = Name("Ali", forms=(("el", (("nominative", "ο Αλής"), ("genitive", "του Αλή"))),))
    assert el("refuse.cannot_draw", [ali], seat=0) == "Ο Αλής δεν μπορεί να τραβήξει τώρα."
    assert el("refuse.hunt_turn", [ali], seat=0) == (
        "Είναι η σειρά του Αλή να τραβήξει για τη μηχανή.")
    # The accusative is not given: the catalogue's construction.
    assert "Ali" in el("prompt.play_or_pass", [ali], seat=0)


def test_lithuanian_puts_a_name_in_the_genitive_before_traukinio():
    assert lt("prompt.satisfy", seat=1, tile="6-6", train="0") == (
        "Egle: patenkinkite dvigubą 6-6 ant Jono traukinio")
    assert lt("prompt.satisfy", seat=0, tile="6-6", train="2").endswith("ant Eli traukinio")
    assert lt("prompt.satisfy", seat=0, tile="6-6", train="1").endswith("ant Eglės traukinio")
    assert lt("prompt.satisfy", seat=0, tile="6-6", train="3").endswith(
        "ant Kęstučio traukinio")
    assert lt("prompt.satisfy", seat=0, tile="6-6", train="4").endswith(
        "ant Pauliaus traukinio")
    assert lt("prompt.satisfy", seat=0, tile="6-6", train="9").endswith(
        "ant vietos 9 traukinio")


def test_lithuanian_dative_and_vocative_and_names_it_cannot_decline():
    assert lt("alert.one_tile", seat=0) == "Jonui liko viena plytelė"
    assert lt("alert.one_tile", seat=1) == "Eglei liko viena plytelė"
    assert lt("alert.one_tile", seat=2) == "Eli liko viena plytelė"
    assert lt("prompt.play_or_pass", seat=0) == "Jonai: žaiskite arba PASS"
    assert lt("refuse.hunt_turn", seat=4) == "Dabar Pauliaus eilė traukti ieškant variklio."
    assert lt("rules.in_other_hand", tile="5-5", other_seat=0) == "5-5 yra Jono rankoje."
    assert lt("screen.winner", seat=3) == "Žaidimas baigtas: laimi Kęstutis"
    # Another script is said as written.
    assert lt("alert.one_tile", ["Νίκος"], seat=0) == "Νίκος liko viena plytelė"
    jonas = Name("Jonas", forms=(("lt", (("dative", "Jonukui"),)),))
    assert lt("alert.one_tile", [jonas], seat=0) == "Jonukui liko viena plytelė"


def test_other_languages_say_the_names_as_written():
    assert render(message("alert.one_tile", seat=0), "en", GREEK) == "Νίκος has one tile left"
    nikos = Name("Νίκος", "masculine", (("el", (("genitive", "του Νικολάκη"),)),))
    assert render(message("alert.one_tile", seat=0), "en", [nikos]) == "Νίκος has one tile left"
    for lang in ("fa", "ar", "te"):
        assert "Νίκος" in render(message("alert.one_tile", seat=0), lang, [nikos])


def test_the_screens_isolate_a_name_in_its_case_and_clean_what_the_configuration_gave():
    said = render(message("alert.one_tile", seat=0), "el", GREEK, isolate=True)
    assert said == f"{FSI}Του Νίκου{PDI} έμεινε μία πέτρα"
    sneaky = Name("Νίκος", forms=(("el", (("genitive", "του \u202eΝίκου\n"),)),))
    said = render(message("alert.one_tile", seat=0), "el", [sneaky], isolate=True)
    assert said == f"{FSI}Του Νίκου{PDI} έμεινε μία πέτρα"
    said = render(message("alert.one_tile", seat=0), "el", ["Ali"], isolate=True)
    assert f"{FSI}Ali{PDI}" in said and said.startswith(FSI)


def test_the_view_carries_a_seats_forms_and_only_when_given(view_json):
    seats = view_json["seats"]
    seats[0]["gender"] = "masculine"
    seats[0]["forms"] = {"el": {"genitive": "του Νικολάκη"}}
    view = View.from_json(view_json)
    assert view.people()[0] == Name(seats[0]["name"], "masculine",
                                    (("el", (("genitive", "του Νικολάκη"),)),))
    again = view.to_json()["seats"]
    assert again[0]["forms"] == {"el": {"genitive": "του Νικολάκη"}}
    assert "forms" not in again[1] and "gender" not in again[1]


def test_a_view_with_a_wrong_gender_is_refused_by_name(view_json):
    from roundhouse.view import ViewError

    view_json["seats"][0]["gender"] = "neuter"
    with pytest.raises(ViewError, match=r"seats\[0\]\.gender"):
        View.from_json(view_json)


@pytest.fixture
def view_json() -> dict[str, object]:
    import json

    path = Path(__file__).parents[1] / "views" / "play_4.json"
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


SEAT_MESSAGES = sorted(i for i, t in TEMPLATES.items()
                       if "{seat}" in t.singular and "@" not in i)


@settings(max_examples=60, deadline=None)
@given(name=st.text(st.characters(blacklist_characters="{}"), min_size=1,
                    max_size=24).filter(str.strip),
       message_id=st.sampled_from(SEAT_MESSAGES), lang=st.sampled_from(["el", "lt"]))
def test_any_name_in_any_case_makes_a_sentence(name, message_id, lang):
    args = {"seat": 0, "tile": "3-3", "train": "0", "n": 2, "round": 1, "next": 2,
            "pad": message("pad.seat", seat=0), "done": 1, "of": 2, "given": 3}
    said = render(message(message_id, **args), lang, [name], isolate=True)
    assert said and "{" not in said.replace(name, "")


# --- the catalogue checker ---------------------------------------------------------------

def _with(tmp_path: Path, lang: str, context: str, old: str, new: str) -> list[str]:
    """The checker's problems with one translation of a copy of a catalogue changed."""
    shutil.copy(catalogues.LOCALE_DIR / f"{lang}.po", tmp_path / f"{lang}.po")
    path = tmp_path / f"{lang}.po"
    text = path.read_text(encoding="utf-8")
    entry = text.index(f'msgctxt "{context}"')
    end = text.index("\n\n", entry)
    at = text.index("msgstr", entry)  # the translation, not the English
    block = text[at:end]
    assert old in block, block
    path.write_text(text[:at] + block.replace(old, new) + text[end:], encoding="utf-8")
    return list(catalogues.problems(tmp_path))


def test_the_real_catalogues_pass_the_checker():
    assert list(catalogues.problems()) == []


def test_the_checker_refuses_a_case_the_language_has_not(tmp_path):
    [problem] = _with(tmp_path, "el", "alert.one_tile", "{seat@genitive}", "{seat@dative}")
    assert problem.startswith("el.po: alert.one_tile: {seat@dative}: el has no dative")
    assert "nominative, genitive, accusative, vocative" in problem


def test_the_checker_refuses_an_unknown_case_and_a_placeholder_written_wrong(tmp_path):
    [problem] = _with(tmp_path, "lt", "alert.one_tile", "{seat@dative}", "{seat@gen}")
    assert "{seat@gen}: no case 'gen'" in problem and "genitive" in problem
    found = _with(tmp_path, "lt", "alert.one_tile", "{seat@dative}", "{seat:dat}")
    assert any("{seat:dat} is not a placeholder" in p and "{seat@genitive}" in p for p in found)


def test_the_checker_refuses_a_case_in_a_language_without_cases(tmp_path):
    found = _with(tmp_path, "fa", "alert.one_tile", "{seat}", "{seat@genitive}")
    assert found == ["fa.po: alert.one_tile: {seat@genitive}: fa has no genitive; its "
                     "sentences say names as they are, write {seat}"]


def test_the_checker_refuses_a_case_for_what_is_not_a_seat_or_a_train(tmp_path):
    [problem] = _with(tmp_path, "el", "rules.not_held", "{tile}", "{tile@genitive}")
    assert problem.endswith("{tile@genitive}: only a seat or a train is said in a case")


def test_a_language_with_the_case_must_translate_its_forms(tmp_path):
    found = _with(tmp_path, "lt", "seat.numbered@dative", 'msgstr "vietai {number}"',
                  'msgstr ""')
    assert found == ["lt.po: seat.numbered@dative: not translated"]


def test_the_check_command_names_the_problem(tmp_path, monkeypatch, capsys):
    _with(tmp_path, "el", "alert.one_tile", "{seat@genitive}", "{seat@dative}")
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogues, "problems",
                        lambda real=catalogues.problems: real(tmp_path))
    assert catalogues.main(["check"]) == 1
    assert "el has no dative" in capsys.readouterr().out
