"""The league's database: every table's score sheets, and the standings drawn from them.

One row per (table, game), replaced whole by each newer sheet of that game: a round or a
game heard twice (a table republishing from its journal after a reconnect) changes
nothing, and an undone round is taken back when the table next sends the game. The
standings are computed from the sheets each time, never kept as running sums, so
nothing can be counted twice.

A player is their player card where they sat by one (the card's id, the same at every
table; the standings show the card's name), else the name the table gives the seat: two
cards of the same name are two players, and a card named like a seat is not that seat.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundhouse.errors import RoundhouseError

SCHEMA = """
CREATE TABLE IF NOT EXISTS sheets (
    table_name TEXT NOT NULL,
    game       TEXT NOT NULL,
    players    TEXT NOT NULL,
    scores     TEXT NOT NULL,
    ranking    TEXT,
    cards      TEXT,
    PRIMARY KEY (table_name, game)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (
    table_name TEXT PRIMARY KEY,
    online     INTEGER NOT NULL,
    state      TEXT
) WITHOUT ROWID;
"""


class StandingsError(RoundhouseError):
    """A message from a table that does not follow docs/game-night.md."""


@dataclass(frozen=True)
class Standing:
    player: str
    games: int
    wins: int
    rounds: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "games": self.games, "wins": self.wins,
                "rounds": self.rounds, "points": self.points}


def _names(value: object) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(n, str) for n in value):
        raise StandingsError("players: expected a list of names")
    return list(value)


def _cards(value: object, players: int) -> list[str | None]:
    """Each player's card id, or null for a seat's own name; a table that sends none
    (before cards were journaled) sat every player by seat name."""
    if value is None:
        return [None] * players
    if not isinstance(value, list) or len(value) != players or not all(
            c is None or (isinstance(c, str) and c) for c in value):
        raise StandingsError(f"cards: expected {players} card ids or nulls")
    return list(value)


def _rows(value: object, players: int) -> list[list[int]]:
    if not isinstance(value, list) or not all(
            isinstance(r, list) and len(r) == players
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in r)
            for r in value):
        raise StandingsError(f"scores: expected rows of {players} points")
    return [list(r) for r in value]


class Standings:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(sheets)")}
        if "cards" not in columns:  # a database of a league from before player cards
            self._db.execute("ALTER TABLE sheets ADD COLUMN cards TEXT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- what the tables send -----------------------------------------------------------

    def sheet(self, table: str, message: Any, *, final: bool) -> bool:
        """Keep a round's (or, `final`, a game's) sheet; True if it changed anything."""
        if not isinstance(message, dict):
            raise StandingsError("expected an object")
        game = message.get("game")
        if not isinstance(game, str) or not game:
            raise StandingsError("game: expected the game's name")
        players = _names(message.get("players"))
        cards = json.dumps(_cards(message.get("cards"), len(players)))
        scores = _rows(message.get("scores"), len(players))
        ranking: list[int] | None = None
        if final:
            given = message.get("ranking")
            seats = list(range(len(players)))
            if not isinstance(given, list) or not all(
                    isinstance(seat, int) and not isinstance(seat, bool) for seat in given
            ) or sorted(given) != seats:
                raise StandingsError("ranking: expected every seat once, best first")
            ranking = [int(seat) for seat in given]
        names, sheet = json.dumps(players), json.dumps(scores)
        with self._lock:
            row = self._db.execute(
                "SELECT players, scores, cards, ranking FROM sheets "
                "WHERE table_name = ? AND game = ?", (table, game)).fetchone()
            if row is not None and not final and row[:3] == (names, sheet, cards):
                return False  # the round again; a ranking already heard stays
            if row is not None and row == (
                    names, sheet, cards, json.dumps(ranking) if ranking is not None else None):
                return False
            self._db.execute(
                "INSERT OR REPLACE INTO sheets "
                "(table_name, game, players, scores, ranking, cards) VALUES (?, ?, ?, ?, ?, ?)",
                (table, game, names, sheet,
                 json.dumps(ranking) if ranking is not None else None, cards))
        return True

    def status(self, table: str, online: bool, state: dict[str, Any] | None = None) -> None:
        with self._lock:
            if state is None:
                self._db.execute(
                    "INSERT INTO tables (table_name, online) VALUES (?, ?) "
                    "ON CONFLICT (table_name) DO UPDATE SET online = excluded.online",
                    (table, int(online)))
            else:
                self._db.execute(
                    "INSERT INTO tables (table_name, online, state) VALUES (?, ?, ?) "
                    "ON CONFLICT (table_name) DO UPDATE SET state = excluded.state",
                    (table, int(online), json.dumps(state)))

    def all_offline(self) -> None:
        """Forget who is online: the broker's retained statuses say it again."""
        with self._lock:
            self._db.execute("UPDATE tables SET online = 0")

    # --- what the room sees -------------------------------------------------------------

    def tables_online(self) -> int:
        with self._lock:
            return int(self._db.execute(
                "SELECT COUNT(*) FROM tables WHERE online").fetchone()[0])

    def standings(self) -> list[Standing]:
        """Most wins first, then the fewest points a round, then by name."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game, players, scores, ranking, cards FROM sheets").fetchall()
        # A player: ("card", id) or ("seat", name) -> [games, wins, rounds, points]; a
        # card goes by the name of its latest game (the game's name ends in its start).
        tally: dict[tuple[str, str], list[int]] = {}
        shown: dict[tuple[str, str], str] = {}
        rows.sort(key=lambda row: str(row[0]).partition("@")[2])
        for _game, names_text, scores_text, ranking_text, cards_text in rows:
            names: Sequence[str] = json.loads(names_text)
            scores: Sequence[Sequence[int]] = json.loads(scores_text)
            ranking = json.loads(ranking_text) if ranking_text else None
            cards: Sequence[str | None] = (
                json.loads(cards_text) if cards_text else [None] * len(names))
            for seat, name in enumerate(names):
                card = cards[seat]
                who = ("card", card) if card else ("seat", name)
                shown[who] = name
                line = tally.setdefault(who, [0, 0, 0, 0])
                line[2] += len(scores)
                line[3] += sum(row[seat] for row in scores)
                if ranking is not None:
                    line[0] += 1
                    line[1] += int(ranking[0] == seat)
        ordered = sorted(tally.items(), key=lambda kv: (
            -kv[1][1], kv[1][3] / kv[1][2] if kv[1][2] else 0.0, shown[kv[0]], kv[0]))
        return [Standing(shown[who], *line) for who, line in ordered]
