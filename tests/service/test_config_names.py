"""A seat's name in the configuration with its gender and forms for the languages whose
sentences decline names: checked key by key, and carried to the screens in the view."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.config import ConfigError, load_config
from firmware_py.table_view import ViewMaker
from roundhouse.declension import Name
from roundhouse.messages import message
from roundhouse.render import render

SEATS = """
[[seats]]
name = "Νίκος"
draw_pin = 4
pass_pin = 5
{first}

[[seats]]
name = "Ali"
draw_pin = 6
pass_pin = 12
{second}
"""


def write(tmp_path: Path, first: str = "", second: str = "") -> Path:
    path = tmp_path / "table.toml"
    path.write_text(SEATS.format(first=first, second=second), encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return list(info.value.problems)


def test_a_seat_gives_its_gender_and_its_forms_per_language(tmp_path):
    config = load_config(write(
        tmp_path,
        'forms.el = { genitive = "του Νικολάκη", vocative = "Νικολάκη" }',
        'gender = "masculine"\nforms.lt = { genitive = "Alio" }'))
    nikos, ali = config.seats
    assert nikos.gender is None
    assert nikos.forms == (("el", (("genitive", "του Νικολάκη"), ("vocative", "Νικολάκη"))),)
    assert ali.gender == "masculine" and ali.forms == (("lt", (("genitive", "Alio"),)),)


def test_check_config_names_the_key_of_a_wrong_gender_or_form(tmp_path):
    found = problems(write(
        tmp_path,
        'gender = "male"\nforms.el = { dative = "τω Νίκω", gen = "του Νίκου", accusative = "" }',
        'forms.fa = { genitive = "علی" }\nforms.lt = "Alio"'))
    where = "\n".join(found)
    assert 'seats[0].gender: expected "masculine" or "feminine", got "male"' in where
    assert ("seats[0].forms.el.dative: el has no dative (expected one of nominative, "
            "genitive, accusative, vocative)") in where
    assert "seats[0].forms.el.gen: 'gen' is not a case" in where
    assert "seats[0].forms.el.accusative: expected the name in that case" in where
    assert ("seats[1].forms.fa: 'fa' is not a language whose sentences decline names "
            "(forms are given for el, lt)") in where
    assert "seats[1].forms.lt: expected a table of forms" in where
    assert len(found) == 6


def test_check_config_prints_the_problems_and_fails(tmp_path, capsys):
    path = write(tmp_path, 'forms.el = { dative = "τω Νίκω" }')
    assert main(["check-config", str(path)]) != 0
    captured = capsys.readouterr()
    assert "seats[0].forms.el.dative: el has no dative" in captured.out + captured.err




def test_the_view_carries_the_configured_forms_while_the_seat_goes_by_its_name(tmp_path):
    config = load_config(write(tmp_path, 'forms.el = { genitive = "του Νικολάκη" }',
                               'gender = "masculine"'))
    maker = ViewMaker(config)
    grammar = maker._grammar(0, "Νίκος")
    assert grammar == {"gender": None, "forms": (("el", (("genitive", "του Νικολάκη"),)),)}
    # A player seated by a card goes by the card's name: the seat's forms are not theirs.
    assert maker._grammar(0, "Zoë") == {}
    said = render(message("alert.one_tile", seat=0), "el", [Name("Νίκος", **grammar)])
    assert said == "Του Νικολάκη έμεινε μία πέτρα"
    ali = Name("Ali", **maker._grammar(1, "Ali"))
    assert render(message("alert.one_tile", seat=0), "el", [ali]) == "Του Ali έμεινε μία πέτρα"


def test_the_example_of_docs_languages_passes_check_config(tmp_path, capsys):
    docs = (Path(__file__).parents[2] / "docs" / "languages.md").read_text(encoding="utf-8")
    section = docs[docs.index("### For installers"):]
    example = section[section.index("```toml\n") + 8:section.index("```\n", 10)]
    path = tmp_path / "table.toml"
    path.write_text(example, encoding="utf-8")
    assert main(["check-config", str(path)]) == 0
    nikos, ali = load_config(path).seats
    assert dict(nikos.forms)["el"] == (("genitive", "του Νικολάκη"), ("vocative", "Νικολάκη"))
    assert ali.gender == "masculine"
