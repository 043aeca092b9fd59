"""The journal: every accepted input of every game, in SQLite, committed before it is shown.

A generic append-only log of JSON entries per game; what an entry means belongs to
`firmware_py.table`. WAL with `synchronous=FULL` makes each `append` durable when it
returns, so a `kill -9` or a pulled plug loses nothing the screens showed. The file
carries our `application_id`, so a foreign or damaged database is reported and never
silently reset; `move_aside=True` renames it `NAME.broken-YYYYmmdd-HHMMSS` and starts
fresh. The tag registry (`hardware.tags`, tables `tag_*`) lives in the same file.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import sqlite3
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py import RoundhouseError
from firmware_py.config import DEFAULT_DATABASE

APPLICATION_ID = 0x52484F55  # "RHOU"
# Index i upgrades a database of user_version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id       INTEGER PRIMARY KEY,
        started  TEXT NOT NULL,
        meta     TEXT NOT NULL,
        finished TEXT,
        result   TEXT
    );
    CREATE TABLE entries (
        game_id  INTEGER NOT NULL REFERENCES games(id),
        seq      INTEGER NOT NULL,
        at       TEXT NOT NULL,
        entry    TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX games_open ON games(finished, id);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# Tables another part of the project may have created before the journal first opened.
SHARED_TABLE_PREFIX = "tag_"
# How long opening waits for another process's lock before saying the file is in use.
BUSY_TIMEOUT_S = 5.0


class JournalError(RoundhouseError):
    """The journal cannot be used: unreadable, foreign, too new, busy, or a bad request."""


class JournalDamaged(JournalError):
    """The file at the journal's path is not a journal this version can read: damaged,
    foreign or too new. Only such a file is ever moved aside."""


@dataclass(frozen=True)
class GameSummary:
    id: int
    started: str  # ISO 8601, local time of the table
    players: tuple[str, ...]
    preset: str
    finished: str | None
    winner: str | None
    entries: int


def _now() -> str:
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


class Journal:
    def __init__(self, path: Path, *, move_aside: bool = False) -> None:
        self.path = path
        # One controller thread writes; the connection is made on the starting thread.
        self._lock = threading.Lock()
        try:
            self._db = self._open()
        except JournalDamaged:
            if not move_aside:
                raise
            self.moved_to: Path | None = self._move_aside()
            self._db = self._open()
        else:
            self.moved_to = None

    # --- opening ----------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.path.is_dir():
            raise JournalError(f"{self.path}: is a folder, expected the journal's database file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=BUSY_TIMEOUT_S)
        except (OSError, sqlite3.Error) as err:
            raise JournalError(f"{self.path}: cannot open the journal: {err}") from None
        try:
            self._recognise(db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._migrate(db)
        except sqlite3.OperationalError as err:
            db.close()
            if "locked" not in str(err) and "busy" not in str(err):
                raise self._damaged(f"unreadable database ({err})") from None
            raise JournalError(
                f"{self.path}: in use by another process ({err}); is another `roundhouse "
                "run` using it?") from None
        except sqlite3.DatabaseError as err:
            db.close()
            raise self._damaged(f"unreadable database ({err})") from None
        except JournalError:
            db.close()
            raise
        return db

    def _recognise(self, db: sqlite3.Connection) -> None:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise sqlite3.DatabaseError("the integrity check failed")
        if app_id == 0:
            foreign = [t for t in tables if not t.startswith(SHARED_TABLE_PREFIX)]
            if foreign:
                raise self._damaged(f"not a Roundhouse journal (it holds the tables "
                                    f"{', '.join(sorted(foreign)[:5])})")
        elif app_id != APPLICATION_ID:
            raise self._damaged(f"not a Roundhouse journal (application id {app_id:#x})")
        elif version > SCHEMA_VERSION:
            raise self._damaged(
                f"written by a newer Roundhouse (journal version {version}, this one reads "
                f"up to {SCHEMA_VERSION}); upgrade Roundhouse")

    def _damaged(self, what: str) -> JournalDamaged:
        return JournalDamaged(f"{self.path}: {what}; start with --move-aside to keep it "
                              "aside and begin a fresh journal")

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={step + 1}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def _move_aside(self) -> Path:
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        try:
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.rename(target.with_name(target.name + suffix))
            self.path.rename(target)
        except OSError as err:
            raise JournalError(f"{self.path}: cannot move it aside: {err}") from None
        return target

    # --- games ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One write under the lock; a failed write (disk full, file gone) is a
        `JournalError` saying so, and leaves no transaction open."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as err:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"{self.path}: cannot write the journal: {err}") from err
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def begin_game(self, meta: Mapping[str, Any]) -> int:
        with self._writing():
            cursor = self._db.execute("INSERT INTO games (started, meta) VALUES (?, ?)",
                                      (_now(), json.dumps(dict(meta))))
        return int(cursor.lastrowid or 0)

    def append(self, game_id: int, entry: Mapping[str, Any]) -> int:
        """Append one entry; it is on disk when this returns. Returns its number (from 1)."""
        text = json.dumps(dict(entry), separators=(",", ":"))
        with self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT finished IS NOT NULL, (SELECT COALESCE(MAX(seq), 0) FROM entries "
                "WHERE game_id = ?) FROM games WHERE id = ?", (game_id, game_id)).fetchone()
            if row is None or row[0]:
                raise JournalError(f"game {game_id} is not open in {self.path}")
            seq = int(row[1]) + 1
            self._db.execute("INSERT INTO entries (game_id, seq, at, entry) "
                             "VALUES (?, ?, ?, ?)", (game_id, seq, _now(), text))
            self._db.execute("COMMIT")
        return seq

    def entries(self, game_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT entry FROM entries WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def meta(self, game_id: int) -> dict[str, Any]:
        with self._lock:
            row = self._db.execute("SELECT meta FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path}")
        return dict(json.loads(row[0]))

    def open_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None:
        """The newest unfinished game with its entries, or None."""
        with self._lock:
            row = self._db.execute("SELECT id, meta FROM games WHERE finished IS NULL "
                                   "ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return int(row[0]), dict(json.loads(row[1])), self.entries(int(row[0]))

    def ended_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None:
        """The newest game with its entries if it ended with a ranking (not abandoned)."""
        with self._lock:
            row = self._db.execute("SELECT id, meta, result FROM games "
                                   "ORDER BY id DESC LIMIT 1").fetchone()
        result = json.loads(row[2]) if row is not None and row[2] else {}
        if not result.get("ranking") or result.get("abandoned"):
            return None
        return int(row[0]), dict(json.loads(row[1])), self.entries(int(row[0]))

    def finish_game(self, game_id: int, result: Mapping[str, Any]) -> None:
        with self._writing():
            cursor = self._db.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ? AND finished IS NULL",
                (_now(), json.dumps(dict(result)), game_id))
        if cursor.rowcount != 1:
            raise JournalError(f"game {game_id} is not open in {self.path}")

    def reopen_game(self, game_id: int) -> None:
        """Take back a finished game's result: its last move is being undone."""
        with self._writing():
            cursor = self._db.execute(
                "UPDATE games SET finished = NULL, result = NULL "
                "WHERE id = ? AND finished IS NOT NULL", (game_id,))
        if cursor.rowcount != 1:
            raise JournalError(f"game {game_id} is not finished in {self.path}")

    def games(self) -> list[GameSummary]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.started, g.meta, g.finished, g.result, "
                "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id) "
                "FROM games g ORDER BY g.id").fetchall()
        summaries = []
        for game_id, started, meta_text, finished, result_text, count in rows:
            meta = json.loads(meta_text)
            result = json.loads(result_text) if result_text else {}
            summaries.append(GameSummary(
                id=game_id,
                started=started,
                players=tuple(str(p) for p in meta.get("players", ())),
                preset=str(meta.get("preset", "?")),
                finished=finished,
                winner=result.get("winner"),
                entries=count,
            ))
        return summaries

    def close(self) -> None:
        with self._lock:
            self._db.close()


# --- commands -------------------------------------------------------------------------


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=DEFAULT_DATABASE,
                        help=f"the journal's database (default {DEFAULT_DATABASE})")


def _open_existing(path: Path) -> Journal:
    if not path.is_file():
        raise JournalError(f"{path}: no journal there (--db names another)")
    return Journal(path)


def configure_games(parser: argparse.ArgumentParser) -> None:
    _add_db(parser)


def run_games(args: argparse.Namespace) -> int:
    try:
        journal = _open_existing(args.db)
        try:
            games = journal.games()
        finally:
            journal.close()
    except JournalError as err:
        print(f"roundhouse games: {err}", file=sys.stderr)
        return 2
    if not games:
        print(f"no games in {args.db}")
        return 0
    print(f"{'game':>4}  {'started':<19}  {'preset':<10}  {'winner':<12}  players")
    for g in games:
        winner = g.winner if g.finished else "(playing)"
        print(f"{g.id:>4}  {g.started[:19].replace('T', ' '):<19}  {g.preset:<10}  "
              f"{winner or '-':<12}  {', '.join(g.players)}")
    return 0


def configure_export(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=int, help="the game's number (see `roundhouse games`)")
    _add_db(parser)
    parser.add_argument("-o", "--output", type=Path,
                        help="write the record to this file (default: standard output)")


def run_export(args: argparse.Namespace) -> int:
    try:
        journal = _open_existing(args.db)
        try:
            meta = journal.meta(args.game)
            entries = journal.entries(args.game)
        finally:
            journal.close()
    except JournalError as err:
        print(f"roundhouse export: {err}", file=sys.stderr)
        return 2
    from firmware_py.table import record_from_entries

    try:
        record = record_from_entries(meta, entries)
    except RoundhouseError as err:
        print(f"roundhouse export: game {args.game} cannot be exported: {err}",
              file=sys.stderr)
        return 2
    text = json.dumps(record, indent=1) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as err:
        print(f"roundhouse export: cannot write {args.output}: {err}", file=sys.stderr)
        return 2
    print(f"game {args.game} written to {args.output}")
    return 0
