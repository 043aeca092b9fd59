"""Whole games at the controller: bots act only through presses, taps and markers."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from firmware_py.journal_commands import record_from_entries
from firmware_py.record import parse_record, replay
from firmware_py.rules import Options, state_to_json
from firmware_py.simtable import Driver
from firmware_py.table import TableError
from hardware.events import Button, TagPlaced, TagRemoved
from roundhouse.view import View


class DirectHardware:
    """Presses and taps handed straight to the controller, with every view checked."""

    def __init__(self, rig):
        self.rig = rig
        self.views = 0

    def _seen(self):
        view = self.rig.table.view().to_json()
        text = json.dumps(view)
        assert '"hands"' not in text
        View.from_json({**view, "seq": 1})  # every view the table shows, the screens can draw
        self.views += 1

    def press(self, seat, button):
        self.rig.press(seat, button)
        self._seen()

    def hold(self, seat, button):
        self.rig.hold(seat, button)
        self._seen()

    def tap(self, pad, tag):
        kind, _, value = tag.rpartition(":")
        self.rig.tap(pad, "C" + value if kind == "card" else tag)
        self._seen()

    def let_go(self, pad, tag):
        return None  # each tap is sent placed and removed at once

    def place(self, pad, tag):
        self.rig.send(TagPlaced(pad, "M" + tag.partition(":")[2]))

    def lift(self, pad, tag):
        self.rig.send(TagRemoved(pad, "M" + tag.partition(":")[2]))


class TableViews:
    """The views of a table fed directly, numbered as the publisher numbers them."""

    def __init__(self, table):
        self.table = table
        self.seq = 0
        self.last = None

    def poll(self, timeout):
        view = self.table.view()
        if view == self.last:
            return None
        self.seq += 1
        self.last = view
        return dataclasses.replace(view, seq=self.seq)


def driver(rig, bots, seed):
    config = rig.config
    return Driver(TableViews(rig.table), DirectHardware(rig), bots, random.Random(seed),
                  options=Options.from_json(config.rules),
                  chairs={s.name: s.seat for s in config.seats})


def play(rig, bot, seed, games=1):
    return driver(rig, [bot] * 8, seed).play(games)


CASES = [
    # The engine's holder taps it, or the hunt finds it; all seven rounds of a double-6.
    ({"preset": "classic", "set": 6}, "open", 3),
    ({"preset": "tournament", "rounds": 3}, "open", 3),  # set aside, the table picks a lead
    ({"preset": "hub", "rounds": 3}, "tracked", 4),  # every tile tapped, must play
    ({"preset": "classic", "rounds": 3}, "tracked", 5),  # a tracked hunt for the engine
]


@pytest.mark.parametrize("rules,hand_mode,seats", CASES)
def test_a_whole_game_through_buttons_and_pads(
    rig_factory, random_bot, rules, hand_mode, seats
):
    rig = rig_factory(rules=rules, hand_mode=hand_mode, seats=seats)
    rig.readers_online()
    results = play(rig, random_bot, seed=7)
    assert len(results) == 1
    view = rig.view
    rounds = view["rounds"]
    assert view["phase"] == "game_over"
    assert len(view["scores"]) == rounds == rules.get("rounds", 7)
    assert view["totals"] == [sum(col) for col in zip(*view["scores"], strict=True)]
    assert sorted(view["ranking"]) == list(range(seats))
    assert view["round_engines"] == [
        f"{n}-{n}" for n in range(view["set"], view["set"] - rounds, -1)
    ]

    game_id = rig.journal.games()[0].id
    meta, entries = rig.journal.meta(game_id), rig.journal.entries(game_id)
    record = record_from_entries(meta, entries)
    final = rig.table.moment.state
    replayed = replay(parse_record(json.loads(json.dumps(record))))
    assert replayed.error is None
    assert state_to_json(replayed.state) == state_to_json(final)


def test_a_new_game_starts_with_the_same_seats(rig_factory, random_bot):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1}, seats=4)
    assert len(play(rig, random_bot, seed=3, games=2)) == 2
    games = rig.journal.games()
    assert len(games) == 2
    assert all(g.players == ("Ana", "Bo", "Cy", "Di") for g in games)


def test_bots_abandon_an_unfinished_tracked_game_whose_tiles_they_no_longer_see(
        rig_factory, random_bot):
    rig = rig_factory(rules={"preset": "hub", "rounds": 1}, hand_mode="tracked")

    def midway():
        m = rig.table.moment
        return m is not None and m.stage == "play" and len(m.actions()) > 12

    assert driver(rig, [random_bot] * 4, 5).play(1, stopped=midway) == []
    again = rig.restart()  # the simulator stopped and started again on the same journal
    assert len(driver(again, [random_bot] * 4, 6).play(1)) == 1
    first, second = again.journal.games()
    assert first.finished and first.winner is None  # abandoned
    assert second.finished and second.winner


def test_bots_started_after_a_finished_game_play_a_new_one(rig_factory, random_bot):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1}, seats=3)
    assert len(play(rig, random_bot, seed=13)) == 1
    again = rig.restart()
    assert again.view["phase"] == "game_over"  # the last ranking is still up
    assert len(play(again, random_bot, seed=14)) == 1  # a new game, not the old result
    games = again.journal.games()
    assert len(games) == 2 and all(g.finished and g.winner for g in games)
    again.journal.close()


def test_bots_abandon_an_unfinished_open_game_whose_hands_they_cannot_know(
    rig_factory, random_bot
):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1})
    rig.start(0, 1, 2, 3)
    rig.tap(0, "12-1")
    assert len(driver(rig, [random_bot] * 4, 5).play(1)) == 1
    first, second = rig.journal.games()
    assert first.winner is None and first.finished
    assert second.winner is not None


def test_a_journal_the_table_cannot_rebuild_is_a_clear_error():
    meta = {"players": ["Ana", "Bo"], "rules": "tournament", "hand_mode": "open"}
    with pytest.raises(TableError, match="unknown preset"):
        record_from_entries(meta | {"rules": "nosuch"}, [])
    bad = [{"t": "action", "action": {"seat": 0, "play": "9-1", "on": 0}},
           {"t": "action", "action": {"seat": 0, "play": "7-7", "on": 0}}]
    with pytest.raises(TableError, match=r"journal entry 2 .* doesn.t match"):
        record_from_entries(meta, bad)


def test_a_restart_after_the_game_keeps_its_final_ranking_up(rig_factory, random_bot):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1}, seats=3)
    play(rig, random_bot, seed=11)
    final = rig.view
    assert final["phase"] == "game_over"
    again = rig.restart()
    view = again.view
    assert view["phase"] == "game_over"
    for key in ("ranking", "totals", "scores", "seats", "trains"):
        assert view[key] == final[key]
    assert "hold DRAW" in again.press(1, Button.PASS)["rejection"]["text"]
    view = again.hold(2)  # a new game with the same seats, as before the restart
    assert view["phase"] == "play" and view["round"] == 1 and view["scores"] == []
    assert [s["name"] for s in view["seats"]] == ["Ana", "Bo", "Cy"]
    assert len(again.journal.games()) == 2


def test_a_restart_after_an_abandoned_game_opens_the_lobby(rig_factory):
    rig = rig_factory()
    rig.start(0, 1)
    rig.card("new_game")
    rig.card("new_game")  # abandoned
    assert rig.restart().view["phase"] == "lobby"


def test_a_finished_game_that_cannot_be_read_leaves_the_lobby_at_restart(rig_factory):
    rig = rig_factory()
    game_id = rig.journal.begin_game({"players": ["Ana", "Bo"], "rules": "no-such-preset"})
    rig.journal.finish_game(game_id, {"ranking": [0, 1], "winner": "Ana", "abandoned": False})
    again = rig.restart()  # shown only, never played on: no reason to refuse to start
    assert again.view["phase"] == "lobby"
    again.journal.close()


def test_a_game_cut_off_before_its_result_was_kept_gets_it_at_restart(
    rig_factory, random_bot, tmp_path
):
    rig = rig_factory(rules={"preset": "tournament", "rounds": 1}, seats=3)
    play(rig, random_bot, seed=12)
    [game] = rig.journal.games()
    entries = rig.journal.entries(game.id)
    # The same moves in a journal that lost power before the result was written.
    cut = type(rig)(dataclasses.replace(rig.config, database=tmp_path / "cut.db"))
    cut_id = cut.journal.begin_game(rig.journal.meta(game.id))
    for entry in entries:
        cut.journal.append(cut_id, entry)
    assert cut.journal.games()[0].finished is None
    again = cut.restart()
    assert again.view["phase"] == "game_over"
    assert again.view["ranking"] == rig.view["ranking"]
    [summary] = again.journal.games()
    assert summary.finished is not None and summary.winner == game.winner
    again.journal.close()
