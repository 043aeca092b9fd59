"""`roundhouse simulate`: bot games, a summary, the last game as a replayable record, and
one-line refusals of bad arguments."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from firmware_py.bots import Simulation, make_bot, simulate
from firmware_py.cli import main
from firmware_py.record import read_record, replay
from firmware_py.rules import Options, state_to_json


def test_the_summary_counts_games_rounds_scores_and_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--games", "6", "--players", "3", "--rules", "tournament", "--rounds", "2"]
    assert main(["simulate", *args, "--bots", "greedy,random", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "games: 6 (tournament, 3 players, seed 4)" in out
    rounds = re.search(r"rounds: (\d+) \((\d+) blocked\)", out)
    assert rounds is not None and rounds.group(1) == "12"
    assert re.search(r"0 \(greedy\) [\d.]+, 1 \(random\) [\d.]+, 2 \(greedy\) [\d.]+", out)
    wins = re.search(r"greedy (\d+), random (\d+)", out)
    assert wins is not None and int(wins.group(1)) + int(wins.group(2)) >= 6
    assert re.search(r"speed: \d+ rounds/s", out)


def test_the_same_seed_gives_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "3", "--players", "4", "--rules", "hub", "--rounds", "1"]
    outputs = []
    for seed in ("7", "7", "8"):
        assert main([*args, "--bots", "random", "--seed", seed]) == 0
        outputs.append(capsys.readouterr().out.split("speed:")[0])
    assert outputs[0] == outputs[1] != outputs[2]


@pytest.mark.parametrize("rules", ["classic", "tournament", "family", "simple", "hub"])
def test_the_record_of_the_last_game_replays_to_its_final_state(
    tmp_path: Path, rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "last.json"
    args = ["--games", "2", "--players", "4", "--rules", rules, "--rounds", "2", "--seed", "9"]
    assert main(["simulate", *args, "--bots", "random,greedy", "--record", str(path)]) == 0
    assert f"last game written to {path}" in capsys.readouterr().out
    assert json.loads(path.read_text())["format"] == "roundhouse/1"

    assert main(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["phase"] == "game_over" and replayed["error"] is None

    bots = tuple(make_bot(name) for name in ("random", "greedy", "random", "greedy"))
    options = Options.preset(rules, rounds=2)
    _, last = simulate(Simulation(options, bots, games=2, seed=9, record=None))
    assert replayed == state_to_json(last.final)
    assert replay(read_record(path)).state.totals == last.result.totals


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--players", "4", "--rules", "classic"], "--games is required"),
        (["--games", "0", "--players", "4", "--rules", "classic"], "--games must be at least 1"),
        (["--games", "two", "--players", "4", "--rules", "classic"], "whole number"),
        (["--games", "1", "--players", "4", "--rules", "house"], "classic, tournament"),
        (["--games", "1", "--players", "4"], "--rules is required"),
        (["--games", "1", "--players", "3", "--rules", "simple"], "Supported: 4 players"),
        (["--games", "1", "--players", "15", "--rules", "classic"], "Supported"),
        (["--games", "1", "--players", "4", "--rules", "hub", "--rounds", "0"], "--rounds"),
        (["--games", "1", "--players", "4", "--rules", "hub", "--rounds", "14"], "13 rounds"),
        (["--games", "1", "--players", "4", "--rules", "hub", "--bots", "smart"], "greedy"),
        (["--games", "1", "--players", "4", "--rules", "hub", "--bots", "random,"], "missing"),
        (["--games", "1", "--players", "4", "--rules", "hub", "--seed", "x"], "--seed"),
        (["--games", "1", "--players", "4", "--rules", "hub", "--colour", "red"], "--colour"),
        (["--games", "1", "--players", "3", "--rules", "classic", "--hand-size", "0"],
         "--hand-size must be at least 1"),
        (["--games", "1", "--players", "3", "--rules", "classic", "--set", "7"],
         "set does not take 7"),
        (["--games", "1", "--players", "3", "--rules", "classic", "--set", "12",
          "--hand-size", "31"], "30 tiles per hand at most"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(["simulate", *args])
    except SystemExit as e:  # argparse's own refusals leave by SystemExit
        status = e.code
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("roundhouse simulate: ")
    assert said in lines[0]


def test_a_record_that_cannot_be_written_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "1", "--players", "4", "--rules", "hub", "--rounds", "1"]
    assert main(["simulate", *args, "--record", str(tmp_path / "none" / "x.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--record" in err


def test_hand_size_and_set_make_a_house_rule_the_deal_table_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/rules.md, "Deals": three players of classic on a double-12 set, 14 tiles each.
    path = tmp_path / "three.json"
    args = ["--games", "1", "--players", "3", "--rules", "classic", "--rounds", "1",
            "--set", "12", "--hand-size", "14", "--record", str(path)]  # fmt: skip
    assert main(["simulate", *args]) == 0
    assert "games: 1 (classic, 3 players, seed 0)" in capsys.readouterr().out
    record = json.loads(path.read_text())
    assert record["rules"] == {"preset": "classic", "set": 12, "rounds": 1, "hand_size": 14}
    first = record["rounds"][0]
    assert [len(hand) for hand in first["hands"]] == [14, 14, 14]
    assert len(first["boneyard"]) == 91 - 42 and first["engine"] == "12-12"
    assert replay(read_record(path)).state.phase == "game_over"


def test_missing_required_options_are_named_all_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate"]) == 2
    assert capsys.readouterr().err == (
        "roundhouse simulate: --games, --players and --rules are required\n"
    )
    assert main(["simulate", "--players", "4"]) == 2
    assert capsys.readouterr().err == "roundhouse simulate: --games and --rules are required\n"


def test_the_help_shows_the_required_options_as_required(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert out.startswith(
        "usage: roundhouse simulate --games N --players P --rules PRESET [options]")
    required = out.split("required options:")[1]
    assert all(option in required for option in ("--games N", "--players P", "--rules PRESET"))
