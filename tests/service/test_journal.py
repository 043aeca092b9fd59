"""The journal keeps every entry across restarts and never eats a database it does not know."""

import json
import sqlite3

import pytest
from faults import tiny_disk

from firmware_py.cli import main
from firmware_py.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Journal,
    JournalDamaged,
    JournalError,
    JournalUnwritable,
)

META = {"players": ["Ana", "Bo", "Cy"], "preset": "classic", "rules": "classic",
        "hand_mode": "open"}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "state" / "roundhouse.db"


def test_entries_survive_reopening_in_order(db):
    journal = Journal(db)
    game = journal.begin_game(META)
    for i in range(5):
        assert journal.append(game, {"n": i}) == i + 1
    journal.close()

    again = Journal(db)
    assert again.open_game() == (game, META, [{"n": i} for i in range(5)])
    again.close()


def test_an_append_is_committed_when_it_returns(db):
    journal = Journal(db)
    game = journal.begin_game(META)
    journal.append(game, {"seat": 0, "play": "12-5", "on": 0})
    # Another connection (another process after a crash) sees it at once.
    other = sqlite3.connect(db)
    assert other.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 1
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.close()


def test_finished_games_are_listed_and_closed_for_appends(db):
    journal = Journal(db)
    first = journal.begin_game(META)
    journal.append(first, {"n": 1})
    journal.finish_game(first, {"ranking": [1, 0, 2], "totals": [30, 12, 40], "winner": "Bo"})
    second = journal.begin_game({**META, "players": ["Di", "Ed"], "preset": "hub"})
    with pytest.raises(JournalError, match="not open"):
        journal.append(first, {"n": 2})
    with pytest.raises(JournalError, match="not open"):
        journal.finish_game(first, {"winner": "Ana"})

    assert journal.open_game() == (second, {**META, "players": ["Di", "Ed"],
                                            "preset": "hub"}, [])
    games = journal.games()
    assert [(g.id, g.players, g.preset, g.winner, g.entries) for g in games] == [
        (first, ("Ana", "Bo", "Cy"), "classic", "Bo", 1),
        (second, ("Di", "Ed"), "hub", None, 0),
    ]
    assert games[0].finished is not None and games[1].finished is None
    journal.close()


def test_the_newest_game_is_the_ended_one_only_if_it_was_played_out(db):
    journal = Journal(db)
    first = journal.begin_game(META)
    journal.append(first, {"n": 1})
    assert journal.ended_game() is None  # still open
    journal.finish_game(first, {"ranking": [1, 0, 2], "winner": "Bo", "abandoned": False})
    assert journal.ended_game() == (first, META, [{"n": 1}])
    second = journal.begin_game(META)
    assert journal.ended_game() is None  # a newer game started
    journal.finish_game(second, {"ranking": None, "winner": None, "abandoned": True})
    assert journal.ended_game() is None
    journal.close()


def test_a_reopened_game_takes_appends_again_and_loses_its_result(db):
    journal = Journal(db)
    game = journal.begin_game(META)
    journal.append(game, {"n": 1})
    journal.finish_game(game, {"ranking": [0, 1, 2], "winner": "Ana", "abandoned": False})
    journal.reopen_game(game)
    assert journal.append(game, {"t": "undo"}) == 2
    assert journal.open_game() == (game, META, [{"n": 1}, {"t": "undo"}])
    assert journal.games()[0].winner is None
    with pytest.raises(JournalError, match="not finished"):
        journal.reopen_game(game)
    journal.close()


def test_no_open_game_in_a_fresh_journal(db):
    journal = Journal(db)
    assert journal.open_game() is None
    assert journal.ended_game() is None
    assert journal.games() == []
    journal.close()


def test_the_database_is_marked_as_ours(db):
    Journal(db).close()
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_a_database_holding_only_the_tag_registry_is_adopted(db):
    db.parent.mkdir()
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE tag_bindings (uid TEXT PRIMARY KEY, kind TEXT, value TEXT)")
    raw.execute("INSERT INTO tag_bindings VALUES ('04A1B2', 'tile', '12-5')")
    raw.commit()
    raw.close()
    journal = Journal(db)
    journal.begin_game(META)
    journal.close()
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT value FROM tag_bindings").fetchone()[0] == "12-5"
    raw.close()


def test_a_foreign_database_is_refused_untouched(db):
    db.parent.mkdir()
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE recipes (name TEXT)")
    raw.commit()
    raw.close()
    before = db.read_bytes()
    with pytest.raises(JournalError, match=r"not a Roundhouse journal.*--move-aside"):
        Journal(db)
    assert db.read_bytes() == before


def test_another_applications_database_is_refused(db):
    db.parent.mkdir()
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA application_id=1234")
    raw.execute("CREATE TABLE t (x)")
    raw.commit()
    raw.close()
    with pytest.raises(JournalError, match="application id 0x4d2"):
        Journal(db)


def test_a_journal_from_a_newer_version_is_refused(db):
    Journal(db).close()
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.close()
    for move_aside in (False, True):
        with pytest.raises(JournalError, match="newer Roundhouse") as info:
            Journal(db, move_aside=move_aside)
        assert "--move-aside" not in str(info.value)
    assert not list(db.parent.glob("*.broken-*"))


def test_garbage_is_an_error_and_move_aside_keeps_it(db):
    db.parent.mkdir()
    garbage = b"this is not a database, it is a shopping list\n" * 200
    db.write_bytes(garbage)
    with pytest.raises(JournalError, match=r"unreadable database.*--move-aside"):
        Journal(db)
    assert db.read_bytes() == garbage

    journal = Journal(db, move_aside=True)
    assert journal.moved_to is not None
    assert journal.moved_to.name.startswith("roundhouse.db.broken-")
    assert journal.moved_to.read_bytes() == garbage
    assert journal.open_game() is None
    journal.begin_game(META)
    journal.close()


def test_move_aside_leaves_a_good_journal_alone(db):
    journal = Journal(db)
    journal.begin_game(META)
    journal.close()
    journal = Journal(db, move_aside=True)
    assert journal.moved_to is None
    assert journal.open_game() is not None
    journal.close()


def test_a_folder_in_place_of_the_database_is_a_clear_error(tmp_path):
    with pytest.raises(JournalError, match="is a folder"):
        Journal(tmp_path)


def test_games_command_lists_players_preset_and_winner(db, capsys):
    journal = Journal(db)
    done = journal.begin_game(META)
    journal.finish_game(done, {"ranking": [2, 0, 1], "totals": [5, 9, 1], "winner": "Cy"})
    journal.begin_game({**META, "preset": "family"})
    journal.close()
    assert main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "result" in lines[0]
    assert "classic" in lines[1] and "won by Cy" in lines[1] and "Ana, Bo, Cy" in lines[1]
    assert "family" in lines[2] and "playing" in lines[2]


def test_games_command_without_a_journal_says_so(tmp_path, capsys):
    assert main(["games", "--db", str(tmp_path / "none.db")]) == 2
    assert "no journal there" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_export_of_an_unknown_game_is_an_error(db, capsys):
    Journal(db).close()
    assert main(["export", "7", "--db", str(db)]) == 2
    assert "no game 7" in capsys.readouterr().err


def test_an_exported_game_replays_to_the_journaled_final_state(tmp_path, capsys):
    import dataclasses
    import json
    import random

    from players import Players

    from firmware_py.config import example_config, load_config
    from firmware_py.daemon import Service
    from firmware_py.rules import state_to_json
    from firmware_py.table import Game

    config = dataclasses.replace(
        load_config(example_config("sim")), rules={"preset": "tournament", "rounds": 2},
        hand_mode="open", database=tmp_path / "t.db", socket=tmp_path / "view.sock")
    service = Service(config, attach_hardware=False)
    service.start()
    try:
        Players(service, random.Random(7)).play()
    finally:
        service.stop()

    journal = Journal(config.database)
    [game] = journal.games()
    assert game.finished is not None and game.winner in game.players
    final = Game.from_meta(journal.meta(game.id)).replay(journal.entries(game.id))[-1].state
    journal.close()

    record = tmp_path / "game.json"
    assert main(["export", str(game.id), "--db", str(config.database), "-o", str(record)]) == 0
    assert json.loads(record.read_text())["format"] == "roundhouse/1"
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(state_to_json(final)))
    # One form only: no PASS written after a draw that had already ended the turn.
    from itertools import pairwise

    from firmware_py.record import read_record, replay

    states = replay(read_record(record), keep_states=True).states
    assert all(a is not b for a, b in pairwise(states))


def test_a_full_disk_refuses_a_write_whole_and_takes_the_next_once_freed(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        db = disk.path / "roundhouse.db"
        journal = Journal(db)
        game = journal.begin_game(META)
        journal.append(game, {"n": 1})
        disk.fill()
        with pytest.raises(JournalUnwritable, match="its disk is full: free some space") as info:
            journal.append(game, {"n": 2, "padding": "x" * 100_000})
        assert info.value.full
        assert "damaged" not in str(info.value).replace("is not damaged", "")
        # Entry and result go together or not at all.
        with pytest.raises(JournalUnwritable):
            journal.append(game, {"n": 2, "padding": "y" * 100_000},
                           finish={"ranking": [0], "winner": "Ana"})
        assert journal.entries(game) == [{"n": 1}]
        assert journal.games()[0].finished is None
        disk.free()
        assert journal.append(game, {"n": 2}) == 2
        assert journal.entries(game) == [{"n": 1}, {"n": 2}]
        journal.close()


def test_a_healthy_journal_on_a_full_disk_is_not_called_damaged(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        db = disk.path / "roundhouse.db"
        journal = Journal(db)
        journal.append(journal.begin_game(META), {"n": 1})
        journal.close()
        disk.fill()
        for move_aside in (False, True):
            with pytest.raises(JournalUnwritable) as info:
                Journal(db, move_aside=move_aside)
            assert "--move-aside" not in str(info.value)
            assert "its disk is full: free some space" in str(info.value)
        assert sorted(p.name for p in disk.path.iterdir() if "broken" in p.name) == []
        disk.free()
        journal = Journal(db)
        assert journal.entries(1) == [{"n": 1}]
        journal.close()


def test_games_and_export_read_a_journal_on_a_full_disk(tmp_path, capsys):
    with tiny_disk(tmp_path / "disk") as disk:
        db = disk.path / "roundhouse.db"
        journal = Journal(db)
        game = journal.begin_game({**META, "players": ["Ana", "Bo"], "seats": [0, 1]})
        journal.close()
        disk.fill()
        assert main(["games", "--db", str(db)]) == 0
        out = capsys.readouterr().out
        assert "Ana, Bo" in out and "playing" in out
        assert main(["export", str(game), "--db", str(db), "-o", str(tmp_path / "g.json")]) == 0
        assert json.loads((tmp_path / "g.json").read_text())["players"] == ["Ana", "Bo"]


def test_games_reads_the_log_an_unclean_stop_left_on_a_full_disk(tmp_path, capsys):
    import os
    import signal

    with tiny_disk(tmp_path / "disk") as disk:
        db = disk.path / "roundhouse.db"
        pid = os.fork()
        if pid == 0:  # a service killed with its last entries only in the log
            journal = Journal(db)
            journal.append(journal.begin_game(META), {"n": 1})
            os.kill(os.getpid(), signal.SIGKILL)
        os.waitpid(pid, 0)
        assert (disk.path / "roundhouse.db-wal").stat().st_size > 0
        (disk.path / "roundhouse.db-shm").unlink()
        disk.fill()
        assert main(["games", "--db", str(db)]) == 0
        assert "Ana, Bo, Cy" in capsys.readouterr().out


def test_a_journal_on_a_read_only_disk_is_not_called_damaged(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        db = disk.path / "roundhouse.db"
        Journal(db).close()
        disk.remount("ro")
        with pytest.raises(JournalUnwritable, match="takes no writes") as info:
            Journal(db, move_aside=True)
        assert "--move-aside" not in str(info.value)
        assert not list(disk.path.glob("*.broken-*"))


def test_a_journal_on_a_read_only_disk_is_read_and_writes_again_once_writable(tmp_path):
    import os
    import signal

    with tiny_disk(tmp_path / "disk") as disk:
        db = disk.path / "roundhouse.db"
        pid = os.fork()
        if pid == 0:  # the service killed; its file system then turned read-only
            journal = Journal(db)
            journal.begin_game(META)
            os.kill(os.getpid(), signal.SIGKILL)
        os.waitpid(pid, 0)
        game = 1
        disk.remount("ro")
        journal = Journal(db)
        assert journal.open_game()[0] == game
        with pytest.raises(JournalUnwritable, match="takes no writes") as info:
            journal.append(game, {"n": 1})
        assert not info.value.full
        assert journal.stale
        journal.reconnect()
        with pytest.raises(JournalUnwritable):
            journal.append(game, {"n": 1})
        disk.remount("rw")
        journal.reconnect()
        assert journal.append(game, {"n": 1}) == 1
        journal.close()


def test_a_database_locked_by_another_process_is_in_use_not_damaged(db, monkeypatch):
    import firmware_py.journal as journal_module

    monkeypatch.setattr(journal_module, "BUSY_TIMEOUT_S", 0.05)
    db.parent.mkdir()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO recipes VALUES ('soup')")
    for move_aside in (False, True):
        with pytest.raises(JournalError, match="in use by another process"):
            Journal(db, move_aside=move_aside)
    assert list(db.parent.glob("*.broken-*")) == []
    other.execute("COMMIT")
    other.close()


def test_move_aside_never_moves_a_folder(tmp_path):
    with pytest.raises(JournalError, match="is a folder"):
        Journal(tmp_path, move_aside=True)
    assert tmp_path.is_dir()


def test_a_first_refusal_says_nothing_of_an_earlier_start(tmp_path):
    # The same process may open the file twice (a command's checks, then the service):
    # the refusal it wrote a moment ago is its own, not one of an earlier start.
    db = tmp_path / "t.db"
    db.write_bytes(b"")
    (tmp_path / "t.db-wal").write_bytes(bytes(4096))
    for _ in range(2):
        with pytest.raises(JournalDamaged) as refused:
            Journal(db)
        assert "earlier start" not in str(refused.value)
        assert "is empty (0 bytes) beside its write-ahead log" in str(refused.value)
