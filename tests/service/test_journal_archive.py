"""Finished games leave the journal for its archive, so that the check every start runs
before READY reads only what a start may take up again; every game is still listed and
exported, a power cut while archiving loses and doubles none, and a damaged archive is
kept aside while the table plays on."""

from __future__ import annotations

import json
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from test_daemon import sim_config

from firmware_py import journal as journal_module
from firmware_py.cli import main
from firmware_py.daemon import Service
from firmware_py.journal import ArchiveClash, Journal, JournalDamaged, JournalError
from firmware_py.notify import Notifier
from gamenight.results import Results

META = {"players": ["Ana", "Bo"], "seats": [0, 1], "leader": 0, "preset": "tournament",
        "rules": "tournament", "hand_mode": "open"}
OLD = Path(__file__).parent / "old_journals"


def journal_of(db: Path, finished: int, *, padding: int = 100, playing: bool = True) -> None:
    """`finished` games played out (game n with n + 1 entries), then one being played."""
    journal = Journal(db)
    for n in range(finished):
        game = journal.begin_game({**META, "n": n})
        for k in range(n):
            journal.append(game, {"t": "action", "k": k, "padding": "x" * padding})
        journal.append(game, {"t": "action", "k": n}, finish={"ranking": [0, 1],
                                                              "winner": "Ana"})
    if playing:
        game = journal.begin_game(META)
        journal.append(game, {"t": "action", "k": 0})
    journal.close()


def listed(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["games", "--db", str(db)]) == 0
    return capsys.readouterr().out


def everything(db: Path) -> dict[int, tuple[dict[str, object], list[dict[str, object]]]]:
    journal = Journal(db, read_only=True)
    try:
        return {g.id: (journal.meta(g.id), journal.entries(g.id)) for g in journal.games()}
    finally:
        journal.close()


def own_games(path: Path) -> list[int]:
    raw = sqlite3.connect(path)
    try:
        return [r[0] for r in raw.execute("SELECT id FROM games ORDER BY id")]
    finally:
        raw.close()


def test_finished_games_leave_the_journal_and_are_still_listed_and_exported(tmp_path,
                                                                            capsys):
    db = tmp_path / "t.db"
    journal_of(db, 6)
    before_list, before = listed(db, capsys), everything(db)
    journal = Journal(db)
    assert journal.archive_finished() == 6
    journal.close()
    # What a start checks and replays: the game being played, the newest.
    assert own_games(db) == [7]
    assert own_games(tmp_path / "t.db.archive") == [1, 2, 3, 4, 5, 6]
    assert listed(db, capsys) == before_list
    assert everything(db) == before
    assert main(["export", "3", "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["Ana", "Bo"]
    # A start takes up the game being played, and a new archiving finds nothing to move.
    journal = Journal(db)
    assert journal.open_game() is not None and journal.open_game()[0] == 7
    assert journal.archive_finished() == 0
    journal.close()


def test_the_archive_is_the_services_alone(tmp_path):
    db = tmp_path / "t.db"
    journal_of(db, 3)
    journal = Journal(db)
    journal.archive_finished()
    for suffix in (".archive", ".archive-wal", ".archive-shm", ".archive.lock"):
        side = tmp_path / f"t.db{suffix}"
        assert stat.S_IMODE(side.stat().st_mode) & 0o077 == 0, suffix
    journal.close()


def test_the_service_archives_after_ready_and_after_each_game_begun(tmp_path):
    journal_of(tmp_path / "t.db", 4, playing=False)
    service = Service(sim_config(tmp_path), attach_hardware=False, notifier=Notifier({}))
    service.start()
    try:
        assert service.journal.archived.wait(60)
        assert own_games(tmp_path / "t.db.archive") == [1, 2, 3]
        service.journal.archived.clear()
        service.journal.begin_game(META)  # game 4 is no longer the newest
        assert service.journal.archived.wait(60)
        assert own_games(tmp_path / "t.db.archive") == [1, 2, 3, 4]
    finally:
        service.stop()
    assert own_games(tmp_path / "t.db") == [5]
    assert list(everything(tmp_path / "t.db")) == [1, 2, 3, 4, 5]


# --- a power cut while archiving --------------------------------------------------------

CUT = """
import os, sys
from pathlib import Path
from firmware_py import journal
from firmware_py.journal import Journal

step, game = sys.argv[2], int(sys.argv[3])

def cut(at: str, game_id: int) -> None:
    if (at, game_id) == (step, game):
        os._exit(9)  # as a power cut: nothing closed, nothing rolled back

journal._archive_step = cut
Journal(Path(sys.argv[1])).archive_finished()
sys.exit("archived to the end: the cut never came")
"""


@pytest.mark.parametrize("step", ["copying", "copied", "deleting", "deleted"])
def test_a_power_cut_at_any_step_of_archiving_loses_and_doubles_no_game(tmp_path, capsys,
                                                                        step):
    db = tmp_path / "t.db"
    journal_of(db, 5)
    before_list, before = listed(db, capsys), everything(db)
    cut = subprocess.run([sys.executable, "-c", CUT, str(db), step, "3"],
                         capture_output=True, text=True, timeout=120)
    assert cut.returncode == 9, cut.stderr
    # Right after the cut, for a reader and for a start: every game once, whole.
    assert listed(db, capsys) == before_list
    assert everything(db) == before
    journal = Journal(db)
    assert journal.open_game() is not None
    # The next archiving ends the work; still every game once, each in one file only.
    journal.archive_finished()
    journal.close()
    assert listed(db, capsys) == before_list
    assert everything(db) == before
    assert own_games(db) == [6]
    assert own_games(tmp_path / "t.db.archive") == [1, 2, 3, 4, 5]


# --- damage and strangers ---------------------------------------------------------------


def damage_the_middle(path: Path) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as out:
        out.seek((size // 4096 // 2) * 4096)
        out.write(b"\xa5" * 4096)


def archived_journal(db: Path, games: int) -> None:
    journal_of(db, games, padding=3000)
    journal = Journal(db)
    journal.archive_finished()
    journal.close()
    # The archive's log is folded into it, as a clean stop leaves it.
    raw = sqlite3.connect(db.with_name(db.name + ".archive"))
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()


def test_a_damaged_archive_never_stops_a_start_and_is_kept_aside(tmp_path, capsys, caplog):
    db = tmp_path / "t.db"
    archived_journal(db, 30)
    archive = tmp_path / "t.db.archive"
    damage_the_middle(archive)
    # The start-up check is the journal's: the table starts and takes up its game.
    journal = Journal(db)
    assert journal.open_game() is not None and journal.open_game()[0] == 31
    # The archiving checks the archive whole, keeps it aside and begins a new one.
    journal.archive_finished()
    assert journal.archive_moved_to is not None and journal.archive_moved_to.is_file()
    assert journal.archive_moved_to.name.startswith("t.db.archive.broken-")
    assert "the archive of finished games" in caplog.text and "is damaged" in caplog.text
    game = journal.begin_game(META)
    journal.append(game, {"t": "action", "k": 0})
    journal.close()
    # The journal's own games are still listed; the new archive holds none yet.
    assert [line.split()[0] for line in listed(db, capsys).splitlines()[1:]] == [
        "31", "32"]
    assert own_games(archive) == []


def test_a_damaged_archive_is_one_line_for_games_and_export(tmp_path, capsys):
    db = tmp_path / "t.db"
    archived_journal(db, 30)
    damage_the_middle(tmp_path / "t.db.archive")
    status = main(["games", "--db", str(db)])
    said = capsys.readouterr()
    # Listed or not, the journal's own games are, and the archive's damage is one line.
    assert "  31  " in said.out
    if status:
        lines = said.err.strip().splitlines()
        assert len(lines) == 1 and "t.db.archive" in lines[0], said.err
    refused = 0
    for game in range(1, 32):
        status = main(["export", str(game), "--db", str(db)])
        err = capsys.readouterr().err.strip().splitlines()
        if status:
            refused += 1
            assert len(err) == 1 and "Traceback" not in err[0], err
    assert refused


def test_the_archive_check_is_the_journals_check(tmp_path):
    db = tmp_path / "t.db"
    archived_journal(db, 30)
    damage_the_middle(tmp_path / "t.db.archive")
    # Opened as a journal, the archive fails the same check that every start runs.
    with pytest.raises(JournalDamaged, match=r"integrity check failed|malformed"):
        Journal(tmp_path / "t.db.archive", archive=False)


def test_the_archive_of_a_journal_moved_aside_is_not_mixed_with_the_new_one(tmp_path,
                                                                             capsys):
    db = tmp_path / "t.db"
    journal_of(db, 4)
    journal = Journal(db)
    journal.archive_finished()
    journal.close()
    # The journal is replaced by a fresh one, whose games are numbered from 1 again.
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"t.db{suffix}").unlink(missing_ok=True)
    journal_of(db, 1)
    # Its games are listed, and those of the archive beside it are not theirs.
    assert main(["games", "--db", str(db)]) == 2
    said = capsys.readouterr()
    out = said.out
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["1", "2"]
    assert "of another journal" in said.err and len(said.err.splitlines()) == 1
    journal = Journal(db)
    journal.archive_finished()
    assert journal.archive_moved_to is not None
    assert journal.archive_moved_to.name.startswith("t.db.archive.other-")
    assert own_games(journal.archive_moved_to) == [1, 2, 3, 4]
    journal.close()
    assert listed(db, capsys) == out


def test_the_live_journal_gives_the_archived_games_space_back(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "COMPACT_BYTES", 64 * 1024)
    db = tmp_path / "t.db"
    journal_of(db, 40, padding=2000)
    before = db.stat().st_size
    journal = Journal(db)
    journal.archive_finished()
    journal.close()
    assert db.stat().st_size < before / 4


# --- journals of earlier versions -------------------------------------------------------


@pytest.mark.parametrize("fixture", sorted(p.name for p in OLD.glob("*.sqlite")))
def test_games_of_an_earlier_version_are_listed_and_exported_after_archiving(tmp_path,
                                                                             capsys,
                                                                             fixture):
    db = tmp_path / "t.db"
    shutil.copy(OLD / fixture, db)
    # Its games ended (abandoned where they were) and a new one begun.
    journal = Journal(db)
    for game in journal.games():
        if game.finished is None:
            journal.finish_game(game.id, {"abandoned": True})
    journal.begin_game(META)
    journal.close()
    before_list = listed(db, capsys)
    before_sheets = Results(db).sheets()
    records = {}
    for game in everything(db):
        if game != max(everything(db)):
            assert main(["export", str(game), "--db", str(db)]) == 0
            records[game] = capsys.readouterr().out
    journal = Journal(db)
    assert journal.archive_finished() == len(records) > 0
    journal.close()
    assert listed(db, capsys) == before_list
    for game, record in records.items():
        assert main(["export", str(game), "--db", str(db)]) == 0
        assert capsys.readouterr().out == record
    # The league's results: every round and ranking published as before.
    assert Results(db).sheets() == before_sheets


def test_an_archived_game_is_never_copied_over_by_another_of_its_number(tmp_path):
    db = tmp_path / "t.db"
    journal_of(db, 3)
    journal = Journal(db)
    journal.archive_finished()
    journal.close()
    backup = tmp_path / "backup.db"
    shutil.copy(db, backup)  # backed up without its archive
    journal = Journal(db)
    journal.finish_game(4, {"ranking": [0, 1], "winner": "Ana"})
    for _ in range(2):
        game = journal.begin_game(META)
        journal.finish_game(game, {"ranking": [0, 1], "winner": "Ana"})
    journal.begin_game(META)
    journal.archive_finished()
    journal.close()
    archived = everything(db)
    # The journal alone is put back from its backup, and other games are played under
    # numbers the archive holds.
    shutil.copy(backup, db)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"t.db{suffix}").unlink(missing_ok=True)
    journal = Journal(db)
    journal.finish_game(4, {"ranking": [0, 1], "winner": "Ana"})
    other = journal.begin_game({**META, "players": ["Cy", "Di"]})
    journal.finish_game(other, {"ranking": [1, 0], "winner": "Di"})
    # Begun and left unfinished under another table's players: told from the archive's
    # game 6 by its players whatever the clock says (with the same players, a game begun
    # within the same second as the archived one would look like it).
    journal.begin_game({**META, "players": ["Gu", "Ha"]})
    for _ in range(2):  # and more, under numbers the archive does not hold
        game = journal.begin_game({**META, "players": ["Ed", "Fo"]})
        journal.finish_game(game, {"ranking": [0, 1], "winner": "Ed"})
    journal.begin_game(META)
    with pytest.raises(ArchiveClash, match=r"holds other games numbered 5 than .*moved 3 other"):
        journal.archive_finished()
    # The games that clash stay in the journal; the others still leave it, so the check
    # every start runs does not grow with each game played from now on.
    assert own_games(db) == [5, 6, 9]
    assert own_games(tmp_path / "t.db.archive") == [1, 2, 3, 4, 5, 6, 7, 8]
    journal.close()
    kept = Journal(tmp_path / "t.db.archive", read_only=True, archive=False)
    assert {g: (kept.meta(g), kept.entries(g)) for g in (5, 6)} == {
        g: archived[g] for g in (5, 6)}
    kept.close()
    # Listed, the journal's own games 5 and 6 are shown, and the clash is said.
    journal = Journal(db, read_only=True)
    assert [g.players for g in journal.games() if g.id in (5, 7)] == [("Cy", "Di"),
                                                                      ("Ed", "Fo")]
    assert journal.archive_problem is not None
    assert "other games numbered 5 and 6 than" in journal.archive_problem
    journal.close()


def test_the_league_is_told_when_the_archived_games_cannot_be_read(tmp_path):
    db = tmp_path / "t.db"
    journal_of(db, 3)
    journal = Journal(db)
    journal.archive_finished()
    journal.close()
    archive = tmp_path / "t.db.archive"
    with archive.open("r+b") as damaged:
        damaged.write(b"not a journal" * 20)
    results = Results(db)
    results.sheets()
    # (this test's games are not real moves: each is also named as not replayed)
    [problem] = [p for p in results.problems if "archived beside" in p]
    assert "are left out" in problem


def test_a_failed_archiving_is_taken_up_again_by_the_next_game(tmp_path, monkeypatch,
                                                               caplog):
    db = tmp_path / "t.db"
    journal_of(db, 3)
    failures = []

    def disk_trouble(step: str, game_id: int) -> None:
        if step == "copied" and not failures:
            failures.append(game_id)
            raise JournalError("the disk failed for a moment")

    monkeypatch.setattr(journal_module, "_archive_step", disk_trouble)
    journal = Journal(db)
    journal.start_archiving()
    try:
        assert journal.archived.wait(60)
        assert "the finished games stay in the journal for now" in caplog.text
        assert own_games(db) == [1, 2, 3, 4]
        journal.archived.clear()
        journal.begin_game(META)
        assert journal.archived.wait(60)
        assert own_games(db) == [4, 5]
        assert own_games(tmp_path / "t.db.archive") == [1, 2, 3]
    finally:
        journal.close()
