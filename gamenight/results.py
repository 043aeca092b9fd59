"""The results a table's journal holds: every game's score sheet, rebuilt by replaying
its entries as the table service does (firmware_py.game), the journal opened read-only.

A game is named by its journal number and its start time together (`3@2026-12-03T20:15:02
+01:00`): a journal moved aside and started afresh numbers its games from 1 again, and
the time tells them apart. Replays are kept per game until its entries change, so a
table publishing after every round replays only the game under way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_py.game import Game
from firmware_py.journal import Journal
from roundhouse.errors import RoundhouseError


@dataclass(frozen=True)
class Sheet:
    """One game's scores so far."""

    game: str
    players: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]  # one row per finished round
    ranking: tuple[int, ...] | None  # once the game is over, seats best first
    totals: tuple[int, ...]
    # Each player's card id (firmware_py.table.card_id), None for a seat's own name.
    cards: tuple[str | None, ...]


class Results:
    def __init__(self, database: Path) -> None:
        self.database = database
        self._cache: dict[tuple[int, str], tuple[int, str | None, Sheet | None]] = {}
        self.problems: list[str] = []

    def sheets(self) -> list[Sheet]:
        """Every game of the journal that has a round played or is over, oldest first. A
        game that cannot be replayed is left out and named in `problems` once, and so is an
        archive that cannot be read."""
        if not self.database.is_file():
            return []
        journal = Journal(self.database, read_only=True)
        try:
            found = []
            summaries = journal.games()
            # An archive that cannot be read leaves its games out: say so, or the league
            # would lose a table's history without a word.
            if journal.archive_problem:
                self._tell(f"the finished games archived beside {self.database} are left "
                           f"out: {journal.archive_problem}")
            for summary in summaries:
                key = (summary.id, summary.started)
                cached = self._cache.get(key)
                if cached is not None and cached[:2] == (summary.entries, summary.finished):
                    sheet = cached[2]
                else:
                    sheet = self._replay(journal, summary.id, summary.started)
                    self._cache[key] = (summary.entries, summary.finished, sheet)
                if sheet is not None and (sheet.scores or sheet.ranking is not None):
                    found.append(sheet)
            return found
        finally:
            journal.close()

    def _replay(self, journal: Journal, game_id: int, started: str) -> Sheet | None:
        name = f"{game_id}@{started}"
        try:
            meta = journal.meta(game_id)
            game = Game.from_meta(meta)
            state = game.replay(journal.entries(game_id))[-1].state
        except RoundhouseError as err:
            self._tell(f"game {name} of {self.database} cannot be replayed: {err}")
            return None
        return Sheet(
            game=name,
            players=game.names,
            cards=_cards(meta.get("card_ids"), len(game.names)),
            scores=tuple(tuple(row) for row in state.scores),
            ranking=tuple(state.ranking) if state.ranking is not None else None,
            totals=tuple(state.totals),
        )


    def _tell(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)


def _cards(value: object, players: int) -> tuple[str | None, ...]:
    """The meta's card ids; a game journaled before they were kept has none."""
    if isinstance(value, list) and len(value) == players and all(
            c is None or isinstance(c, str) for c in value):
        return tuple(value)
    return (None,) * players
