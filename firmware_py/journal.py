"""The journal: every accepted input of every game, in SQLite, committed before it is shown.

A generic append-only log of JSON entries per game; what an entry means belongs to
`firmware_py.table`. WAL with `synchronous=FULL` makes each `append` durable when it
returns, so a `kill -9` or a pulled plug loses nothing the screens showed. The file
carries our `application_id`, so a foreign or damaged database is reported and never
silently reset; `move_aside=True` renames it `NAME.broken-YYYYmmdd-HHMMSS` and starts
fresh. A disk that takes no writes (full, read-only) is told apart from a damaged
file: the journal is sound and is never moved aside for it. The tag registry
(`hardware.tags`, tables `tag_*`) lives in the same file.

Journal version 3 keeps each game's newest snapshot (table `snapshots`), written in the
commit of the entry it follows, with a digest of the entries up to it
(`snapshot_digest`); `snapshot` gives it only if that digest still agrees. Older
journals are upgraded in place at a writing open, as every version was (`MIGRATIONS`).

The journal keeps only what a start may take up again: its unfinished games and its
newest one. Every other finished game is moved, after the service said READY, into
the archive beside it (`NAME.archive`, a file of the same kind): the check every start
runs before READY reads the live file only, however many games were ever played, and
the archive is checked by the service's archiving, after READY, with the table playing.
`games`, `meta` and `entries` read both files as one journal.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import stat
import threading
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roundhouse.errors import RoundhouseError

# Tables another part of the project may have created before the journal first opened.
from roundhouse.tablefile import (
    APPLICATION_ID,
    ARCHIVE_SUFFIX,
    REFUSED_SUFFIX,
    SHARED_TABLE_PREFIX,
    beside,
    cut_database,
)
from roundhouse.value import Value, frozen

if TYPE_CHECKING:
    import tempfile

log = logging.getLogger(__name__)

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
    # What the table holds between games: the seats joined in the lobby, the preset the
    # next-preset card chose, the languages of the language card (one row, `table`).
    """
    CREATE TABLE table_state (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL,
        at     TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    # The newest snapshot of each game (see `append`): what a start resumes from, with
    # the entries after it. `digest` is the SHA-256 of the game's entries up to `seq`
    # and of the snapshot itself (`snapshot_digest`). A game's snapshot goes with it.
    """
    CREATE TABLE snapshots (
        game_id  INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        at       TEXT NOT NULL,
        digest   TEXT NOT NULL,
        snapshot TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# The check of the whole file at every start. integrity_check finds what quick_check
# misses (an index that disagrees with its table) and costs about a third more: 30 ms
# for 100 stored games (21 MB), 0.3 s for 1,000 on the development machine
# (benchmarks/journal_check.py), so it runs at every start, clean stop or not. With the
# finished games archived, the journal it reads before READY holds a game or two; the
# archive gets the same check from the archiving, after READY.
START_CHECK = "integrity_check"
# How many of SQLite's virtual machine steps go between two calls of the check's progress
# handler (whether the archive's check is to end, whether systemd is to be told the start
# goes on): a fraction of a millisecond.
CHECK_STEPS = 10_000
# The archiving compacts the live file once its free pages (the games moved out) are
# more than half of it and at least this many bytes.
COMPACT_BYTES = 8 * 1024 * 1024
# The largest game number SQLite stores.
_MAX_ID = 2**63 - 1
# How long opening waits for another process's lock before saying the file is in use.
BUSY_TIMEOUT_S = 5.0


class JournalError(RoundhouseError):
    """The journal cannot be used: unreadable, foreign, too new, busy, or a bad request."""


class JournalDamaged(JournalError):
    """The file at the journal's path is damaged (SQLite finds it corrupt, or it fails
    the integrity check) or is not a Roundhouse journal at all. Only such a file is ever
    moved aside; a journal on a full or read-only disk, or one from a newer version, is
    sound and never is."""


class JournalUnwritable(JournalError):
    """The journal is sound but its disk takes no write: full, read-only or failing.
    Nothing is lost; writing works again once the disk does."""

    def __init__(self, message: str, *, full: bool) -> None:
        super().__init__(message)
        self.full = full


class JournalBusy(JournalError):
    """Another process holds the journal: two services would interleave their games."""


class ArchiveClash(JournalError):
    """The archive holds another game under a number the journal uses (the journal was
    put back from a backup without its archive): that game is never copied over."""


# SQLite's primary result codes (sqlite3.h) that say the file's content is bad, and those
# that say the disk or the file system refused.
_DAMAGED_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB
_UNWRITABLE_CODES = frozenset({3, 8, 10, 13, 14})  # PERM, READONLY, IOERR, FULL, CANTOPEN
_BUSY_CODES = frozenset({5, 6})  # SQLITE_BUSY, SQLITE_LOCKED


@frozen
class Snapshot(Value):
    """A game's newest snapshot, found to agree with the entries it follows: `seq` is
    the number of the last entry it holds, `text` what the table wrote (`append`)."""

    seq: int
    text: str


def snapshot_digest(entries: Iterable[str], snapshot: str) -> str:
    """The digest a snapshot is kept with: SHA-256 of the stored texts of the entries it
    follows, in order, each ended by a newline (a stored entry holds none), then of the
    snapshot's own text."""
    digest = _entries_digest(entries)
    digest.update(snapshot.encode())
    return str(digest.hexdigest())


def _agreeing(row: tuple[Any, ...], texts: list[Any]) -> tuple[Snapshot, Any] | str:
    """A stored snapshot (`row`: its seq, digest and text) and the running digest of the
    entries it follows (`texts`, those up to its seq, in order) if its digest agrees with
    them; else why not: "missing" (an entry it names is not there) or "disagrees"."""
    seq, digest, text = row
    if not isinstance(text, str) or not isinstance(seq, int) or len(texts) != seq:
        return "missing"
    running = _entries_digest(str(t) for t in texts)
    check = running.copy()
    check.update(text.encode())
    if check.hexdigest() != digest:
        return "disagrees"
    return Snapshot(seq, text), running


def _entries_digest(entries: Iterable[str]) -> Any:
    """The running SHA-256 of stored entries, each ended by a newline."""
    return hashlib.sha256("".join(f"{text}\n" for text in entries).encode())


@frozen
class GameSummary(Value):
    """One game kept in the journal, as `roundhouse games` lists it."""

    id: int
    started: str  # ISO 8601, local time of the table
    players: tuple[str, ...]
    preset: str
    finished: str | None
    winner: str | None
    entries: int
    # "playing", "won by NAME", "abandoned", or "set aside at entry N" (see `set_aside`)
    status: str = "playing"


def _status(finished: str | None, result: Mapping[str, Any]) -> str:
    if result.get("set_aside"):
        return f"set aside at entry {result.get('entry', '?')}"
    if not finished:
        return "playing"
    if result.get("abandoned") or not result.get("winner"):
        return "abandoned"
    return f"won by {result['winner']}"


# The longest name a file system takes for one file (NAME_MAX), and the longest suffix
# the journal adds for the files beside it (its archive's refusal, ".archive.refused").
NAME_MAX = 255
_LONGEST_SIDE = len(ARCHIVE_SUFFIX + REFUSED_SUFFIX)


def path_problem(path: Path) -> str | None:
    """What keeps a journal from ever being made at `path`, in words, or None: a name
    longer than a file system takes, a file where its folder should be, a link to
    nothing. (`roundhouse check-config` asks the same as the journal itself.)"""
    if len(os.fsencode(path.name)) + _LONGEST_SIDE > NAME_MAX:
        return (f"the file name is {len(os.fsencode(path.name))} bytes long; with the "
                f"files the journal keeps beside it, at most {NAME_MAX - _LONGEST_SIDE}")
    try:
        if path.is_symlink() and not path.exists():
            return f"is a link to {os.readlink(path)}, which does not exist"
        for folder in path.parents:
            if folder.exists() or folder.is_symlink():
                if not folder.is_dir():
                    return f"its folder {folder} is a file, not a folder"
                break
    except OSError:
        pass  # not this user's to look at: opening says what is wrong, if anything
    return None


def _one_line(text: str) -> str:
    """SQLite's verdicts span lines; a refusal is one line."""
    return " ".join(text.split())


def _identity(path: Path) -> list[int] | None:
    """What tells one file at `path` from another put there (None: no file)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


def _now() -> str:
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


def lock_path(path: Path) -> Path:
    """The file whose lock says a service owns the journal; it holds that service's pid."""
    return path.with_name(path.name + ".lock")


class Journal:
    """The journal of one table. A writing journal holds an exclusive lock on the file
    beside it (`NAME.lock`) for as long as it is open, so one database serves one
    service; `read_only=True` (for `games` and `export`) takes no lock and writes nothing,
    and works while the service runs and on a full disk.

    Every writing open checks the file first (`START_CHECK`, the whole file, at every
    start: benchmarks/journal_check.py measures it; the archive's is checked when the
    archiving first opens it, `archive_finished`) and decodes every game's description
    and result and every entry of the games a start replays (the unfinished ones and the
    newest; of a game with a sound snapshot, the entries after it). A file that fails
    is refused with one line, and the refusal holds (a `NAME.refused` file beside it)
    until a person acts: `move_aside=True`, or a file
    put in its place (restored, repaired, or removed for a fresh start). `unclean` says
    whether the last service stopped without closing the journal: SQLite removes its
    write-ahead log when the last connection closes, so a log left behind with frames in
    it means a kill or a power cut, and the commits after the last whole frame of that
    log are lost (an empty one is a reader's, `roundhouse games` between two runs).
    """

    # The running digest of one game's entries (game, number of its last entry, the
    # digest so far): a snapshot's digest then costs one entry's hashing, not a read of
    # the whole game.
    _running: tuple[int, int, Any] | None = None

    def __init__(self, path: Path, *, move_aside: bool = False, check: bool = False,
                 read_only: bool = False, archive: bool = True,
                 interrupt: threading.Event | None = None,
                 working: Callable[[], None] | None = None) -> None:
        self.path = path
        # Set, it ends the check of a file opened for writing (the archive's, at a stop).
        self._interrupt = interrupt
        # Called every `CHECK_STEPS` steps of SQLite's while the file is checked (the
        # service tells systemd that its start goes on: `notify.still_starting`).
        self._working = working
        self.read_only = read_only
        # The archive of finished games beside it (None: this file is an archive).
        self.archive_path: Path | None = beside(path, ARCHIVE_SUFFIX) if archive else None
        # What kept the archive from being read, said once by whoever lists the games.
        self.archive_problem: str | None = None
        # Where the archiving kept a damaged archive, or another journal's, aside.
        self.archive_moved_to: Path | None = None
        self._reader: Journal | None = None
        self._writer: Journal | None = None
        # The snapshots the open found to agree with their games' entries, with the
        # running digest of those entries (`_decode_started`); any write forgets them.
        self._checked: dict[int, tuple[Snapshot, Any]] = {}
        # Readers another thread may still hold, closed with the journal.
        self._retired: list[Journal] = []
        self._archiving: threading.Thread | None = None
        self._wake = threading.Event()
        self._stopping = threading.Event()
        # Set each time the archiving thread has done what there was to do.
        self.archived = threading.Event()
        # One controller thread writes; the connection is made on the starting thread.
        self._lock = threading.Lock()
        self._holder: int | None = None
        # Opened while its file system was read-only, SQLite's connection stays read-only
        # for good: `reconnect` (with every other connection to the file closed) sees
        # whether the disk writes again.
        self.stale = False
        self._copy: tempfile.TemporaryDirectory[str] | None = None
        self.moved_to: Path | None = None
        self._refuse_special()
        self.unclean = False
        if read_only:
            self._refuse_cut()
            self._db = self._open_read_only()
            return
        self._holder = self._take_lock()
        try:
            self.unclean = _log_holds_commits(path)
            try:
                self._refuse_held()
                self._refuse_cut()
                self._db = self._open(check=True)
            except JournalDamaged as damage:
                if not move_aside:
                    self._hold_refusal(damage)
                    raise
                self.moved_to = self._move_aside()
                self.unclean = False
                self._db = self._open(check=False)
            self._keep_private()
        except BaseException:
            os.close(self._holder)
            raise

    # --- opening ----------------------------------------------------------------------

    def _refuse_special(self) -> None:
        """A folder or a device in the journal's place is a mistake in the configuration,
        never a damaged journal: it is not opened, and never moved aside."""
        problem = path_problem(self.path)
        if problem is not None:
            raise JournalError(f"{self.path}: {problem}")
        try:
            mode = self.path.stat().st_mode
        except OSError:
            return
        if stat.S_ISDIR(mode):
            raise JournalError(f"{self.path}: is a folder, expected the journal's database file")
        if not stat.S_ISREG(mode):
            raise JournalError(f"{self.path}: is not a regular file (a device, pipe or "
                               "socket), expected the journal's database file")

    def _keep_private(self) -> None:
        """The journal holds every hidden hand of a tracked game: it is the service's
        alone (0600), and so are its log and index; a journal of an older version
        (0640, in the service's group) is made so."""
        for suffix in ("", "-wal", "-shm"):
            side = beside(self.path, suffix)
            with contextlib.suppress(OSError):
                info = side.lstat()
                if (stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid()
                        and info.st_mode & 0o077):
                    side.chmod(stat.S_IMODE(info.st_mode) & 0o700)

    def _refuse_cut(self) -> None:
        cut = cut_database(self.path)
        if cut is not None:
            raise self._damaged(cut)

    def _refuse_held(self) -> None:
        """A refusal of an earlier start holds while the same file is in place."""
        marker = beside(self.path, REFUSED_SUFFIX)
        try:
            held = json.loads(marker.read_text(encoding="utf-8"))
            reason, identity = str(held["reason"]), held["file"]
            ours = held.get("pid") == os.getpid()
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError):
            reason, identity, ours = "the journal was refused at an earlier start", None, False
        if identity is not None and identity != _identity(self.path):
            # Another file is in its place (restored, repaired, or none): check that one.
            with contextlib.suppress(OSError):
                marker.unlink()
            return
        if ours:  # this very process refused it a moment ago: said as it was
            raise JournalDamaged(_one_line(reason))
        raise JournalDamaged(f"{_one_line(reason)} (refused since an earlier start: "
                             f"{marker} holds the refusal until the file is replaced "
                             "or moved aside)")

    def _hold_refusal(self, damage: JournalDamaged) -> None:
        marker = beside(self.path, REFUSED_SUFFIX)
        if marker.exists():
            return
        held = {"reason": str(damage), "file": _identity(self.path), "pid": os.getpid()}
        with contextlib.suppress(OSError):
            marker.write_text(json.dumps(held) + "\n", encoding="utf-8")

    def _take_lock(self) -> int:
        lock = lock_path(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError as err:
                if err.errno not in (errno.EROFS, errno.EACCES, errno.ENOSPC):
                    raise
                # A read-only or full disk may still let the journal be read and shown.
                fd = os.open(lock, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as err:
            raise self._unwritable(f"cannot open {lock}: {err.strerror}",
                                   err.errno == errno.ENOSPC) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            who = f"pid {holder}" if holder.isdigit() else "another process"
            raise JournalBusy(f"{self.path}: in use by {who}; one journal serves one table "
                              "service (stop the other one first)") from None
        # The pid, padded so that the next service overwrites it in place: a full disk
        # has no block for a longer one.
        with contextlib.suppress(OSError):
            os.pwrite(fd, f"{os.getpid():<10}\n".encode(), 0)
        return fd

    def _open(self, *, check: bool) -> sqlite3.Connection:
        self._align_side_files()
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error as err:
            raise self._failed(err, "cannot open the journal") from None
        try:
            stop, working = self._interrupt, self._working if check else None
            if stop is not None or working is not None:

                def progress() -> int:
                    if working is not None:
                        working()
                    return int(stop is not None and stop.is_set())

                db.set_progress_handler(progress, CHECK_STEPS)
            self._recognise(db, check=check)
            db.set_progress_handler(None, 0)
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._migrate(db)
        except sqlite3.Error as err:
            db.close()
            raise self._failed(err, "unreadable database") from None
        except JournalError:
            db.close()
            raise
        return db

    def _align_side_files(self) -> None:
        """Give the write-ahead log and its index the journal's own permissions again.

        SQLite creates them with the database file's mode (os_unix.c, findCreateFileMode)
        and never changes it: opened while the journal was read-only (chmod 0444), they
        stay read-only after the journal is made writable again, and SQLite then refuses
        every write ("attempt to write a readonly database") until they are deleted, which
        the read-only connections never do. Only the permission bits the journal has are
        given; a file owned by another user is left alone."""
        try:
            mode = stat.S_IMODE(self.path.stat().st_mode)
        except OSError:
            return
        if not os.access(self.path, os.W_OK):
            return  # the journal itself is read-only: nothing to align yet
        for suffix in ("-wal", "-shm"):
            side = beside(self.path, suffix)
            with contextlib.suppress(OSError):
                if side.is_file() and not os.access(side, os.W_OK):
                    side.chmod(mode)

    def _open_read_only(self) -> sqlite3.Connection:
        uri = f"file:{urllib.parse.quote(str(self.path.absolute()))}?mode=ro"
        try:
            return self._reading(uri)
        except JournalUnwritable:
            pass
        # The disk cannot take the write-ahead log's index (a full disk): with no log
        # pending, the file alone is the whole journal.
        wal = beside(self.path, "-wal")
        if not wal.exists() or wal.stat().st_size == 0:
            return self._reading(uri + "&immutable=1")
        # Otherwise a copy, with its log, on a file system that has room.
        import shutil
        import tempfile

        self._copy = tempfile.TemporaryDirectory(prefix="roundhouse-journal-",
                                                 dir=_memory_folder())
        copy = Path(self._copy.name) / self.path.name
        try:
            shutil.copyfile(self.path, copy)
            shutil.copyfile(wal, beside(copy, "-wal"))
        except OSError as err:
            raise self._unwritable(f"cannot read it on this full disk: {err}", True) from None
        return self._reading(f"file:{urllib.parse.quote(str(copy))}")

    def _reading(self, uri: str) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                 check_same_thread=False, timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error as err:
            raise self._failed(err, "cannot open the journal") from None
        try:
            self._recognise(db, check=False)
        except sqlite3.Error as err:
            db.close()
            raise self._failed(err, "unreadable database") from None
        except JournalError:
            db.close()
            raise
        return db

    def _failed(self, err: sqlite3.Error, what: str) -> JournalError:
        """The error SQLite gave, as damaged, in use or cannot-write."""
        code = getattr(err, "sqlite_errorcode", 0) & 0xFF
        if code in _BUSY_CODES:
            return JournalError(f"{self.path}: in use by another process ({err}); is "
                                "another `roundhouse run` using it?")
        if code in _UNWRITABLE_CODES:
            return self._unwritable(str(err), code == 13)
        if code in _DAMAGED_CODES or not isinstance(err, sqlite3.OperationalError):
            return self._damaged(f"{what} ({err})")
        return JournalError(f"{self.path}: {what} ({err})")

    def _unwritable(self, detail: str, full: bool) -> JournalUnwritable:
        full = full or _no_room(self.path)
        if full:
            why = "its disk is full: free some space"
        elif _file_refuses_writes(self.path):
            why = ("the file is not writable by this user: give it back to the service's "
                   "user (chown roundhouse:roundhouse, chmod 0600)")
        else:
            why = "its disk takes no writes (read-only or failing): check the disk"
        return JournalUnwritable(f"{self.path}: cannot write the journal ({detail}); {why}. "
                                 "The journal itself is not damaged", full=full)

    def _recognise(self, db: sqlite3.Connection, *, check: bool) -> None:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        if check:
            try:
                rows = [str(r[0]) for r in db.execute(f"PRAGMA {START_CHECK}")]
            except sqlite3.DatabaseError as err:
                if getattr(err, "sqlite_errorcode", 0) & 0xFF not in _DAMAGED_CODES:
                    raise
                rows = [str(err)]
            if rows != ["ok"]:
                more = f" and {len(rows) - 2} more" if len(rows) > 2 else ""
                raise self._damaged(f"the integrity check failed "
                                    f"({'; '.join(rows[:2])}{more})")
        if app_id == 0:
            foreign = [t for t in tables if not t.startswith(SHARED_TABLE_PREFIX)]
            if foreign:
                raise self._damaged(f"not a Roundhouse journal (it holds the tables "
                                    f"{', '.join(sorted(foreign)[:5])})")
        elif app_id != APPLICATION_ID:
            raise self._damaged(f"not a Roundhouse journal (application id {app_id:#x})")
        elif version > SCHEMA_VERSION:
            # A sound journal, only newer: never moved aside.
            raise JournalError(
                f"{self.path}: written by a newer Roundhouse (journal version {version}, "
                f"this one reads up to {SCHEMA_VERSION}); upgrade Roundhouse")
        elif check and "games" in tables:
            self._decode_started(db)
        if self.read_only and "games" not in tables:
            raise JournalError(f"{self.path}: holds no journal yet (no game was ever "
                               "journaled in it); --db names another")

    def _decode_started(self, db: sqlite3.Connection) -> None:
        """Every game's description and result, and the entries of the games a start
        replays, decode: one that does not is damage, named by game and entry. Of a game
        whose snapshot agrees with its entries (`snapshot_digest`), only the entries after
        the snapshot are decoded, the ones a start replays: those before it are the very
        texts the snapshot was written after (their digest says so), and whoever reads
        them (an undo back past the snapshot, `export`) decodes them then. The snapshot
        found is kept for `snapshot`, which then reads nothing again."""
        for game_id, meta, result in db.execute("SELECT id, meta, result FROM games"):
            self._decode(meta, game_id)
            if result is not None:
                self._decode(result, game_id, "its result")
        replayed = db.execute("SELECT id FROM games WHERE finished IS NULL "
                              "UNION SELECT MAX(id) FROM games").fetchall()
        kept = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                          "AND name = 'snapshots'").fetchone()
        for (game_id,) in replayed:
            if game_id is None:
                continue
            rows = db.execute("SELECT seq, entry FROM entries WHERE game_id = ? "
                              "ORDER BY seq", (game_id,)).fetchall()
            covered = 0
            row = kept and db.execute("SELECT seq, digest, snapshot FROM snapshots "
                                      "WHERE game_id = ?", (game_id,)).fetchone()
            if row:
                last = row[0] if isinstance(row[0], int) else -1
                agreed = _agreeing(row, [text for seq, text in rows if seq <= last])
                if not isinstance(agreed, str):
                    self._checked[game_id] = agreed
                    covered = agreed[0].seq
            for seq, text in rows:
                if seq > covered:
                    self._decode(text, game_id, f"entry {seq}")

    def _decode(self, text: object, game_id: int, what: str = "its description") -> Any:
        """A stored JSON object; `JournalDamaged` naming game and entry if it is not one."""
        try:
            value = json.loads(text) if isinstance(text, str | bytes) else None
        except ValueError as err:
            raise self._damaged(f"game {game_id}, {what} cannot be read ({err})") from None
        if not isinstance(value, dict):
            raise self._damaged(f"game {game_id}, {what} cannot be read (not an object)")
        return value

    @contextlib.contextmanager
    def _query(self) -> Iterator[sqlite3.Connection]:
        """A read under the lock; SQLite finding the file damaged is a one-line
        `JournalDamaged`, never a traceback."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.DatabaseError as err:
                raise self._failed(err, "cannot read the journal") from None

    def _damaged(self, what: str) -> JournalDamaged:
        if self.archive_path is None:
            return JournalDamaged(_one_line(
                f"{self.path}: {what}; this archive of finished games is kept aside by "
                "the table service's next start, which begins a new one (the table "
                "plays on; the games in it are no longer listed)"))
        return JournalDamaged(_one_line(f"{self.path}: {what}; starting with --move-aside "
                                        "(`roundhouse run` or `sim`) keeps it aside and "
                                        "begins a fresh journal"))

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

    def _move_aside(self, why: str = "broken") -> Path:
        """Rename the file (and its log and index) `NAME.broken-DATE`, or
        `NAME.broken-DATE-N` beside another of the same second: never over one."""
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.{why}-{stamp}")
        number = 1
        while any(beside(target, s).exists() or beside(target, s).is_symlink()
                  for s in ("", "-wal", "-shm")):
            number += 1
            target = self.path.with_name(f"{self.path.name}.{why}-{stamp}-{number}")
        try:
            # The refusal is over: the file it held is kept aside.
            with contextlib.suppress(FileNotFoundError):
                beside(self.path, REFUSED_SUFFIX).unlink()
            for suffix in ("-wal", "-shm"):
                side = beside(self.path, suffix)
                if side.is_file():
                    side.rename(beside(target, suffix))
            if self.path.exists():
                self.path.rename(target)
        except OSError as err:
            raise JournalError(f"{self.path}: cannot move it aside: {err}") from None
        return target

    # --- games ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One write under the lock; a failed write is a `JournalUnwritable` (disk full,
        read-only) or a `JournalError` saying so, and leaves no transaction open."""
        with self._lock:
            self._checked.clear()
            try:
                yield
            except sqlite3.Error as err:
                self._roll_back()
                self.stale = getattr(err, "sqlite_errorcode", 0) & 0xFF == 8  # READONLY
                failed = self._failed(err, "cannot write the journal")
                if not isinstance(failed, JournalUnwritable):
                    failed = JournalError(f"{self.path}: cannot write the journal: {err}")
                raise failed from err
            except BaseException:
                self._roll_back()
                raise

    def reconnect(self) -> None:
        """A fresh connection, for a journal whose writes were refused as read-only."""
        with self._lock:
            self._db.close()
            self._db = self._open(check=False)
            self.stale = False

    def _roll_back(self) -> None:
        # SQLite may have rolled back by itself (a full disk does that): nothing to undo.
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    def begin_game(self, meta: Mapping[str, Any]) -> int:
        with self._writing():
            cursor = self._db.execute("INSERT INTO games (started, meta) VALUES (?, ?)",
                                      (_now(), json.dumps(dict(meta))))
        game_id = int(cursor.lastrowid or 0)
        self._running = (game_id, 0, _entries_digest(()))
        self._wake.set()  # the game before it may be archived now
        return game_id

    def append(self, game_id: int, entry: Mapping[str, Any], *,
               finish: Mapping[str, Any] | None = None, reopen: bool = False,
               snapshot: str | None = None) -> int:
        """Append one entry; it is on disk when this returns. Returns its number (from 1).

        `reopen` first takes back a finished game's result (its last move is undone) and
        `finish` then records the result the entry gives; `snapshot` (the game as it is
        after this entry, in the table's words) replaces the game's snapshot, kept with
        the digest of every entry up to this one. Entry, result and snapshot are written
        together or not at all, in one commit."""
        text = json.dumps(dict(entry), separators=(",", ":"))
        with self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            if reopen:
                self._db.execute("UPDATE games SET finished = NULL, result = NULL "
                                 "WHERE id = ? AND finished IS NOT NULL", (game_id,))
            row = self._db.execute(
                "SELECT finished IS NOT NULL, (SELECT COALESCE(MAX(seq), 0) FROM entries "
                "WHERE game_id = ?) FROM games WHERE id = ?", (game_id, game_id)).fetchone()
            if row is None or row[0]:
                raise JournalError(f"game {game_id} is not open in {self.path}")
            seq = int(row[1]) + 1
            self._db.execute("INSERT INTO entries (game_id, seq, at, entry) "
                             "VALUES (?, ?, ?, ?)", (game_id, seq, _now(), text))
            if finish is not None:
                self._db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                                 (_now(), json.dumps(dict(finish)), game_id))
            if snapshot is not None:
                self._db.execute(
                    "INSERT INTO snapshots (game_id, seq, at, digest, snapshot) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                    "seq = excluded.seq, at = excluded.at, digest = excluded.digest, "
                    "snapshot = excluded.snapshot",
                    (game_id, seq, _now(), self._digest(game_id, seq, text, snapshot),
                     snapshot))
            self._db.execute("COMMIT")
        self._follow(game_id, seq, text)
        return seq


    def _follow(self, game_id: int, seq: int, text: str) -> None:
        running = self._running
        if running is not None and running[:2] == (game_id, seq - 1):
            running[2].update(text.encode() + b"\n")
            self._running = (game_id, seq, running[2])
        else:
            self._running = None

    def _digest(self, game_id: int, seq: int, text: str, snapshot: str) -> str:
        """`snapshot_digest` of a game's entries up to `seq` (whose text is `text`,
        written in the transaction under way) and `snapshot`."""
        running = self._running
        if running is None or running[:2] != (game_id, seq - 1):
            rows = self._db.execute("SELECT entry FROM entries WHERE game_id = ? AND seq < ? "
                                    "ORDER BY seq", (game_id, seq))
            # (Entries before this one: committed, whatever becomes of this commit.)
            self._running = running = (game_id, seq - 1,
                                       _entries_digest(str(r[0]) for r in rows))
        digest = running[2].copy()
        digest.update(text.encode() + b"\n")
        digest.update(snapshot.encode())
        return str(digest.hexdigest())

    def snapshot(self, game_id: int) -> Snapshot | None:
        """A game's snapshot, if it has one and it agrees with the game's entries (its
        digest, `snapshot_digest`). None for one that does not (the entries it follows
        are not the journal's: a journal put together again by hand, say), said in the
        log, and for a journal of an older version, which kept none."""
        checked = self._checked.pop(game_id, None)
        if checked is not None:
            # Found to agree at the open, and nothing written since.
            found, running = checked
        else:
            with self._query() as db:
                # (Read-only, a journal of an older version is not migrated.)
                made = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                  "AND name = 'snapshots'").fetchone()
                row = made and db.execute("SELECT seq, digest, snapshot FROM snapshots "
                                          "WHERE game_id = ?", (game_id,)).fetchone()
                if not row:
                    return None
                texts = [r[0] for r in db.execute(
                    "SELECT entry FROM entries WHERE game_id = ? AND seq <= ? ORDER BY seq",
                    (game_id, row[0]))]
            agreed = _agreeing(row, texts)
            if agreed == "missing":
                log.warning("game %d: its snapshot names entry %s, which the journal does "
                            "not hold; it is resumed from its first entry", game_id, row[0])
                return None
            if isinstance(agreed, str):
                log.warning("game %d: its snapshot at entry %d does not agree with the "
                            "entries before it; it is resumed from its first entry",
                            game_id, row[0])
                return None
            found, running = agreed
        if not self.read_only:
            # The digest so far, for the next snapshot (if it follows on from here).
            self._running = (game_id, found.seq, running)
        return found

    def entries(self, game_id: int, *, after: int = 0) -> list[dict[str, Any]]:
        """A game's entries, in order; `after`: only those after entry number `after`."""
        with self._query() as db:
            rows = db.execute("SELECT seq, entry FROM entries WHERE game_id = ? AND seq > ? "
                              "ORDER BY seq", (game_id, after)).fetchall()
        if after and self._running is not None and self._running[:2] == (game_id, after):
            for seq, text in rows:
                self._follow(game_id, int(seq), str(text))
        if not rows and not self._holds(game_id):
            history = self._history()
            if history is not None and history._holds(game_id):
                return history.entries(game_id, after=after)
        return [self._decode(text, game_id, f"entry {seq}") for seq, text in rows]

    def meta(self, game_id: int) -> dict[str, Any]:
        row = None
        if 0 < game_id <= _MAX_ID:
            with self._query() as db:
                row = db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                history = self._history()
                if history is not None and history._holds(game_id):
                    return history.meta(game_id)
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path}"
                               + (f" ({self.archive_problem})" if self.archive_problem else ""))
        return dict(self._decode(row[0], game_id))

    def _holds(self, game_id: int) -> bool:
        if not 0 < game_id <= _MAX_ID:
            return False
        with self._query() as db:
            return db.execute("SELECT 1 FROM games WHERE id = ?",
                              (game_id,)).fetchone() is not None

    def open_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None:
        """The newest unfinished game with its entries, or None."""
        opened = self.open_game_meta()
        return None if opened is None else (*opened, self.entries(opened[0]))

    def open_game_meta(self) -> tuple[int, dict[str, Any]] | None:
        """The newest unfinished game and its meta (its entries not read), or None."""
        with self._query() as db:
            row = db.execute("SELECT id, meta FROM games WHERE finished IS NULL "
                             "ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        game_id = int(row[0])
        return game_id, dict(self._decode(row[1], game_id))

    def ended_game(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None:
        """The newest game with its entries if it ended with a ranking (not abandoned)."""
        ended = self.ended_game_meta()
        return None if ended is None else (*ended, self.entries(ended[0]))

    def ended_game_meta(self) -> tuple[int, dict[str, Any]] | None:
        """The newest game and its meta if it ended with a ranking (not abandoned)."""
        with self._query() as db:
            row = db.execute("SELECT id, meta, result FROM games "
                             "ORDER BY id DESC LIMIT 1").fetchone()
        if row is None or not row[2]:
            return None
        game_id = int(row[0])
        result = self._decode(row[2], game_id, "its result")
        if not result.get("ranking") or result.get("abandoned"):
            return None
        return game_id, dict(self._decode(row[1], game_id))

    def last_entry(self, game_id: int) -> int:
        """The number of a game's last entry (0 if none)."""
        with self._query() as db:
            row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?",
                             (game_id,)).fetchone()
        return int(row[0])

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

    def table_state(self) -> dict[str, Any]:
        """What the table held between games when it last said so (`save_table_state`),
        or {}. A journal of an older version has none."""
        with self._query() as db:
            # (Read-only, a journal of an older version is not migrated.)
            made = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                              "AND name = 'table_state'").fetchone()
            row = made and db.execute(
                "SELECT value FROM table_state WHERE key = 'table'").fetchone()
        if not row:
            return {}
        try:
            value = json.loads(row[0])
        except ValueError:
            raise self._damaged(f"the table's state cannot be read ({row[0][:40]!r})") from None
        return value if isinstance(value, dict) else {}

    def save_table_state(self, state: Mapping[str, Any]) -> None:
        """Journal what the table holds between games; on disk when this returns."""
        with self._writing():
            self._db.execute(
                "INSERT INTO table_state (key, value, at) VALUES ('table', ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, at = excluded.at",
                (json.dumps(dict(state), separators=(",", ":")), _now()))

    def set_aside(self, game_id: int, entry: int, reason: str) -> None:
        """Close a game this version cannot take up (it cannot replay entry `entry`):
        it stays in the journal as it is, is never resumed, and `games` says why."""
        result = {"set_aside": True, "entry": entry, "reason": reason}
        with self._writing():
            self._db.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ? AND finished IS NULL",
                (_now(), json.dumps(result), game_id))

    def describe_game(self, game_id: int, meta: Mapping[str, Any]) -> None:
        """Write a game's meta anew: a game journaled before its every option was gets
        them, as the version that resumed it read them."""
        with self._writing():
            self._db.execute("UPDATE games SET meta = ? WHERE id = ?",
                             (json.dumps(dict(meta)), game_id))

    def games(self) -> list[GameSummary]:
        """Every game, oldest first: the archived ones and the journal's own. An archive
        that cannot be read leaves its games out, and `archive_problem` says why."""
        live = self._own_games()
        history = self._history()
        if history is None:
            return live
        try:
            archived = history._own_games()
        except JournalError as err:
            self.archive_problem = str(err)
            return live
        # A game copied into the archive and not yet deleted here is one game.
        here = {g.id: (g.started, g.players) for g in live}
        other = [g.id for g in archived if g.id in here and here[g.id] != (g.started, g.players)]
        if other:
            self.archive_problem = (
                f"{history.path} holds other games numbered {_numbers(other)} than "
                f"{self.path}; the journal's own are listed: restore the archive that was "
                "backed up with the journal")
        return sorted([*live, *(g for g in archived if g.id not in here)], key=lambda g: g.id)

    def _own_games(self) -> list[GameSummary]:
        with self._query() as db:
            rows = db.execute(
                "SELECT g.id, g.started, g.meta, g.finished, g.result, "
                "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id) "
                "FROM games g ORDER BY g.id").fetchall()
        summaries = []
        for game_id, started, meta_text, finished, result_text, count in rows:
            meta = self._decode(meta_text, game_id)
            result = self._decode(result_text, game_id, "its result") if result_text else {}
            summaries.append(GameSummary(
                id=game_id,
                started=started,
                players=tuple(str(p) for p in meta.get("players", ())),
                preset=str(meta.get("preset", "?")),
                finished=finished,
                winner=result.get("winner"),
                entries=count,
                status=_status(finished, result),
            ))
        return summaries

    # --- the archive of finished games -------------------------------------------------

    def start_archiving(self) -> None:
        """Archive in a thread of its own: at once (the archive is checked whole first),
        then after every game begun, until `close`."""
        if self._archiving is not None or self.read_only or self.archive_path is None:
            return
        self._archiving = threading.Thread(target=self._archive_loop, name="archive",
                                           daemon=True)
        self._archiving.start()

    def _archive_loop(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            try:
                moved = self.archive_finished(self._stopping)
            except ArchiveClash as err:
                # The archive itself is sound: the other games did leave the journal.
                log.error("%s", err)
            except Exception as err:
                if self._stopping.is_set():
                    pass
                elif isinstance(err, JournalError):
                    log.error("the finished games stay in the journal for now: %s", err)
                else:
                    log.exception("the finished games stay in the journal for now")
                # The next pass opens the archive again (its lock let go), and checks it
                # whole again.
                writer, self._writer = self._writer, None
                if writer is not None:
                    with contextlib.suppress(Exception):
                        writer.close()
            else:
                if moved:
                    log.info("%d finished games moved into the archive %s", moved,
                             self.archive_path)
            self.archived.set()
            self._wake.wait()

    def _stop_archiving(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._archiving is not None:
            self._archiving.join()
            self._archiving = None

    def archive_finished(self, stop: threading.Event | None = None) -> int:
        """Move every finished game but the newest into the archive, one game at a time,
        and say how many were moved; `stop` ends it between two games.

        A power cut at any moment loses no game and lists none twice: a game is copied
        whole into the archive (one transaction there, on disk when it returns), then
        deleted whole from the journal (one transaction here). Found in both files after
        a cut between the two, it is read from the journal, and the next archiving copies
        it again over its first copy."""
        if self.read_only or self.archive_path is None:
            raise JournalError(f"{self.path}: opened for reading only, nothing is archived")
        with self._query() as db:
            ids = [int(r[0]) for r in db.execute(
                "SELECT id FROM games WHERE finished IS NOT NULL "
                "AND id < (SELECT MAX(id) FROM games) ORDER BY id")]
        if not ids and not self.archive_path.exists():
            return 0
        writer = self._archive()
        moved = 0
        clashes: list[int] = []
        for game_id in ids:
            if stop is not None and stop.is_set():
                break
            try:
                moved += self._archive_one(writer, game_id)
            except ArchiveClash:
                # That game stays in the journal; the others still leave it, or the
                # check every start runs would grow with each game played from now on.
                clashes.append(game_id)
        if moved:
            self._compact()
        if clashes:
            raise ArchiveClash(
                f"{writer.path} holds other games numbered {_numbers(clashes)} than "
                f"{self.path}, which keeps its own (moved {moved} other finished games): "
                "restore the archive that was backed up with the journal")
        return moved

    def _archive(self) -> Journal:
        """The archive, for writing. Opened once, and checked whole then (`START_CHECK`):
        a damaged one, or one of another journal (one moved aside or replaced), is kept
        aside and a new one begun."""
        if self._writer is not None:
            return self._writer
        assert self.archive_path is not None
        ours = self._mark("archive")
        if ours is None:
            ours = os.urandom(8).hex()
            self._set_mark("archive", ours)
        writer = Journal(self.archive_path, move_aside=True, archive=False,
                         interrupt=self._stopping)
        try:
            if writer.moved_to is not None:
                self.archive_moved_to = writer.moved_to
                log.error("the archive of finished games %s is damaged: it is kept as %s, "
                          "and a new archive is begun; the table plays on",
                          self.archive_path, writer.moved_to)
            theirs = writer._mark("archive_of")
            if theirs is None and not writer._own_games():
                writer._set_mark("archive_of", ours)
            elif theirs != ours:
                writer.close()
                self.archive_moved_to = writer._move_aside("other")
                log.warning("%s held the finished games of another journal: it is kept as "
                            "%s, and a new archive is begun", self.archive_path,
                            self.archive_moved_to)
                writer = Journal(self.archive_path, archive=False)
                writer._set_mark("archive_of", ours)
        except BaseException:
            writer.close()
            raise
        if self._reader is not None:
            self._retired.append(self._reader)
            self._reader = None
        self._writer = writer
        return writer

    def _history(self) -> Journal | None:
        """The archive, for reading; None if there is none, or it is not this journal's
        (`archive_problem` says so), or this file is an archive."""
        if self._writer is not None or self._reader is not None:
            return self._writer or self._reader
        path = self.archive_path
        if path is None or not (path.exists() or path.is_symlink()):
            return None
        try:
            reader = Journal(path, read_only=True, archive=False)
        except JournalError as err:
            self.archive_problem = str(err)
            return None
        try:
            theirs, empty = reader._mark("archive_of"), not reader._own_games()
            ours = self._mark("archive")
        except JournalError as err:
            reader.close()
            self.archive_problem = str(err)
            return None
        if theirs is None or theirs != ours:
            reader.close()
            if not empty:
                self.archive_problem = (f"{path} holds the finished games of another "
                                        "journal, not listed here: the table service keeps "
                                        "it aside")
            return None
        self._reader = reader
        return reader

    def _mark(self, key: str) -> str | None:
        """The token that ties a journal and its archive (table_state `archive` in the
        journal, `archive_of` in the archive), or None."""
        with self._query() as db:
            made = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                              "AND name = 'table_state'").fetchone()
            row = made and db.execute("SELECT value FROM table_state WHERE key = ?",
                                      (key,)).fetchone()
        if not row:
            return None
        with contextlib.suppress(ValueError):
            value = json.loads(row[0])
            if isinstance(value, dict) and isinstance(value.get("token"), str):
                return str(value["token"])
        return None

    def _set_mark(self, key: str, token: str) -> None:
        with self._writing():
            self._db.execute(
                "INSERT INTO table_state (key, value, at) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, at = excluded.at",
                (key, json.dumps({"token": token}), _now()))

    def _game_rows(self, game_id: int) -> list[tuple[str, list[str], list[tuple[Any, ...]]]]:
        """A finished game whole: its row of `games`, then its rows of every table that
        has a `game_id` (its entries, and any table a later version adds); [] if it is
        not finished here."""
        db = self._db
        cursor = db.execute("SELECT * FROM games WHERE id = ? AND finished IS NOT NULL",
                            (game_id,))
        game = cursor.fetchall()
        if not game:
            return []
        found = [("games", [d[0] for d in cursor.description], game)]
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                   "AND name NOT LIKE 'sqlite%' ORDER BY name").fetchall():
            columns = [c[1] for c in db.execute(f'PRAGMA table_info("{table}")')]
            if table != "games" and "game_id" in columns:
                cursor = db.execute(f'SELECT * FROM "{table}" WHERE game_id = ?', (game_id,))
                found.append((table, [d[0] for d in cursor.description], cursor.fetchall()))
        return found

    def _archive_one(self, writer: Journal, game_id: int) -> bool:
        """Copy one finished game into the archive, then delete it here."""
        with self._query():
            rows = self._game_rows(game_id)
        if not rows:
            return False
        columns, (game, *_) = rows[0][1], rows[0][2]
        started, meta = game[columns.index("started")], game[columns.index("meta")]
        with writer._writing():
            db = writer._db
            db.execute("BEGIN IMMEDIATE")
            there = db.execute("SELECT started, meta FROM games WHERE id = ?",
                               (game_id,)).fetchone()
            if there is not None and tuple(there) != (started, meta):
                # Another game of that number (the journal restored from an older backup):
                # never copied over; it stays in the journal.
                db.execute("ROLLBACK")
                raise ArchiveClash(f"{writer.path} holds another game {game_id} than "
                                   f"{self.path}")
            for table, _, _ in reversed(rows):  # its entries before the game itself
                key = "id" if table == "games" else "game_id"
                db.execute(f'DELETE FROM "{table}" WHERE {key} = ?', (game_id,))
            for table, columns, values in rows:
                names = ", ".join(f'"{c}"' for c in columns)
                marks = ", ".join("?" for _ in columns)
                db.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', values)
            _archive_step("copying", game_id)
            db.execute("COMMIT")
        _archive_step("copied", game_id)
        with writer._query():
            if writer._game_rows(game_id) != rows:
                raise JournalError(f"{writer.path}: game {game_id} did not read back as "
                                   "it was copied; it stays in the journal")
        with self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            if self._game_rows(game_id) != rows:
                # Changed since it was read (taken back by an undo): the next pass copies it.
                self._db.execute("ROLLBACK")
                return False
            for table, _, _ in reversed(rows):
                key = "id" if table == "games" else "game_id"
                self._db.execute(f'DELETE FROM "{table}" WHERE {key} = ?', (game_id,))
            _archive_step("deleting", game_id)
            self._db.execute("COMMIT")
        _archive_step("deleted", game_id)
        return True

    def _compact(self) -> None:
        """Give the space of the games moved out back to the disk, once it is most of the
        file, so that the start-up check and the file stay small."""
        with self._query() as db:
            free = int(db.execute("PRAGMA freelist_count").fetchone()[0])
            pages = int(db.execute("PRAGMA page_count").fetchone()[0])
            size = int(db.execute("PRAGMA page_size").fetchone()[0])
        if free * size < COMPACT_BYTES or free * 2 < pages:
            return
        with self._writing():
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        self._stop_archiving()
        for other in (self._reader, self._writer, *self._retired):
            if other is not None:
                other.close()
        self._reader = self._writer = None
        self._retired.clear()
        with self._lock:
            self._db.close()
            if self._holder is not None:
                os.close(self._holder)  # the lock goes with it
                self._holder = None
            if self._copy is not None:
                self._copy.cleanup()


def _archive_step(step: str, game_id: int) -> None:
    """Each step of archiving a game ("copying", "copied", "deleting", "deleted"): where
    the tests cut the power."""


def _log_holds_commits(path: Path) -> bool:
    """Whether SQLite's write-ahead log beside `path` holds anything: a service that
    stopped cleanly removed it, and a reader (`roundhouse games`, `export`) between two
    runs may leave it behind empty (a read-only connection cannot remove it), which is no
    unclean stop: nothing of it is lost."""
    try:
        return beside(path, "-wal").stat().st_size > 0
    except OSError:
        return False


def _no_room(path: Path) -> bool:
    """Whether the file system of `path` (or of its nearest existing folder) is full."""
    for folder in (path, *path.parents):
        try:
            fs = os.statvfs(folder)
        except OSError:
            continue
        # Root's reserve aside: what a service running as its own user may still use.
        return fs.f_bavail * fs.f_frsize < 64 * 1024
    return False


def _file_refuses_writes(path: Path) -> bool:
    """Whether the journal file itself, on a disk that writes, refuses this user."""
    try:
        writable_disk = not os.statvfs(path).f_flag & os.ST_RDONLY
    except OSError:
        return False
    return writable_disk and path.is_file() and not os.access(path, os.W_OK)


def _memory_folder() -> str | None:
    """A folder in memory for a copy of the journal, when its own disk is full."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def _numbers(ids: list[int]) -> str:
    """Game numbers as a person reads them in a message: "5, 6 and 9"."""
    said = [str(i) for i in ids]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
