"""Damage to the journal is refused in one line naming what is damaged, the refusal
holds until a person acts, and `--move-aside` keeps every damaged file (never one over
another); nothing is ever reset in silence."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
from pathlib import Path

import pytest
from test_daemon import run, sim_config, write_config

from firmware_py import journal as journal_module
from firmware_py.cli import main
from firmware_py.daemon import Service
from firmware_py.journal import Journal, JournalDamaged, JournalError

META = {"players": ["Ana", "Bo"], "seats": [0, 1], "leader": 0, "preset": "tournament",
        "rules": "tournament", "hand_mode": "open"}


def journal_with_a_game(db: Path, *, finished: int = 0) -> int:
    journal = Journal(db)
    for _ in range(finished):
        done = journal.begin_game(META)
        journal.append(done, {"t": "action", "action": {"seat": 0, "draw": True}},
                       finish={"ranking": [0, 1], "winner": "Ana"})
    game = journal.begin_game(META)
    for _ in range(3):
        journal.append(game, {"t": "action", "action": {"seat": 0, "draw": True}})
    journal.close()
    return game


def rot(db: Path, game: int, seq: int) -> None:
    """One byte of an entry's JSON turned: `"t":` becomes `"t"=`."""
    raw = sqlite3.connect(db)
    with raw:
        raw.execute("UPDATE entries SET entry = replace(entry, '\"t\":', '\"t\"=') "
                    "WHERE game_id = ? AND seq = ?", (game, seq))
    raw.close()


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def test_an_entry_that_cannot_be_decoded_is_refused_naming_game_and_entry(tmp_path, capsys):
    db = tmp_path / "t.db"
    game = journal_with_a_game(db, finished=2)
    rot(db, game, 2)
    proc = run(tmp_path, "--config", str(write_config(tmp_path)))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert f"game {game}, entry 2 cannot be read" in one_line(err)
    assert "--move-aside" in err
    # export and games say the same in one line, and never a traceback.
    assert main(["export", str(game), "--db", str(db)]) == 2
    assert f"game {game}, entry 2 cannot be read" in one_line(capsys.readouterr().err)
    # --move-aside acts: the damaged file is kept aside, a fresh journal serves.
    service = Service(sim_config(tmp_path), attach_hardware=False, move_aside=True)
    service.start()
    try:
        moved = service.journal.moved_to
        assert moved is not None and moved.is_file()
        assert service.journal.games() == []
    finally:
        service.stop()


def test_a_damaged_page_is_one_line_for_games_and_export(tmp_path, capsys):
    db = tmp_path / "t.db"
    journal = Journal(db)
    for _ in range(40):
        game = journal.begin_game(META)
        journal.append(game, {"t": "action", "action": {"seat": 0, "draw": True},
                              "padding": "x" * 3000})
    journal.close()
    size = db.stat().st_size
    with open(db, "r+b") as out:
        out.seek((size // 4096 // 2) * 4096)
        out.write(b"\xa5" * 4096)
    status = main(["games", "--db", str(db)])
    said = capsys.readouterr()
    if status:
        one_line(said.err)
    for game in range(1, 41):
        if main(["export", str(game), "--db", str(db)]):
            one_line(capsys.readouterr().err)
    capsys.readouterr()


def test_a_database_cut_to_nothing_beside_its_log_is_never_reset(tmp_path, capsys):
    db = tmp_path / "t.db"
    journal_with_a_game(db)
    pid = os.fork()
    if pid == 0:  # a service killed after one more entry: its log holds it
        killed = Journal(db)
        killed.append(1, {"t": "action", "action": {"seat": 1, "draw": True}})
        os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    wal = db.with_name("t.db-wal")
    logged = wal.stat().st_size
    assert logged > 0
    db.write_bytes(b"")
    with pytest.raises(JournalDamaged, match=r"is empty \(0 bytes\) beside its write-ahead log"):
        Journal(db)
    assert wal.stat().st_size == logged and db.stat().st_size == 0
    assert main(["games", "--db", str(db)]) == 2
    assert "is empty (0 bytes)" in one_line(capsys.readouterr().err)
    # Moved aside together, for whoever can recover them.
    fresh = Journal(db, move_aside=True)
    moved = fresh.moved_to
    fresh.close()
    assert moved is not None and moved.with_name(moved.name + "-wal").stat().st_size == logged


def test_two_move_asides_in_one_second_keep_both_files(tmp_path, monkeypatch):
    class Frozen(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2000, 1, 1, 0, 0, 0)  # a Pi without a clock

    monkeypatch.setattr(journal_module.dt, "datetime", Frozen)
    db = tmp_path / "t.db"
    contents = []
    for n in range(3):
        contents.append(f"not a journal {n}".encode() * 300)
        db.write_bytes(contents[-1])
        Journal(db, move_aside=True).close()
    moved = sorted(tmp_path.glob("t.db.broken-*"), key=lambda p: len(p.name))
    assert [p.name for p in moved if not p.name.endswith(("-wal", "-shm", ".refused"))] == [
        "t.db.broken-20000101-000000", "t.db.broken-20000101-000000-2",
        "t.db.broken-20000101-000000-3"]
    assert [p.read_bytes() for p in moved[:3]] == contents


def test_bad_input_to_games_and_export_is_one_line(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for argv in (["games", "--db", str(empty)], ["export", "1", "--db", str(empty)]):
        assert main(argv) == 2
        assert "holds no journal yet" in one_line(capsys.readouterr().err)
    db = tmp_path / "t.db"
    journal_with_a_game(db)
    assert main(["export", "99999999999999999999999", "--db", str(db)]) == 2
    assert "no game 99999999999999999999999" in one_line(capsys.readouterr().err)


def test_the_refusal_holds_until_the_file_is_replaced(tmp_path):
    db = tmp_path / "t.db"
    game = journal_with_a_game(db)
    rot(db, game, 3)
    for _ in range(2):
        with pytest.raises(JournalDamaged):
            Journal(db)
    assert db.with_name("t.db.refused").is_file()
    # Repaired in place (here: the entry written again), the file is checked anew.
    raw = sqlite3.connect(db)
    with raw:
        raw.execute("UPDATE entries SET entry = replace(entry, '\"t\"=', '\"t\":')")
    raw.close()
    Journal(db).close()
    assert not db.with_name("t.db.refused").exists()


def test_a_foreign_file_is_refused_and_never_reset(tmp_path):
    db = tmp_path / "t.db"
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE mine (x)")
    raw.close()
    with pytest.raises(JournalError, match="not a Roundhouse journal"):
        Journal(db)
    assert sqlite3.connect(db).execute("SELECT name FROM sqlite_master").fetchall() == [
        ("mine",)]
