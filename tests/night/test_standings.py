"""The league's standings from the tables' score sheets: each game once however often a
table sends it, an undone round taken back, anything malformed refused by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.standings import Standings, StandingsError


def _sheet(game: str, scores: list[list[int]], players: list[str] | None = None,
           ranking: list[int] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"table": "t1", "game": game,
                               "players": players or ["Ana", "Bo"], "scores": scores}
    if ranking is not None:
        message["ranking"] = ranking
    return message


def _table(store: Standings) -> dict[str, tuple[int, int, int, int]]:
    return {s.player: (s.games, s.wins, s.rounds, s.points) for s in store.standings()}


def test_a_game_heard_again_and_again_counts_once(tmp_path: Path) -> None:
    store = Standings(tmp_path / "league.db")
    assert store.sheet("t1", _sheet("1@a", [[10, 0]]), final=False)
    assert store.sheet("t1", _sheet("1@a", [[10, 0], [0, 5]]), final=False)
    assert store.sheet("t1", _sheet("1@a", [[10, 0], [0, 5]], ranking=[1, 0]), final=True)
    # The table reconnects and sends its journal again: nothing changes.
    assert not store.sheet("t1", _sheet("1@a", [[10, 0], [0, 5]]), final=False)
    assert not store.sheet("t1", _sheet("1@a", [[10, 0], [0, 5]], ranking=[1, 0]), final=True)
    assert _table(store) == {"Bo": (1, 1, 2, 5), "Ana": (1, 0, 2, 10)}
    # The same names at another table are the same players.
    store.sheet("t2", _sheet("1@a", [[3, 4]], players=["Bo", "Cy"]), final=False)
    assert _table(store)["Bo"] == (1, 1, 3, 8)
    # Most wins first, then the fewest points a round.
    assert [s.player for s in store.standings()] == ["Bo", "Cy", "Ana"]


def test_a_player_card_is_one_player_whatever_its_name(tmp_path: Path) -> None:
    store = Standings(tmp_path / "league.db")
    # Two cards both named Zoë, and a card named like a seat of another table.
    store.sheet("t1", _sheet("1@a", [[10, 0]], players=["Zoë", "Zoë"]) | {
        "cards": ["card-1", "card-2"]}, final=False)
    store.sheet("t2", _sheet("1@b", [[3, 4]], players=["Ana", "Bo"]) | {
        "cards": ["card-3", None]}, final=False)
    store.sheet("t3", _sheet("1@c", [[5, 6]], players=["Ana", "Zoë"]) | {
        "cards": [None, "card-1"]}, final=False)
    rows = sorted((s.player, s.rounds, s.points) for s in store.standings())
    assert rows == [("Ana", 1, 3), ("Ana", 1, 5), ("Bo", 1, 4), ("Zoë", 1, 0), ("Zoë", 2, 16)]
    # A card goes by the name of its latest game.
    store.sheet("t1", _sheet("2@d", [[1, 1]], players=["Zoe", "Bo"]) | {
        "cards": ["card-1", None]}, final=False)
    assert ("Zoe", 3, 17) in {(s.player, s.rounds, s.points) for s in store.standings()}


def test_a_database_from_before_player_cards_is_read_on(tmp_path: Path) -> None:
    import sqlite3
    old = sqlite3.connect(tmp_path / "league.db")
    old.executescript(
        "CREATE TABLE sheets (table_name TEXT NOT NULL, game TEXT NOT NULL, players TEXT "
        "NOT NULL, scores TEXT NOT NULL, ranking TEXT, PRIMARY KEY (table_name, game)) "
        "WITHOUT ROWID;"
        "INSERT INTO sheets VALUES ('t1', '1@a', '[\"Ana\", \"Bo\"]', '[[1, 2]]', NULL);")
    old.close()
    store = Standings(tmp_path / "league.db")
    assert _table(store) == {"Ana": (0, 0, 1, 1), "Bo": (0, 0, 1, 2)}
    store.sheet("t1", _sheet("1@b", [[1, 2]]) | {"cards": ["card-1", None]}, final=False)
    assert ("Ana", 1, 1) in {(s.player, s.rounds, s.points) for s in store.standings()}


def test_an_undone_round_is_taken_back(tmp_path: Path) -> None:
    store = Standings(tmp_path / "league.db")
    store.sheet("t1", _sheet("1@a", [[10, 0], [0, 5]], ranking=[1, 0]), final=True)
    # The last move undone at the table: the game is open again with one round.
    store.sheet("t1", _sheet("1@a", [[10, 0]]), final=False)
    assert _table(store) == {"Bo": (0, 0, 1, 0), "Ana": (0, 0, 1, 10)}


@settings(max_examples=60, deadline=None)
@given(message=st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["game", "players", "scores", "ranking", "x"]), inner,
                      max_size=4),
    max_leaves=12), final=st.booleans())
def test_a_malformed_message_is_refused_by_name(tmp_path_factory: pytest.TempPathFactory,
                                               message: Any, final: bool) -> None:
    store = Standings(tmp_path_factory.mktemp("league") / "league.db")
    try:
        store.sheet("t1", message, final=final)
    except StandingsError as err:
        assert str(err)
    store.close()
