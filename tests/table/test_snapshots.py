"""A restart takes the game up from the snapshot written at the last round's end and
the entries after it, and the table is exactly the one a replay of every entry gives:
the same view, engine state, next legal moves and the same journal from there on, at
every entry of real games (undos back across a round's end among them). A snapshot in
any doubt is not used: every entry is replayed, as before snapshots were kept."""

from __future__ import annotations

import functools
import json
import logging
import random
import shutil
import sqlite3
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

import pytest
from conftest import Rig, lookup, make_config
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_games import driver

from firmware_py.bots import make_bot
from firmware_py.entries import (
    Act,
    Dealt,
    Drawing,
    Holder,
    Hunt,
    Lead,
    Next,
    Shown,
    Step,
    Undo,
    entry_from_json,
)
from firmware_py.game import Game, Moment, Refused, replay_journaled
from firmware_py.intents import TakeBack
from firmware_py.journal import Journal, Snapshot, snapshot_digest
from firmware_py.rules import Draw, Reveal, RulesError, legal_actions, state_to_stored
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
        at = min(at, len(entries))
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


# ---- a game taken up from an older journal, and snapshots in doubt --------------------


def next_entry(game: Game, m: Moment, rng: random.Random) -> Step:
    """A move any player could make now (the engine's legal moves, the tiles left)."""
    state = m.state
    if m.stage is Stage.LEAD:
        return Lead(rng.randrange(game.players))
    if m.stage is Stage.DEAL:
        left = [t for t in game.set_tiles() if all(t not in h for h in m.dealt)
                and t is not game.next_engine(state)]
        seat = next(s for s, h in enumerate(m.dealt) if len(h) < game.hand_size)
        return Dealt(seat, rng.choice(left))
    if m.stage is Stage.HUNT:
        assert m.hunter is not None
        return Holder(m.hunter) if rng.random() < 0.5 else Hunt(m.hunter)
    if m.stage is Stage.SUMMARY:
        return Next()
    if m.stage is Stage.REVEAL:
        seat = state.awaiting_reveal[0]
        free = [t for t in game.set_tiles() if not state._table >> t.index & 1]
        if m.shown_by(seat):
            return Shown(seat, m.shown_by(seat)[0])  # taken back: the PASS reveals
        return Act(Reveal(seat, tuple(rng.sample(free, state.hand_counts[seat]))))
    if m.drawing is not None:
        bone = state._boneyard
        assert bone
        return Act(Draw(m.drawing, rng.choice(bone)))
    action = rng.choice(list(legal_actions(state)))
    if game.tracked and isinstance(action, Draw):
        return Drawing(action.seat)
    return Act(action)


def play_to_round_end(table: Table, rng: random.Random) -> None:
    """Moves until one ends a round (reveals refused by the rules are tried again)."""
    assert table.game is not None
    for _ in range(5000):
        m = table.moment
        assert m is not None
        try:
            entry = next_entry(table.game, m, rng)
            table._commit(entry)
        except (Refused, RulesError):
            continue
        after = table.moment
        assert after is not None
        if ends_round(m, after):
            return
    raise AssertionError("no round ended")


def copy_without_snapshots(database: Path, folder: Path) -> Path:
    folder.mkdir()
    shutil.copy(database, folder / "table.db")
    db = sqlite3.connect(folder / "table.db")
    with db:
        db.execute("DELETE FROM snapshots")
    db.close()
    return folder


@pytest.mark.parametrize("fixture", sorted(OLD.glob("*.sqlite")), ids=lambda p: p.stem)
def test_a_journal_of_an_earlier_version_resumes_and_then_keeps_snapshots(tmp_path, fixture):
    shutil.copy(fixture, tmp_path / "table.db")
    config = make_config(tmp_path, seats=8)
    rig = Rig(config)
    raw = sqlite3.connect(tmp_path / "table.db")
    # Taken up in place: the journal is now of this version, and its games are all there.
    assert raw.execute("PRAGMA user_version").fetchone()[0] >= 3
    assert raw.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 0
    raw.close()
    game_id = rig.table._game_id
    assert game_id is not None and rig.journal.snapshot(game_id) is None
    play_to_round_end(rig.table, random.Random(fixture.stem))
    assert rig.journal.snapshot(game_id) is not None
    rig.journal.close()
    replayed = Rig(make_config(copy_without_snapshots(config.database, tmp_path / "copy"),
                               seats=8))
    resumed = Rig(config)
    assert seen(resumed.table) == seen(replayed.table)
    assert resumed.table.moment.actions() == replayed.table.moment.actions()
    replayed.journal.close()
    resumed.journal.close()


def round_played(tmp_path: Path, case: int, games_folder: Path, extra: int = 3) -> tuple[
        Live, int, list[dict[str, Any]]]:
    """The table of `CASES[case]` a few entries past its first round's end."""
    meta, entries = played(case, games_folder)
    live, game_id = Live.new(tmp_path / "live", case, meta)
    end = round_ends(meta, entries)[0]
    for obj in entries[:end + extra]:
        enter(live.table, obj)
    return live, game_id, entries


def test_an_undo_after_a_restart_takes_back_the_move_that_ended_the_round(
        tmp_path, games_folder):
    live, game_id, _ = round_played(tmp_path, 0, games_folder, extra=0)
    live.journal.close()
    copy = copy_without_snapshots(live.config.database, tmp_path / "copy")
    resumed = Rig(live.config)
    replayed = Rig(dataclass_replace(live.config, database=copy / "table.db",
                                     socket=copy / "view.sock"))
    assert resumed.view["stage"] in ("reveal", "summary")
    for rig in (resumed, replayed):
        rig.readers_online()
        rig.card("undo")  # the undo card: the round's last move is taken back
    assert resumed.view == replayed.view
    assert resumed.view["stage"] == "play"
    assert seen(resumed.table) == seen(replayed.table)
    assert resumed.journal.entries(game_id) == replayed.journal.entries(game_id)
    assert resumed.journal.entries(game_id)[-1] == {"t": "undo"}
    # Restarted again there: the snapshot is stale, every entry is replayed.
    again = resumed.restart()
    again.readers_online()
    assert seen(again.table) == seen(replayed.table)
    again.journal.close()
    replayed.journal.close()


def test_the_snapshot_is_written_in_the_same_commit_as_the_move(tmp_path, games_folder):
    meta, entries = played(1, games_folder)
    live, game_id = Live.new(tmp_path / "live", 1, meta)
    end = round_ends(meta, entries)[0]
    for obj in entries[:end - 1]:
        enter(live.table, obj)
    said: list[str] = []
    live.journal._db.set_trace_callback(said.append)
    enter(live.table, entries[end - 1])
    live.journal._db.set_trace_callback(None)
    assert sum(s.strip().upper() == "COMMIT" for s in said) == 1
    assert any("INSERT INTO snapshots" in s for s in said)
    assert live.journal.snapshot(game_id).seq == end  # type: ignore[union-attr]
    live.journal.close()


def _rewrite(db: sqlite3.Connection, game_id: int, change: Any) -> None:
    """The snapshot changed by `change(body)`, with its digest written anew."""
    seq, text = db.execute("SELECT seq, snapshot FROM snapshots WHERE game_id = ?",
                           (game_id,)).fetchone()
    body = json.loads(text)
    new = change(body)
    new = new if isinstance(new, str) else json.dumps(body)
    texts = [r[0] for r in db.execute("SELECT entry FROM entries WHERE game_id = ? AND "
                                      "seq <= ? ORDER BY seq", (game_id, seq))]
    db.execute("UPDATE snapshots SET snapshot = ?, digest = ? WHERE game_id = ?",
               (new, snapshot_digest(texts, new), game_id))


DOUBTS = {
    # Found by the journal: the entries it follows are not the ones it was written after.
    "an entry before it written otherwise": lambda db, g: db.execute(
        "UPDATE entries SET entry = ' ' || entry WHERE game_id = ? AND seq = 1", (g,)),
    "its own text changed": lambda db, g: db.execute(
        "UPDATE snapshots SET snapshot = replace(snapshot, '\"actor\":', '\"actor\": ')"),
    "an entry it names that is not there": lambda db, g: db.execute(
        "UPDATE snapshots SET seq = seq + 1000"),
    "no snapshots table": lambda db, g: db.execute("DROP TABLE snapshots"),
    # Found by the table, the digest agreeing.
    "not JSON": lambda db, g: _rewrite(db, g, lambda body: "{not json"),
    "not an object": lambda db, g: _rewrite(db, g, lambda body: "[1, 2]"),
    "another snapshot schema": lambda db, g: _rewrite(db, g, lambda b: b.update(schema=99)),
    "another state schema": lambda db, g: _rewrite(db, g, lambda b: b.update(state_schema=0)),
    "another rules version": lambda db, g: _rewrite(db, g, lambda b: b.update(rules_version=1)),
    "another game's": lambda db, g: _rewrite(db, g, lambda b: b.update(game="0" * 64)),
    "a depth that is no number": lambda db, g: _rewrite(db, g, lambda b: b.update(depth="3")),
    "a state field missing": lambda db, g: _rewrite(db, g, lambda b: b["state"].pop("_owe")),
    "a state field of another kind": lambda db, g: _rewrite(
        db, g, lambda b: b["state"].update(_counts="many")),
    "a moment in play": lambda db, g: _rewrite(db, g, lambda b: b["moment"].update(stage="play")),
    "a tile that is no tile": lambda db, g: _rewrite(
        db, g, lambda b: b["moment"].update(dealt=[[400]])),
}


@pytest.mark.parametrize("doubt", DOUBTS)
def test_a_snapshot_in_doubt_is_not_used_and_every_entry_is_replayed(
        tmp_path, games_folder, caplog, doubt):
    live, game_id, entries = round_played(tmp_path, 2, games_folder)
    live.journal.close()
    copy = copy_without_snapshots(live.config.database, tmp_path / "copy")
    db = sqlite3.connect(live.config.database)
    with db:
        DOUBTS[doubt](db, game_id)
    db.close()
    replayed = Live(dataclass_replace(live.config, database=copy / "table.db"))
    with caplog.at_level(logging.INFO):
        resumed = Live(live.config)
    said = caplog.text
    assert ("every entry is replayed" in said or "resumed from its first entry" in said
            or doubt == "no snapshots table")
    assert seen(resumed.table) == seen(replayed.table)
    if doubt != "an entry before it written otherwise":
        assert resumed.journal.entries(game_id) == entries[:len(resumed.journal.entries(game_id))]
    # It goes on as ever, and the next round's end writes a sound snapshot again.
    if doubt != "no snapshots table":
        play_to_round_end(resumed.table, random.Random(1))
        assert resumed.journal.snapshot(game_id) is not None
    resumed.journal.close()
    replayed.journal.close()


def test_a_game_set_aside_after_its_snapshot_is_set_aside_at_the_same_entry(
        tmp_path, games_folder):
    live, game_id, _ = round_played(tmp_path, 3, games_folder)
    # An entry this version cannot replay, after the snapshot (a hunt in a tracked game).
    bad = live.journal.append(game_id, {"t": "hunt", "seat": 0})
    live.journal.close()
    copy = copy_without_snapshots(live.config.database, tmp_path / "copy")
    for config in (live.config, dataclass_replace(live.config, database=copy / "table.db")):
        rig = Rig(config)
        assert rig.table.game is None  # the lobby
        assert any("kept aside" in alert for alert in rig.view["alerts"])
        summary = rig.journal.games()[-1]
        assert summary.status == f"set aside at entry {bad}"
        rig.journal.close()


def _rot(database: Path, game_id: int, seq: int, *, digest_too: bool) -> None:
    """One byte of entry `seq` turned (`"t":` becomes `"t"=`); with `digest_too`, the
    snapshot's digest written anew over the turned entry, so that it still agrees."""
    db = sqlite3.connect(database)
    with db:
        db.execute("UPDATE entries SET entry = replace(entry, '\"t\":', '\"t\"=') "
                   "WHERE game_id = ? AND seq = ?", (game_id, seq))
        if digest_too:
            _rewrite(db, game_id, lambda body: None)
    db.close()


def test_a_start_reads_only_the_entries_after_the_snapshot(tmp_path, games_folder, capsys):
    from firmware_py.cli import main
    from firmware_py.journal import JournalDamaged

    live, game_id, _ = round_played(tmp_path, 0, games_folder)
    live.journal.close()
    shown = Live(live.config)
    want = seen(shown.table)
    shown.journal.close()
    # An entry before the snapshot that does not decode, under a digest that agrees: the
    # start takes the game up from the snapshot, never reading that entry.
    _rot(live.config.database, game_id, 2, digest_too=True)
    resumed = Live(live.config)
    assert seen(resumed.table) == want
    # Whoever reads it finds it: the entries whole, and `export`, name it.
    with pytest.raises(JournalDamaged, match=f"game {game_id}, entry 2 cannot be read"):
        resumed.journal.entries(game_id)
    resumed.journal.close()
    assert main(["export", str(game_id), "--db", str(live.config.database)]) == 2
    assert f"game {game_id}, entry 2 cannot be read" in capsys.readouterr().err


def test_an_entry_that_does_not_decode_is_still_refused_at_the_start(tmp_path, games_folder):
    from firmware_py.journal import JournalDamaged

    live, game_id, _ = round_played(tmp_path, 0, games_folder)
    end = live.journal.snapshot(game_id).seq  # type: ignore[union-attr]
    live.journal.close()
    # After the snapshot: it is replayed, so it is decoded at the open.
    after = tmp_path / "after"
    after.mkdir()
    shutil.copy(live.config.database, after / "table.db")
    _rot(after / "table.db", game_id, end + 1, digest_too=False)
    with pytest.raises(JournalDamaged, match=f"game {game_id}, entry {end + 1} cannot be read"):
        Journal(after / "table.db")
    # Before it, the digest no longer agreeing: every entry is decoded, as without one.
    _rot(live.config.database, game_id, 2, digest_too=False)
    with pytest.raises(JournalDamaged, match=f"game {game_id}, entry 2 cannot be read"):
        Journal(live.config.database)


def test_a_finished_game_shows_its_ranking_from_its_snapshot(tmp_path, games_folder):
    played(0, games_folder)
    shutil.copy(games_folder / "played-0" / "table.db", tmp_path / "table.db")
    rules, hand_mode, seats = CASES[0]
    config = make_config(tmp_path, rules=rules, hand_mode=hand_mode, seats=seats)
    rig = Rig(config)
    game_id = rig.journal.games()[-1].id
    want = rig.table.view().to_json()
    assert want["stage"] == "over"
    rig.journal.close()
    # Its first entries unreadable under an agreeing digest: the final ranking is shown
    # from the game's last snapshot, without a replay of the entries before it.
    _rot(config.database, game_id, 1, digest_too=True)
    _rot(config.database, game_id, 2, digest_too=True)
    again = Rig(config)
    assert again.table.view().to_json() == want
    again.journal.close()
