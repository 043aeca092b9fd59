"""`roundhouse rules [PRESET]`: a table's host reads what a preset, or the table's own
configuration, plays."""

from __future__ import annotations

import tomllib

import pytest

from firmware_py.cli import main
from firmware_py.config import example_config
from firmware_py.rules import OPTION_NAMES, PRESETS, Options


def test_without_a_preset_it_lists_every_preset_and_the_text_it_follows(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name, text in [("classic", "Lithuanian"), ("tournament", "Persian"),
                       ("family", "Arabic"), ("simple", "Greek"), ("hub", "Telugu")]:
        assert any(name in line and text in line for line in out.splitlines()), name


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_prints_as_a_rules_table_that_plays_that_preset(capsys, name):
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    table = tomllib.loads(out)["rules"]
    assert table["preset"] == name
    # Every option is there, set or (left out) named in a comment with what it takes; the
    # deal table as comment lines.
    for key in OPTION_NAMES:
        assert (f"{key} =" if key != "deal" else "# deal (players: set, tiles per hand)") in out
    assert Options.from_json(table) == PRESETS[name]


def test_a_preset_names_its_values_and_deal(capsys):
    assert main(["rules", "classic"]) == 0
    out = capsys.readouterr().out
    assert 'engine = "holder"' in out and "takes set_aside or holder" in out
    assert "double_blank = 50" in out and "takes 0, 25 or 50" in out
    assert "first_turn_draw = false" in out
    assert "2-3 players: double-9, 15 tiles or double-6, 7 tiles" in out
    assert "# doubles_per_turn =" in out and "no limit" in out


def test_an_unknown_preset_is_refused_with_the_presets(capsys):
    assert main(["rules", "speedy"]) == 2
    err = capsys.readouterr().err
    assert "speedy" in err and "classic, tournament, family, simple, hub" in err


def test_a_configuration_prints_the_house_rule_it_plays(tmp_path, capsys):
    text = example_config("table-4").read_text().replace("# double_blank = 25", "double_blank = 25")
    assert "double_blank = 25" in text
    path = tmp_path / "table.toml"
    path.write_text(text)
    assert main(["rules", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "double_blank changed (a house rule)" in out
    table = tomllib.loads(out)["rules"]
    assert Options.from_json(table) == Options.preset("classic", double_blank=25)


def test_a_broken_configuration_is_named_not_printed(tmp_path, capsys):
    path = tmp_path / "table.toml"
    text = example_config("table-4").read_text()
    path.write_text(text.replace("# double_blank = 25", "double_blank = 30"))
    assert main(["rules", "--config", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "double_blank does not take 30" in captured.err
