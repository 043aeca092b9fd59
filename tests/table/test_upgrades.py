"""An upgrade never stops the table: journals written by earlier versions resume under
the rules they were played with, and a game that cannot be taken up is set aside, kept
and told, while the table starts in its lobby."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest
from conftest import Rig, make_config

from firmware_py.cli import main
from firmware_py.game import Game
from firmware_py.journal import Journal
from firmware_py.record import parse_record, replay
from firmware_py.rules import PRESETS, RULES_VERSION, Options, options_as_of, set_tiles

OLD = Path(__file__).resolve().parents[1] / "service" / "old_journals"
FIXTURES = sorted(OLD.glob("*.sqlite"))
# Games with moves today's presets refuse, and version 1's allow.
PLAYED_BY_VERSION_1 = {"classic-tracked-first-draw", "tournament-tracked-draw-not-play"}


def same(a: Options, b: Options) -> bool:
    """The same rules (a deal table's rows may come in another order of player counts)."""
    return a.to_full_json() == b.to_full_json()


def old_table(tmp_path: Path, name: str) -> Rig:
    shutil.copy(OLD / f"{name}.sqlite", tmp_path / "table.db")
    return Rig(make_config(tmp_path, seats=8))


def test_every_journal_of_an_earlier_version_is_kept_as_a_fixture():
    names = {p.stem for p in FIXTURES}
    # Among them games whose moves today's presets refuse.
    assert names >= PLAYED_BY_VERSION_1
    assert len(names) >= 8


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_a_game_journaled_by_an_earlier_version_goes_on_where_it_was(tmp_path, fixture):
    db = sqlite3.connect(fixture)
    game_id, meta_text = db.execute(
        "SELECT id, meta FROM games WHERE finished IS NULL ORDER BY id DESC").fetchone()
    count = db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?",
                       (game_id,)).fetchone()[0]
    db.close()
    assert "options" not in json.loads(meta_text)  # the preset's name alone
    rig = old_table(tmp_path, fixture.stem)
    view = rig.view
    assert view["stage"] not in ("lobby",), view["alerts"]
    assert not any("kept aside" in alert for alert in view["alerts"])
    game = rig.table.game
    assert game is not None
    # Played by the rules as they were: the first version under which every entry replays.
    assert game.options == options_as_of(json.loads(meta_text)["rules"], game.rules_version)
    if fixture.stem in PLAYED_BY_VERSION_1:
        assert game.rules_version == 1
    assert len(rig.entries()) == count
    # The rules are now written down with the game: the next start reads them from it.
    meta = rig.journal.meta(game_id)
    assert meta["rules_version"] == game.rules_version
    assert same(Options.from_json(meta["options"]), game.options)
    again = rig.restart()
    assert again.view["stage"] == view["stage"] and same(again.table.game.options, game.options)


def test_the_issue_cases_replay_only_under_the_rules_they_were_played_by(tmp_path):
    for name, refusal in (("classic-tracked-first-draw", "does not draw"),
                          ("tournament-tracked-draw-not-play", "may not draw")):
        db = sqlite3.connect(OLD / f"{name}.sqlite")
        meta = json.loads(db.execute("SELECT meta FROM games").fetchone()[0])
        entries = [json.loads(r[0]) for r in db.execute("SELECT entry FROM entries")]
        db.close()
        today = Game.from_meta(meta, version=RULES_VERSION).replay_until(entries)
        assert today.failure is not None and refusal in str(today.failure)
        assert Game.from_meta(meta, version=1).replay_until(entries).failure is None


def _refused_everywhere(tmp_path: Path) -> int:
    """An old journal whose open game holds a move no rules version accepts (the seat
    whose turn it is not plays a tile it does not have): its number."""
    shutil.copy(OLD / "classic-tracked-first-draw.sqlite", tmp_path / "table.db")
    db = sqlite3.connect(tmp_path / "table.db")
    game_id, seq = db.execute("SELECT game_id, MAX(seq) FROM entries").fetchone()
    bad = {"t": "action", "action": {"seat": 3, "play": "0-0", "on": "mexican"}}
    for k in (1, 2):
        db.execute("INSERT INTO entries VALUES (?, ?, '2026-11-30T10:00:00+00:00', ?)",
                   (game_id, seq + k, json.dumps(bad if k == 1 else {"t": "next"})))
    db.commit()
    db.close()
    return int(seq) + 1


def test_a_game_no_version_can_replay_is_set_aside_and_the_table_starts(tmp_path, caplog):
    bad = _refused_everywhere(tmp_path)
    with caplog.at_level(logging.WARNING):
        rig = Rig(make_config(tmp_path, seats=8))
    view = rig.view
    assert view["stage"] == "lobby"
    assert view["alerts"] == ["Game 1 cannot go on after the update: it is kept aside in "
                              "the journal. Start a new game"]
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert f"game 1 cannot be taken up by this version: journal entry {bad}" in logged
    assert "roundhouse export 1" in logged
    # Kept, never resumed again, and the notice goes once a new game starts.
    again = rig.restart()
    assert again.view["stage"] == "lobby"
    assert again.journal.games()[0].status == f"set aside at entry {bad}"
    again.start(0, 1)
    assert again.view["alerts"] == []
    again.journal.close()


def test_a_set_aside_game_is_listed_and_exported_as_far_as_it_replays(tmp_path, capsys):
    bad = _refused_everywhere(tmp_path)
    Rig(make_config(tmp_path, seats=8)).journal.close()
    db = str(tmp_path / "table.db")
    assert main(["games", "--db", db]) == 0
    assert f"set aside at entry {bad}" in capsys.readouterr().out
    out = tmp_path / "game-1.json"
    assert main(["export", "1", "--db", db, "-o", str(out)]) == 0
    said = capsys.readouterr()
    assert f"written up to entry {bad - 1} of {bad + 1}" in said.err
    record = json.loads(out.read_text())
    # The record replays under today's engine, with the rules the game was played by.
    assert record["rules"]["first_turn_draw"] is True
    replay(parse_record(record))


def test_a_new_game_keeps_its_rules_whatever_the_presets_become(tmp_path, monkeypatch):
    rig = Rig(make_config(tmp_path, rules="tournament"))
    rig.start(0, 1, 2)
    meta = rig.journal.meta(1)
    assert meta["rules_version"] == RULES_VERSION
    assert same(Options.from_json(meta["options"]), PRESETS["tournament"])
    # A later version plays tournament differently; this game keeps its rules.
    monkeypatch.setitem(PRESETS, "tournament", Options.preset("tournament", must_play=False))
    again = rig.restart()
    assert again.table.game.options.must_play is True
    again.journal.close()


def test_an_unreadable_meta_is_set_aside_too(tmp_path):
    journal = Journal(tmp_path / "table.db")
    journal.begin_game({"players": ["Ana", "Bo"], "rules": "nosuch"})
    journal.close()
    rig = Rig(make_config(tmp_path))
    assert rig.view["stage"] == "lobby" and len(rig.view["alerts"]) == 1
    rig.journal.close()


def _passed_without_a_tile_to_start() -> tuple[dict, list]:
    """A tracked tournament game as rules version 2 played it: Bo satisfies Ana's
    first-turn 5-5 and, holding no 12 to start his train, passes without drawing (allowed
    before rules version 3, under which he draws first)."""
    rules = {"preset": "tournament", "rounds": 2}
    free = [t for t in set_tiles(12) if str(t) not in ("12-12", "12-5", "5-5", "5-2")]
    plain = [t for t in free if not t.matches(12) and not t.matches(5)]
    ana, bo = ["12-5", "5-5", *map(str, plain[:10])], ["5-2", *map(str, plain[10:21])]
    rest = [str(t) for t in free if str(t) not in ana + bo]
    hands = [ana, bo, rest[:12], rest[12:24]]
    meta = {"players": ["Ana", "Bo", "Cy", "Di"], "seats": [0, 1, 2, 3], "leader": 0,
            "preset": "tournament", "rules": rules, "hand_mode": "tracked",
            "options": options_as_of(rules, 2).to_full_json()}
    dealt = [{"t": "dealt", "seat": e, "tile": t} for e, hand in enumerate(hands) for t in hand]
    moves = [{"seat": 0, "play": "12-5", "on": 0}, {"seat": 0, "play": "5-5", "on": 0},
             {"seat": 0, "pass": True}, {"seat": 1, "play": "5-2", "on": 0},
             {"seat": 1, "pass": True}]
    return meta, dealt + [{"t": "action", "action": m} for m in moves]


@pytest.mark.parametrize("written", [1, RULES_VERSION])
def test_a_game_whose_version_reads_it_wrong_is_found_by_another(written):
    # The game journaled with its options under a version that disagrees: the version it
    # names is tried first, and the one that replays it is kept.
    from firmware_py.game import replay_journaled

    meta, entries = _passed_without_a_tile_to_start()
    replayed = replay_journaled({**meta, "rules_version": written}, entries)
    assert replayed.failure is None and replayed.replayed == len(entries)
    assert replayed.game.rules_version < 3
    # The version that reads it wrong does refuse Bo's PASS.
    wrong = Game.from_meta({**meta, "rules_version": RULES_VERSION}).replay_until(entries)
    assert wrong.failure is not None and wrong.replayed == len(entries) - 1


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_the_export_of_a_game_of_an_earlier_version_replays_as_it_was_played(
        tmp_path, capsys, fixture):
    shutil.copy(fixture, tmp_path / "old.db")
    db = str(tmp_path / "old.db")
    journal = Journal(tmp_path / "old.db", read_only=True)
    try:
        game_id = [g for g in journal.games() if not g.finished][-1].id
    finally:
        journal.close()
    out = tmp_path / "game.json"
    assert main(["export", str(game_id), "--db", db, "-o", str(out)]) == 0
    capsys.readouterr()
    record = json.loads(out.read_text())
    replayed = replay(parse_record(record))
    assert replayed.error is None, replayed.error
    # A game that only the readings before the engine's corrections replay says so.
    if fixture.stem == "tournament-open-random":
        assert record["rules_version"] < RULES_VERSION


def test_a_record_names_a_rules_version_that_does_not_exist():
    from firmware_py.record import RecordError

    record = {"format": "roundhouse/1", "rules": "classic", "players": 2, "rounds": [],
              "rules_version": RULES_VERSION + 1}
    with pytest.raises(RecordError, match="rules_version"):
        parse_record(record)
