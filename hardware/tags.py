"""The tag registry: which RFID UID is which tile, train marker or command card.

Bindings live in the service's SQLite file, in tables of their own (`tag_*`), through
a connection of their own in WAL mode. A tile or a marker is one physical object, so
it has one tag; command cards may be printed several times (an undo card per seat).
Binding is never silent about a conflict: a UID already bound to something else, or a
tile or marker already bound to another UID, raises `TagConflict` naming both. An
unknown UID is not an error: `lookup` returns None and the table says so.
"""

from __future__ import annotations

import contextlib
import io
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from hardware import HardwareError
from hardware.events import is_random_uid
from hardware.rfid.protocol import normalise_uid
from roundhouse.render import languages
from roundhouse.tablefile import (
    APPLICATION_ID,
    REFUSED_SUFFIX,
    SHARED_TABLE_PREFIX,
    beside,
    cut_database,
)
from roundhouse.value import Value

KINDS = ("tile", "marker", "card", "player")
CARDS = ("undo", "new_game", "next_preset", "admin", "language")
MEXICAN = "mexican"
MAX_PIPS = 18  # the largest set: double-18
MAX_SEATS = 16
CSV_FIELDS = ("uid", "kind", "value")
SCHEMA = """
CREATE TABLE IF NOT EXISTS tag_bindings (
    uid      TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    value    TEXT NOT NULL,
    bound_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE UNIQUE INDEX IF NOT EXISTS tag_bindings_one_tag_per_object
    ON tag_bindings(kind, value) WHERE kind != 'card';
"""
_TILE = re.compile(r"(\d{1,2})-(\d{1,2})")


class TagError(HardwareError):
    """The tag registry cannot do what was asked."""


class TagConflict(TagError):
    """A binding that would contradict one already made."""


class BadBinding(TagError):
    """A UID, kind or value that cannot be bound."""


class TagFileError(TagError):
    """A tag CSV file that cannot be read; the message names the line."""


class Binding(Value):
    """What a tag stands for: a tile, a train marker, a command card or a player."""

    __match_args__ = ("kind", "value")
    __slots__ = __match_args__
    kind: str  # "tile", "marker", "card" or "player"
    # "12-5" (high first); a seat number or "mexican"; a card name; a player card's
    # "LANG:NAME" (LANG empty for a player who reads the seat's language)
    value: str

    def __init__(self, kind: str, value: str) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "value", value)

    def __str__(self) -> str:
        if self.kind == "marker":
            return "the Mexican train marker" if self.value == MEXICAN else (
                f"seat {self.value}'s marker")
        if self.kind == "card":
            return f"the {self.value.replace('_', ' ')} card"
        if self.kind == "player":
            return f"{player_of(self.value)[0]}'s player card"
        return self.value

    @classmethod
    def make(cls, kind: str, value: str) -> Binding:
        """A checked binding, its value normalised ("5-12" -> "12-5")."""
        value = value.strip()
        if kind == "tile":
            match = _TILE.fullmatch(value)
            if match is None or max(map(int, match.groups())) > MAX_PIPS:
                raise BadBinding(f"{value!r} is not a tile: expected A-B with 0 <= A, B <= "
                                 f"{MAX_PIPS}, like 12-5")
            high, low = sorted(map(int, match.groups()), reverse=True)
            return cls("tile", f"{high}-{low}")
        if kind == "marker":
            if value == MEXICAN or (value.isdigit() and int(value) < MAX_SEATS):
                return cls("marker", MEXICAN if value == MEXICAN else str(int(value)))
            raise BadBinding(f"{value!r} is not a marker: expected a seat number 0.."
                             f"{MAX_SEATS - 1} or {MEXICAN!r}")
        if kind == "card":
            if value in CARDS:
                return cls("card", value)
            raise BadBinding(f"{value!r} is not a card: expected one of {', '.join(CARDS)}")
        if kind == "player":
            name, lang = player_of(value)
            return cls("player", player_value(name, lang))
        raise BadBinding(f"{kind!r} is not a kind of tag: expected one of {', '.join(KINDS)}")


def player_value(name: str, lang: str | None) -> str:
    """A player card's value: its name and the language its player reads."""
    name = name.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise BadBinding(f"{name!r} is not a player's name: 1 to 40 printable characters")
    if lang is not None and lang not in languages():
        raise BadBinding(f"{lang!r} is not a language of the table: expected one of "
                         f"{', '.join(languages())}")
    return f"{lang or ''}:{name}"


def player_of(value: str) -> tuple[str, str | None]:
    """A player card's name and language (None: the seat's own)."""
    lang, colon, name = value.partition(":")
    if not colon:
        raise BadBinding(f"{value!r} is not a player card: expected LANG:NAME")
    return name, lang or None


def checked_uid(uid: str) -> str:
    normal = normalise_uid(uid)
    if normal is None:
        raise BadBinding(f"{uid!r} is not a tag UID: expected 2 to 10 bytes of hex")
    if is_random_uid(normal):
        raise BadBinding(f"{uid} is a random UID, drawn anew at every read (a phone, a "
                         "passport, a bank card): it cannot be bound; use a tag of the set")
    return normal


def set_plan(set_size: int, seats: int) -> list[Binding]:
    """Everything of a double-`set_size` table, in enrollment order: tiles from the
    double down ("12-12", "12-11", ... "0-0"), every seat's marker, the Mexican marker,
    the cards."""
    tiles = [Binding("tile", f"{a}-{b}") for a in range(set_size, -1, -1)
             for b in range(a, -1, -1)]
    markers = [Binding("marker", str(seat)) for seat in range(seats)]
    return tiles + markers + [Binding("marker", MEXICAN)] + [Binding("card", c) for c in CARDS]


def _foreign(db: sqlite3.Connection) -> str | None:
    """What says a SQLite file belongs to something else, or None for the table's own
    database (or a new, empty one)."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        return f"application id {app_id:#x}"
    if app_id == 0:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master "
                                           "WHERE type = 'table'")]
        others = sorted(t for t in tables if not t.startswith(SHARED_TABLE_PREFIX))
        if others:
            return "it holds the tables " + ", ".join(others[:5])
    return None


class TagRegistry:
    def __init__(self, db_path: Path | str) -> None:
        self.path = Path(db_path)
        self._lock = threading.Lock()
        self._db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        # The journal's file: what the table refuses to open, the registry leaves alone
        # (opening it would reset a cut file and drop its write-ahead log).
        damage = cut_database(self.path)
        if damage is None and beside(self.path, REFUSED_SUFFIX).exists():
            damage = "the table refused it as damaged"
        if damage is not None:
            raise TagError(f"{self.path}: {damage}; the tag registry lives in the "
                           "journal's file, so it is left as it is: `roundhouse run "
                           "--move-aside` moves it aside")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None,
                                 check_same_thread=False, timeout=10)
            foreign = _foreign(db)
            if foreign:
                db.close()
                raise TagError(f"{self.path}: not the table's database ({foreign}): the tag "
                               "registry is kept only in the journal's file (--db)")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as err:
            raise TagError(f"{self.path}: cannot open the tag registry: {err}") from None
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def closed(self) -> Iterator[None]:
        """The connection closed for the block's length, a fresh one after it. SQLite
        shares one index of the write-ahead log between the connections of a process:
        one opened on a read-only disk keeps them all read-only until every one closed."""
        with self._lock:
            self._db.close()
            try:
                yield
            finally:
                self._db = self._connect()

    def __enter__(self) -> TagRegistry:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def lookup(self, uid: str) -> Binding | None:
        normal = normalise_uid(uid)
        if normal is None:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT kind, value FROM tag_bindings WHERE uid = ?", (normal,)).fetchone()
            if row is None and len(normal) in (6, 8, 10):
                row = self._same_em4100_card(normal)
        return None if row is None else Binding(*row)

    def _same_em4100_card(self, uid: str) -> tuple[str, str] | None:
        """The one binding of the EM4100 card `uid` reads under another reader's size:
        the full five bytes an RDM6300 sends, the four of its number a keyboard reader
        types, the three (its low 24 bits) of a Wiegand 26 reading (lock held)."""
        rows = self._db.execute(
            "SELECT kind, value FROM tag_bindings WHERE uid != ? AND length(uid) IN "
            "(6, 8, 10) AND (substr(uid, -length(?)) = ? OR substr(?, -length(uid)) = uid)",
            (uid, uid, uid, uid)).fetchall()
        return rows[0] if len(rows) == 1 else None

    def uid_of(self, binding: Binding) -> str | None:
        """The tag bound to a tile or marker (the first one, for a card)."""
        with self._lock:
            row = self._db.execute(
                "SELECT uid FROM tag_bindings WHERE kind = ? AND value = ? ORDER BY uid",
                (binding.kind, binding.value)).fetchone()
        return None if row is None else str(row[0])

    def bind(self, uid: str, kind: str, value: str) -> Binding:
        """Bind `uid`; binding it again to the same thing changes nothing."""
        binding = Binding.make(kind, value)
        normal = checked_uid(uid)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._insert(normal, binding)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return binding

    def unbind(self, uid: str) -> Binding | None:
        """Forget a tag; returns what it was bound to."""
        normal = normalise_uid(uid)
        if normal is None:
            return None
        with self._lock:
            row = self._db.execute("DELETE FROM tag_bindings WHERE uid = ? RETURNING kind, value",
                                   (normal,)).fetchone()
        return None if row is None else Binding(*row)

    def all(self) -> dict[str, Binding]:
        """Every binding by UID, in enrollment order (tiles high first, markers, cards)."""
        with self._lock:
            rows = self._db.execute("SELECT uid, kind, value FROM tag_bindings").fetchall()
        return dict(sorted(((uid, Binding(kind, value)) for uid, kind, value in rows),
                           key=lambda item: (_order(item[1]), item[0])))

    def export_csv(self, path: Path | str) -> int:
        """Write every binding (`uid,kind,value`); returns how many."""
        import csv

        bindings = self.all()
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        writer.writerows((uid, b.kind, b.value) for uid, b in bindings.items())
        try:
            Path(path).write_text(out.getvalue(), encoding="utf-8")
        except OSError as err:
            raise TagFileError(f"{path}: cannot write: {err}") from None
        return len(bindings)

    def import_csv(self, path: Path | str) -> int:
        """Add the bindings of a CSV file, all or none; returns how many were new."""
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            raise TagFileError(f"{path}: cannot read: {err}") from None
        rows = list(_rows(str(path), text.splitlines()))
        with self._lock:
            before = self._count()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for line, uid, binding in rows:
                    try:
                        self._insert(uid, binding)
                    except TagConflict as err:
                        raise TagConflict(f"{path} line {line}: {err}") from None
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return self._count() - before

    def _count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM tag_bindings").fetchone()[0])

    def _insert(self, uid: str, binding: Binding) -> None:
        row = self._db.execute(
            "SELECT kind, value FROM tag_bindings WHERE uid = ?", (uid,)).fetchone()
        if row is not None:
            if Binding(*row) == binding:
                return
            raise TagConflict(f"tag {uid} is already {Binding(*row)}; unbind it first to "
                              f"make it {binding}")
        if binding.kind != "card":
            other = self._db.execute(
                "SELECT uid FROM tag_bindings WHERE kind = ? AND value = ?",
                (binding.kind, binding.value)).fetchone()
            if other is not None:
                raise TagConflict(f"{binding} already has the tag {other[0]}; unbind that "
                                  f"tag first to give it {uid}")
        self._db.execute("INSERT INTO tag_bindings (uid, kind, value) VALUES (?, ?, ?)",
                         (uid, binding.kind, binding.value))


def _order(binding: Binding) -> tuple[int, int, int]:
    if binding.kind == "tile":
        high, low = map(int, binding.value.split("-"))
        return (0, -high, -low)
    if binding.kind == "marker":
        return (1, MAX_SEATS if binding.value == MEXICAN else int(binding.value), 0)
    return (2, CARDS.index(binding.value), 0)


def _rows(name: str, lines: Sequence[str]) -> Iterable[tuple[int, str, Binding]]:
    import csv

    reader = csv.reader(lines)
    header = next(reader, None)
    if header is None or [h.strip().lower() for h in header] != list(CSV_FIELDS):
        raise TagFileError(f"{name} line 1: expected the header {','.join(CSV_FIELDS)}")
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(CSV_FIELDS):
            raise TagFileError(f"{name} line {line}: expected 3 fields (uid,kind,value), "
                               f"got {len(row)}")
        try:
            yield line, checked_uid(row[0]), Binding.make(row[1].strip(), row[2])
        except BadBinding as err:
            raise TagFileError(f"{name} line {line}: {err}") from None


class Enrolled(Value):
    """A tag bound by enrolment."""

    __match_args__ = ("uid", "binding")
    __slots__ = __match_args__
    uid: str
    binding: Binding

    def __init__(self, uid: str, binding: Binding) -> None:
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "binding", binding)


class AlreadyKnown(Value):
    """The tag offered is already bound (a tile tapped twice, a tag from another set)."""

    __match_args__ = ("uid", "binding")
    __slots__ = __match_args__
    uid: str
    binding: Binding

    def __init__(self, uid: str, binding: Binding) -> None:
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "binding", binding)


class Enrollment:
    """Guided binding: name what comes next, and the next unknown tag offered is bound to it.

    The progress is the registry itself, so an interrupted enrollment resumes with the
    first object of the plan that has no tag yet.
    """

    def __init__(self, registry: TagRegistry, plan: Sequence[Binding]) -> None:
        self.registry = registry
        self.plan = list(plan)

    def remaining(self) -> list[Binding]:
        return [b for b in self.plan if self.registry.uid_of(b) is None]

    @property
    def expected(self) -> Binding | None:
        remaining = self.remaining()
        return remaining[0] if remaining else None

    def offer(self, uid: str) -> Enrolled | AlreadyKnown | None:
        """A tag was tapped: bind it to what is expected. None when nothing is left."""
        expected = self.expected
        known = self.registry.lookup(uid)
        if known is not None:
            return AlreadyKnown(checked_uid(uid), known)
        if expected is None:
            return None
        self.registry.bind(uid, expected.kind, expected.value)
        return Enrolled(checked_uid(uid), expected)
