"""`roundhouse replay FILE` end to end: exit status 0, 1 or 2, every output field, and a
one-line refusal (never a traceback) for each kind of file that is not a record."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_py.cli import main
from firmware_py.record import (
    RecordError,
    parse_record,
    read_record,
    record_from_game,
    replay,
    write_record,
)
from firmware_py.rules import Options, apply, deal, legal_actions, new_game

FIELDS = [
    "round", "engine", "phase", "turn", "trains", "pending_doubles", "hands",
    "boneyard", "scores", "totals", "ranking", "error",
]  # fmt: skip

GAME: dict[str, Any] = {
    "format": "roundhouse/1",
    "rules": "tournament",
    "players": ["Ana", "Bo"],
    "rounds": [
        {
            "engine": "9-9",
            "starter": 1,
            "hands": [["9-5", "5-3", "2-2"], ["9-1", "1-1", "6-4"]],
            "boneyard": ["8-7", "3-0"],
            "moves": [
                {"seat": 1, "play": "1-9", "on": 1},
                {"seat": 1, "pass": True},
                {"seat": 0, "play": "9-5", "on": 0},
                {"seat": 0, "play": "5-3", "on": 0},
                {"seat": 0, "pass": True},
                {"seat": 1, "play": "1-1", "on": 1},
                {"seat": 1, "draw": True},
            ],
        }
    ],
}


def _write(tmp_path: Path, record: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return path


def _replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_an_accepted_record_prints_every_field(tmp_path, capsys):
    status, out, err = _replay(_write(tmp_path, GAME), capsys)
    assert status == 0 and err == ""
    got = json.loads(out)
    assert list(got) == FIELDS
    assert got["round"] == 1 and got["engine"] == "9-9" and got["phase"] == "play"
    assert got["turn"] == 0
    assert got["trains"] == {
        "0": {"tiles": ["9-5", "5-3"], "open": False},
        "1": {"tiles": ["9-1", "1-1"], "open": True},
        "mexican": {"tiles": [], "open": False},
    }
    assert got["pending_doubles"] == ["1-1"]
    assert got["hands"] == {"0": ["2-2"], "1": ["6-4", "8-7"]}
    assert got["boneyard"] == 1
    assert got["scores"] == [] and got["totals"] == [0, 0] and got["ranking"] is None
    assert got["error"] is None


def test_a_refused_move_exits_1_with_the_state_before_it(tmp_path, capsys):
    record = json.loads(json.dumps(GAME))
    record["rounds"][0]["moves"].append({"seat": 0, "play": "2-2", "on": 0})
    status, out, _ = _replay(_write(tmp_path, record), capsys)
    got = json.loads(out)
    assert status == 1
    assert got["error"]["move"] == 7 and got["error"]["round"] == 1
    assert "must satisfy the 1-1" in got["error"]["reason"]
    assert got["hands"]["0"] == ["2-2"] and got["turn"] == 0


def test_lang_says_the_refusal_in_that_language_and_changes_nothing_else(tmp_path, capsys):
    record = json.loads(json.dumps(GAME))
    record["rounds"][0]["moves"].append({"seat": 0, "play": "2-2", "on": 0})
    path = _write(tmp_path, record)
    status, english, _ = _replay(path, capsys)
    assert main(["replay", "--lang", "fa", str(path)]) == status == 1
    persian, _ = capsys.readouterr()
    got, want = json.loads(persian), json.loads(english)
    assert got["error"]["reason"] == "جایگاه ۰ اول باید به دوبل 1-1 روی قطار جایگاه ۱ پاسخ دهد."
    assert got["error"]["code"] == want["error"]["code"] == "double_unsatisfied"
    assert {k: v for k, v in got.items() if k != "error"} == {
        k: v for k, v in want.items() if k != "error"
    }
    assert {k: v for k, v in got["error"].items() if k != "reason"} == {
        k: v for k, v in want["error"].items() if k != "reason"
    }
    assert main(["replay", "--lang", "en", str(path)]) == 1
    assert capsys.readouterr()[0] == english
    with pytest.raises(SystemExit) as bad:
        main(["replay", "--lang", "xx", str(path)])
    assert bad.value.code == 2
    assert "invalid choice: 'xx'" in capsys.readouterr()[1]


def test_a_finished_game_has_scores_totals_and_ranking(tmp_path, capsys):
    record = {
        "rules": {"preset": "tournament", "rounds": 2},
        "players": 2,
        "rounds": [
            {"hands": [["9-5"], ["9-1", "0-0"]], "boneyard": [], "moves": [
                {"seat": 0, "play": "9-5", "on": 0}]},
            {"starter": 1, "hands": [["8-5"], ["8-1"]], "boneyard": ["4-4"], "moves": [
                {"seat": 1, "play": "8-1", "on": 1}]},
        ],
    }  # fmt: skip
    status, out, _ = _replay(_write(tmp_path, record), capsys)
    got = json.loads(out)
    assert status == 0
    assert got["phase"] == "game_over" and got["turn"] is None
    assert got["scores"] == [[0, 10], [13, 0]] and got["totals"] == [13, 10]
    assert got["ranking"] == [1, 0]


def test_open_hands_print_counts_and_wait_for_reveals(tmp_path, capsys):
    record = {
        "rules": "hub",
        "players": 3,
        "rounds": [
            {"hands": [2, 1, None], "boneyard": None, "moves": [
                {"seat": 0, "play": "12-3", "on": 0},
                {"seat": 1, "play": "12-4", "on": "mexican"}]},
        ],
    }  # fmt: skip
    status, out, _ = _replay(_write(tmp_path, record), capsys)
    got = json.loads(out)
    assert status == 0
    assert got["phase"] == "round_over" and got["hands"] == {"0": 1, "1": 0, "2": 16}
    assert got["boneyard"] == 91 - 1 - 19 and got["trains"]["mexican"]["open"] is True


def test_a_round_may_be_dealt_from_a_seed(tmp_path, capsys):
    record = {"rules": "classic", "players": 4, "rounds": [{"seed": 5, "moves": []}]}
    status, out, _ = _replay(_write(tmp_path, record), capsys)
    got = json.loads(out)
    assert status == 0 and got["engine"] == "12-12"
    sizes = sorted(len(h) for h in got["hands"].values())
    assert sizes in ([14, 15, 15, 15], [15, 15, 15, 15]) and got["boneyard"] in (31, 30)


def test_tiles_may_be_named_either_way_round(tmp_path, capsys):
    record = json.loads(json.dumps(GAME))
    record["rounds"][0]["moves"][2] = {"seat": 0, "play": "5-9", "on": 0}
    status, out, _ = _replay(_write(tmp_path, record), capsys)
    assert status == 0 and json.loads(out)["trains"]["0"]["tiles"] == ["9-5", "5-3"]


def _round(**changes: Any) -> dict[str, Any]:
    record = json.loads(json.dumps(GAME))
    record["rounds"][0].update(changes)
    return record


def _move(move: Any) -> dict[str, Any]:
    return _round(moves=[move])


WORD = 'rounds[0].moves[0]: "play" must be a tile like "5-3", got "5/3"'
OPEN = {"hands": [2, 2], "boneyard": None}
BAD = {
    "not-json": ('{"rules": "classic",', ["not valid json", "line 1"]),
    "not-object": ("[1, 2]", ["json object"]),
    "format": ({**GAME, "format": "roundhouse/9"}, ["format", "roundhouse/9"]),
    "preset": ({**GAME, "rules": "speedy"}, ["rules", "unknown preset", "speedy"]),
    "option": ({**GAME, "rules": {"preset": "hub", "colour": 1}}, ["unknown option", "colour"]),
    "value": ({**GAME, "rules": {"preset": "hub", "draw": "two"}}, ["draw", "two"]),
    "players": ({**GAME, "players": "four"}, ["players", "count or a list of names"]),
    "count": ({**GAME, "players": 15}, ["players", "15 players", "supported"]),
    "outside": (_round(boneyard=["10-1"]), ["rounds[0].boneyard[0]", "10-1", "double-9"]),
    "twice": (_round(boneyard=["6-4", "8-7"]), ["rounds[0].boneyard[0]", "6-4", "twice"]),
    "hands": (_round(hands=[["9-5"]]), ["rounds[0].hands", "1 hands for 2 players"]),
    "engine": (_round(engine="8-8"), ["rounds[0].engine", "9-9", "8-8"]),
    "set-aside": (_round(hands=[["9-9"], ["9-1"]]), ["hands[0][0]", "9-9", "set aside"]),
    "word": (_move({"seat": 0, "play": "5/3", "on": 0}), [WORD]),
    "kind": (_move({"seat": 0, "jump": True}), ["rounds[0].moves[0]", "play", "draw", "pass"]),
    "seat": (_move({"seat": 4, "pass": True}), ["moves[0]", "no seat 4"]),
    "train": (_move({"seat": 0, "play": "9-5", "on": 7}), ["moves[0]", "no train 7"]),
    "seed-and-hands": (_round(seed=3), ["rounds[0]", "seed"]),
    "rounds": ({**GAME, "rounds": {}}, ["rounds", "list"]),
    "unfinished": ({**GAME, "rounds": [GAME["rounds"][0], OPEN]}, ["rounds[1]", "not over"]),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_file_that_is_not_a_record_is_refused_in_one_line(kind, tmp_path, capsys):
    record, words = BAD[kind]
    status, out, err = _replay(_write(tmp_path, record), capsys)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{tmp_path / 'game.json'}: ")
    for word in words:
        assert word.lower() in lines[0].lower(), (word, lines[0])


def test_a_missing_file_is_refused_in_one_line(tmp_path, capsys):
    status, out, err = _replay(tmp_path / "nowhere.json", capsys)
    assert status == 2 and out == "" and "nowhere.json" in err and len(err.splitlines()) == 1


def test_the_installed_command_never_shows_a_traceback(tmp_path):
    path = _write(tmp_path, BAD["word"][0])
    done = subprocess.run(
        [sys.executable, "-m", "firmware_py.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_bot_game_written_as_a_record_replays_to_the_same_state(tmp_path, capsys):
    options = Options.preset("hub", rounds=2)
    state = new_game(options, 3)
    actions = []
    while state.phase != "game_over":
        start = deal(state, 11 + state.round)
        state = apply(state, start)
        actions.append(start)
        while state.phase == "play":
            action = legal_actions(state)[0]
            state = apply(state, action)
            actions.append(action)
    path = tmp_path / "bots.json"
    write_record(record_from_game(options, ["Ana", "Bo", "Cy"], actions), path)
    assert replay(read_record(path)).state.totals == state.totals
    status, out, _ = _replay(path, capsys)
    assert status == 0 and json.loads(out)["ranking"] == list(state.ranking or ())


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["5-3", "9-9", "x", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)
PLACES = [
    ("rules",), ("players",), ("rounds",), ("rounds", 0), ("rounds", 0, "hands"),
    ("rounds", 0, "hands", 1), ("rounds", 0, "boneyard"), ("rounds", 0, "starter"),
    ("rounds", 0, "engine"), ("rounds", 0, "moves", 2), ("rounds", 0, "moves", 2, "on"),
    ("rounds", 0, "moves", 0, "seat"), ("rounds", 0, "seed"), ("format",),
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLACES), JSON)
def test_any_damaged_record_is_refused_as_a_record_error_never_a_crash(place, value):
    record = json.loads(json.dumps(GAME))
    target = record
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    try:
        result = replay(parse_record(record))
    except RecordError as refused:
        assert "\n" not in str(refused) and str(refused).strip()
    else:
        assert result.error is None or result.error["reason"].strip()


def test_a_held_engine_in_no_hand_nor_boneyard_is_already_in_the_hub(tmp_path: Path) -> None:
    # docs/records.md's own example: classic (engine held) with the 12-12 in no hand. The record
    # describes a position: the engine lies in the hub and the starter leads.
    record = {
        "format": "roundhouse/1",
        "rules": "classic",
        "players": 4,
        "rounds": [{
            "engine": "12-12",
            "starter": 0,
            "hands": [["12-5", "5-3"], ["9-9", "4-1"], ["8-2", "7-0"], ["6-6", "3-3"]],
            "boneyard": ["11-4", "10-10"],
            "moves": [
                {"seat": 0, "play": "12-5", "on": 0},
                {"seat": 0, "pass": True},
                {"seat": 1, "pass": True},
            ],
        }],
    }  # fmt: skip
    out = replay(parse_record(record)).to_json()
    assert out["error"] is None
    assert out["engine"] == "12-12"
    assert out["trains"]["0"]["tiles"] == ["12-5"]
    # Seat 1 cannot start its train: under classic it puts its marker up without drawing.
    assert out["trains"]["1"]["open"] is True
    assert out["turn"] == 2
    assert out["hands"]["1"] == ["9-9", "4-1"]
    assert out["boneyard"] == 2


# ---- the corrected record contract -------------------------------------------------


DREW: dict[str, Any] = {
    "format": "roundhouse/1",
    "rules": "classic",
    "players": 2,
    "rounds": [{
        "engine": "9-9",
        "hands": [["9-9", "9-5", "8-1"], ["9-4", "3-2"]],
        "boneyard": ["7-7", "6-0", "1-1"],
        "moves": [
            {"seat": 0, "play": "9-5", "on": 0}, {"seat": 0, "pass": True},
            {"seat": 1, "play": "9-4", "on": 1}, {"seat": 1, "pass": True},
            {"seat": 0, "draw": True}, {"seat": 0, "pass": True},
            {"seat": 1, "draw": True},
        ],
    }],
}  # fmt: skip


def test_a_pass_after_a_draw_that_ended_the_turn_changes_nothing():
    # Seat 0 draws 7-7, which plays nowhere: its turn is over; "drew, passed" is accepted.
    written = replay(parse_record(DREW), keep_states=True)
    assert written.error is None and written.state.turn == 0
    left_out = json.loads(json.dumps(DREW))
    del left_out["rounds"][0]["moves"][5]
    short = replay(parse_record(left_out), keep_states=True)
    assert written.to_json() == short.to_json()
    # One state per move (after the new game and the deal): the PASS repeats the last.
    assert len(written.states) == len(short.states) + 1
    assert written.states[2 + 5] is written.states[2 + 4]


def test_only_the_seat_that_drew_and_only_once_may_write_the_pass():
    twice = json.loads(json.dumps(DREW))
    twice["rounds"][0]["moves"][6:6] = [{"seat": 0, "pass": True}]
    assert replay(parse_record(twice)).error == {
        "move": 6, "round": 1, "reason": "It's seat 1's turn.", "code": "not_your_turn"
    }  # fmt: skip
    other = json.loads(json.dumps(DREW))
    other["rounds"][0]["moves"][5] = {"seat": 1, "pass": True}  # seat 1's own turn: a pass
    result = replay(parse_record(other))
    assert result.error is not None and result.error["move"] == 5  # it must draw first


@pytest.mark.parametrize("preset", ["classic", "tournament"])
def test_a_pass_after_a_first_turn_line_that_went_out_changes_nothing(preset):
    # A first-turn train ends with PASS; a seat whose line empties its hand has its turn ended by
    # the rules (classic: the others still take their first turn, the Lithuanian text "the round
    # ends when every player has had one turn"; tournament: the round ends, the Persian text "when
    # any player plays the last domino in his hand"), and the PASS written after it is no move.
    moves = [{"seat": 0, "play": "9-5", "on": 0}, {"seat": 0, "play": "5-3", "on": 0},
             {"seat": 0, "pass": True}]
    hands = [["9-5", "5-3"], ["9-4", "4-1"]]
    if preset == "classic":  # seat 0 holds the engine and leads; seat 1 still plays
        hands[0].append("9-9")
        moves += [{"seat": 1, "play": "9-4", "on": 1}, {"seat": 1, "pass": True}]
    record = {"format": "roundhouse/1", "rules": {"preset": preset, "rounds": 1},
              "players": 2,
              "rounds": [{"engine": "9-9", "starter": 0, "hands": hands, "boneyard": ["7-7"],
                          "moves": moves}]}  # fmt: skip
    written = replay(parse_record(record)).to_json()
    assert written["error"] is None and written["phase"] == "game_over"
    assert written["scores"] == ([[0, 5]] if preset == "classic" else [[0, 18]])
    left_out = json.loads(json.dumps(record))
    del left_out["rounds"][0]["moves"][2]
    assert replay(parse_record(left_out)).to_json() == written
    # Only once, and only by that seat.
    twice = json.loads(json.dumps(record))
    twice["rounds"][0]["moves"].insert(3, {"seat": 0, "pass": True})
    assert replay(parse_record(twice)).error is not None
    other = json.loads(json.dumps(record))
    other["rounds"][0]["moves"][2] = {"seat": 1, "pass": True}  # its own move, refused
    assert replay(parse_record(other)).error["move"] == 2


def test_a_pass_after_going_out_on_a_plain_turn_is_refused():
    # Only a first-turn train ends with PASS: a single first turn that goes out ends the
    # round, and a PASS written after it is a move in a round that is over.
    record = {"format": "roundhouse/1", "rules": {"preset": "hub", "set": 9, "rounds": 1},
              "players": 2,
              "rounds": [{"engine": "9-9", "starter": 0, "hands": [["9-5"], ["9-4", "4-1"]],
                          "boneyard": ["7-7"],
                          "moves": [{"seat": 0, "play": "9-5", "on": 0},
                                    {"seat": 0, "pass": True}]}]}  # fmt: skip
    result = replay(parse_record(record))
    assert result.error is not None and result.error["move"] == 1


def test_a_pass_after_an_unseen_draw_is_the_pass_that_ends_the_turn():
    # Open hands: the table did not see the tile, so the seat's PASS ends its turn.
    record = {"format": "roundhouse/1", "rules": "tournament", "players": 2,
              "rounds": [{"engine": "9-9", "starter": 0, "hands": [3, 3], "boneyard": None,
                          "moves": [{"seat": 0, "draw": True}, {"seat": 0, "pass": True}]}]}
    out = replay(parse_record(record)).to_json()
    assert out["error"] is None and out["turn"] == 1 and out["trains"]["0"]["open"] is True


def test_simulate_writes_a_turn_ended_by_a_draw_without_a_pass(tmp_path):
    path = tmp_path / "game.json"
    assert main(["simulate", "--games", "1", "--players", "3", "--rules", "classic",
                 "--rounds", "2", "--bots", "random", "--record", str(path)]) == 0
    replayed = replay(read_record(path), keep_states=True)
    assert replayed.error is None
    # Only a PASS after a draw that ended the turn leaves the state as it was.
    assert all(a is not b for a, b in pairwise(replayed.states))
    drew = sum(1 for rnd in json.loads(path.read_text())["rounds"] for m in rnd["moves"]
               if "draw" in m)  # fmt: skip
    assert drew  # the game had draws, some of which ended their turn


@pytest.mark.parametrize("text", ["١٢-٣", "٥-٣", "²-1", "5-³", "１２-3"])
def test_tiles_are_written_in_ascii_digits(text, tmp_path, capsys):
    for record in (_move({"seat": 1, "play": text, "on": 1}),
                   _round(hands=[[text, "5-3"], ["9-1", "1-1"]])):  # fmt: skip
        status, out, err = _replay(_write(tmp_path, record), capsys)
        assert status == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and "digits 0-9" in err, err


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


HUGE = "9" * 50_000_000
HOSTILE = {
    "nested-file": _nested(10_000),
    "nested-rules": '{"format": "roundhouse/1", "rules": ' + _nested(900) + ', "players": 2}',
    "nested-move": json.dumps(_round(moves=[])).replace('"moves": []', '"moves": '
                                                         + _nested(900)),
    "huge-format": json.dumps({**GAME, "format": HUGE}),
    "huge-preset": json.dumps({**GAME, "rules": HUGE}),
    "huge-option": json.dumps({**GAME, "rules": {"preset": "classic", HUGE: 1}}),
    "huge-tile": json.dumps(_move({"seat": 1, "play": HUGE + "-1", "on": 1})),
    "huge-key": json.dumps(_move({"seat": 1, HUGE: True})),
    "huge-number": '{"format": "roundhouse/1", "rules": "classic", "players": ' + "7" * 5000 + "}",
    "huge-players": json.dumps({**GAME, "players": 10**9}),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_deep_or_huge_file_is_refused_in_one_short_line(kind, tmp_path):
    path = _write(tmp_path, HOSTILE[kind])
    done = subprocess.run([sys.executable, "-m", "firmware_py.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and done.stdout == "", done.stderr[:300]
    assert len(lines) == 1 and "Traceback" not in done.stderr
    message = lines[0].removeprefix(f"{path}: ")
    assert "9" * 80 not in message and "[" * 80 not in message, message[:300]
    assert len(message) < 500, message[:300]  # (the longest lists the option names)
    assert "RecursionError" not in message and "cannot replay" not in message, message


def test_the_mended_messages(tmp_path, capsys):
    def refusal(record: Any) -> str:
        status, _, err = _replay(_write(tmp_path, record), capsys)
        assert status == 2
        return err.strip()

    dealt_engine = refusal(_round(hands=[["9-9", "9-5"], ["9-1"]]))
    assert "set aside" in dealt_engine and "twice" not in dealt_engine
    rounds = refusal({**GAME, "rules": {"preset": "tournament", "rounds": 11}})
    assert ": rules.rounds: " in rounds and "10 rounds at most, not 11" in rounds
    assert ": players:" not in rounds
    broken = {**GAME, "players": 4, "rules": {"preset": "tournament", "deal": {"4": [12, 40]}},
              "rounds": [{"seed": 1, "moves": []}]}  # fmt: skip
    no_boneyard = refusal(broken)
    assert "leave no boneyard" in no_boneyard and "40 tiles" not in no_boneyard
    finished = {"format": "roundhouse/1", "rules": {"preset": "tournament", "rounds": 1},
                "players": 2,
                "rounds": [{"hands": [["9-5"], ["9-1", "1-0"]], "boneyard": [],
                            "moves": [{"seat": 0, "play": "9-5", "on": 0}]},
                           {"hands": [["8-5"], ["8-1"]], "boneyard": [], "moves": []}]}
    over = refusal(finished)
    assert over.endswith("the game is over after 1 round"), over


def test_a_position_may_have_any_player_count_given_a_set(tmp_path, capsys):
    # Fifteen seats (tournament deals fourteen at most), one tile each.
    others = [[f"11-{b}"] for b in range(11)] + [["10-0"], ["10-1"], ["10-2"]]
    record = {"format": "roundhouse/1", "rules": {"preset": "tournament", "set": 12},
              "players": 15,
              "rounds": [{"engine": "12-12", "hands": [["12-5"], *others], "boneyard": [],
                          "moves": [{"seat": 0, "play": "12-5", "on": 0}]}]}
    status, out, err = _replay(_write(tmp_path, record), capsys)
    assert status == 0, err
    assert json.loads(out)["phase"] == "round_over"  # seat 0 went out
    without_set = {**record, "rules": "tournament"}
    status, _, err = _replay(_write(tmp_path, without_set), capsys)
    assert status == 2 and "give the option set" in err
