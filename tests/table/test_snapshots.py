"""A restart takes the game up from the snapshot written at the last round's end and
the entries after it, and the table is exactly the one a replay of every entry gives:
the same view, engine state, next legal moves and the same journal from there on, at
every entry of real games (undos back across a round's end among them). A snapshot in
any doubt is not used: every entry is replayed, as before snapshots were kept."""

from __future__ import annotations

import functools
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import Rig, lookup, make_config
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_games import driver

from firmware_py.bots import make_bot
from firmware_py.entries import (
    Undo,
    entry_from_json,
)
from firmware_py.game import Game, Moment, replay_journaled
from firmware_py.intents import TakeBack
from firmware_py.journal import Journal, Snapshot
from firmware_py.rules import legal_actions, state_to_stored
from firmware_py.snapshots import ends_round, resume_from
from firmware_py.stages import Stage
from firmware_py.table import Table

OLD = Path(__file__).resolve().parents[1] / "service" / "old_journals"

# (rules, hand mode, seats): every way a round is set up and ended.
CASES = [
    ({"preset": "classic", "set": 6, "rounds": 2}, "open", 3),  # holder or hunt
    ({"preset": "tournament", "rounds": 2}, "open", 4),  # engine set aside, lead chosen
    ({"preset": "hub", "rounds": 2}, "tracked", 4),
    ({"preset": "classic", "rounds": 2}, "tracked", 5),
    ({"preset": "simple", "rounds": 2}, "open", 6),
    ({"preset": "family", "rounds": 2}, "tracked", 2),
]


@functools.cache
def played(case: int, folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One whole game of `CASES[case]` as a table journaled it: bots at every seat,
    acting only through buttons and pads."""
    rules, hand_mode, seats = CASES[case]
    where = folder / f"played-{case}"
    where.mkdir(parents=True, exist_ok=True)
    rig = Rig(make_config(where, rules=rules, hand_mode=hand_mode, seats=seats))
    rig.readers_online()
    assert len(driver(rig, [make_bot("random")] * 8, case).play(1)) == 1
    game_id = rig.journal.games()[-1].id
    meta, entries = rig.journal.meta(game_id), rig.journal.entries(game_id)
    rig.journal.close()
    return meta, entries


@pytest.fixture(scope="module")
def games_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("games")


def round_ends(meta: dict[str, Any], entries: list[dict[str, Any]]) -> list[int]:
    """The numbers of the entries that end a round."""
    game = Game.from_meta(meta)
    history = [game.opening()]
    ends = []
    for number, obj in enumerate(entries, 1):
        entry = entry_from_json(obj)
        if isinstance(entry, Undo):
            history.pop()
            continue
        history.append(game.advance(history[-1], entry))
        if ends_round(history[-2], history[-1]):
            ends.append(number)
    return ends


def with_undos(entries: list[dict[str, Any]], undos: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """The entries with, after entry `at`, `depth` undos and the undone entries again."""
    out = list(entries)
    for at, depth in sorted(undos, reverse=True):
        depth = min(depth, at)
        out[at:at] = [{"t": "undo"}] * depth + entries[at - depth:at]
    return out


def enter(table: Table, obj: dict[str, Any]) -> None:
    """One journal entry taken by the table, as its input reaches the game's flow."""
    entry = entry_from_json(obj)
    if isinstance(entry, Undo):
        table._take_back(TakeBack(entry))
    else:
        table._commit(entry)


def seen(table: Table) -> dict[str, Any]:
    """All a table shows and holds of its game, and what it takes next (its actions
    before the last are compared at the end: asking for them here would replay the
    moments a snapshot stands for)."""
    m = table.moment
    assert m is not None and table.game is not None
    history = table.history
    return {
        "view": table.view().to_json(),
        "stage": m.stage,
        "moments": len(history),
        "state": state_to_stored(m.state),
        "before": state_to_stored(history[-2].state) if len(history) > 1 else None,
        "moment": (m.starter, m.dealt, m.hunted, m.hunter, m.drawing, m.shown, m.engines,
                   m.actor, m.last_play, m.last_action),
        "legal": list(legal_actions(m.state)) if m.stage is Stage.PLAY else None,
        "meta": table.game.meta(),
    }


def same_moments(a: list[Moment] | Any, b: list[Moment] | Any) -> None:
    assert len(a) == len(b)
    for k in (-1, -2):
        if len(a) >= -k:
            x, y = a[k], b[k]
            assert state_to_stored(x.state) == state_to_stored(y.state)
            assert (x.stage, x.starter, x.dealt, x.hunted, x.hunter, x.drawing, x.shown,
                    x.engines, x.actor, x.last_play, x.last_action) == (
                y.stage, y.starter, y.dealt, y.hunted, y.hunter, y.drawing, y.shown,
                y.engines, y.actor, y.last_play, y.last_action)
            if x.stage is Stage.PLAY:
                assert list(legal_actions(x.state)) == list(legal_actions(y.state))
    assert a[-1].actions() == b[-1].actions()


class Live:
    """A table taking a game's entries one by one on a real journal."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.journal = Journal(config.database)
        self.table = Table(config, self.journal, lookup)

    @classmethod
    def new(cls, folder: Path, case: int, meta: dict[str, Any]) -> tuple[Live, int]:
        rules, hand_mode, seats = CASES[case]
        live = cls(make_config(folder, rules=rules, hand_mode=hand_mode, seats=seats))
        # The game as the lobby starts it, with the seats and names it was played by.
        game = Game.from_meta(meta)
        game_id = live.journal.begin_game(meta)
        live.table._game, live.table._game_id = game, game_id
        live.table._history.append(game.opening())
        return live, game_id

    def restart(self) -> tuple[Live, Live]:
        """The table started again on its journal, and beside it one started on a copy
        of the journal without its snapshot, which replays every entry."""
        self.journal.close()
        folder = self.config.database.parent
        copy = folder.parent / (folder.name + f"-replayed-{random.random()}")
        copy.mkdir()
        shutil.copy(self.config.database, copy / "table.db")
        db = sqlite3.connect(copy / "table.db")
        with db:
            db.execute("DELETE FROM snapshots")
        db.close()
        resumed = Live(self.config)
        replayed = Live(make_config(copy, rules=self.config.rules,
                                    hand_mode=self.config.hand_mode,
                                    seats=len(self.config.seats)))
        return resumed, replayed


@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(range(len(CASES))),
       undos=st.lists(st.tuples(st.integers(0, 1), st.integers(-1, 2), st.integers(1, 4)),
                      max_size=3),
       restarts=st.lists(st.integers(0, 10_000), min_size=1, max_size=3))
def test_resuming_from_a_snapshot_is_replaying_every_entry(
        games_folder, tmp_path_factory, case, undos, restarts):
    meta, played_entries = played(case, games_folder)
    ends = round_ends(meta, played_entries)
    assert len(ends) == 2  # two rounds: a snapshot at the end of each
    # Undos about a round's end, many back across it, each move undone entered again.
    entries = with_undos(played_entries, [(ends[which] + offset, depth)
                                          for which, offset, depth in undos])
    live, game_id = Live.new(tmp_path_factory.mktemp("live"), case, meta)
    # Restarts where hypothesis says, and about each round's end and each undo.
    stops = {k % (len(entries) + 1) for k in restarts}
    stops |= {k + d for k in round_ends(meta, entries) for d in (0, 1)}
    stops |= {k for k, obj in enumerate(entries, 1) if obj["t"] == "undo"}
    found: list[Snapshot | None] = []  # what a start finds after each entry
    shadows: list[tuple[Live, int]] = []  # started from every entry, fed alongside
    for number, obj in enumerate(entries, 1):
        enter(live.table, obj)
        for shadow, _ in shadows:
            enter(shadow.table, obj)
            assert seen(shadow.table) == seen(live.table)
        for shadow, since in [s for s in shadows if number - s[1] >= 3]:
            # The same journal from the restart on, the snapshots written included.
            assert shadow.journal.entries(game_id) == live.journal.entries(game_id)
            assert _kept(shadow.journal, game_id) in (None, _kept(live.journal, game_id))
            shadow.journal.close()
            shadows.remove((shadow, since))
        found.append(live.journal.snapshot(game_id))
        if number in stops and number < len(entries):
            live, replayed = live.restart()
            assert seen(live.table) == seen(replayed.table)
            shadows.append((replayed, number))
    for shadow, _ in shadows:
        shadow.journal.close()
    assert live.journal.entries(game_id) == entries
    # The whole game's actions, from the table taken up last and from every entry.
    full = replay_journaled(meta, entries)
    assert live.table.moment is not None
    assert live.table.moment.actions() == full.history[-1].actions()
    live.journal.close()
    # At every entry, from the snapshot kept then: the same moments as every entry.
    game = Game.from_meta(meta)
    history = [game.opening()]  # every entry replayed, one at a time
    lengths = [1]
    first_end = round_ends(meta, entries)[0]
    replayed_to: dict[int, list[Moment]] = {}
    for number, (obj, snapshot) in enumerate(zip(entries, found, strict=True), 1):
        entry = entry_from_json(obj)
        if isinstance(entry, Undo):
            history.pop()
        else:
            history.append(game.advance(history[-1], entry))
        lengths.append(len(history))
        if snapshot is None:
            assert number < first_end
            continue
        assert snapshot.seq <= number
        seq = snapshot.seq

        def before(game: Game, seq: int = seq) -> list[Moment]:
            if seq not in replayed_to:
                replayed_to[seq] = game.replay(entries[:seq])
            return replayed_to[seq]

        resumed = resume_from(meta, snapshot, entries[seq:number], before)
        if resumed is None:
            # Only a snapshot that an undo reached back past is not resumed from.
            assert min(lengths[seq:number + 1]) < lengths[seq]
            continue
        same_moments(resumed.history, history)


def _kept(journal: Journal, game_id: int) -> tuple[int, str] | None:
    snapshot = journal.snapshot(game_id)
    return None if snapshot is None else (snapshot.seq, snapshot.text)
