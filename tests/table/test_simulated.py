"""End to end: the service on the simulated table, bots pressing mock buttons and
tapping tags that fake readers send as real frames."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from firmware_py import simtable
from firmware_py.bots import make_bot
from firmware_py.journal import Journal
from firmware_py.journal_commands import record_from_entries
from firmware_py.record import parse_record, replay
from firmware_py.rules import StartRound, Tile, set_tiles
from firmware_py.simtable import simulate


class ViewClient(threading.Thread):
    """A screen on the view socket that keeps every view it is sent."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.views = []

    def run(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(1000):  # up to 10 s for the service to open its socket
            try:
                sock.connect(str(self.path))
                break
            except OSError:
                threading.Event().wait(0.01)
        with sock, sock.makefile("r") as lines:
            for line in lines:
                self.views.append(json.loads(line))


@pytest.mark.slow
@pytest.mark.parametrize("hand_mode", ["open", "tracked"])
def test_a_game_at_the_simulated_table(config_factory, random_bot, hand_mode):
    config = config_factory(rules={"preset": "classic", "rounds": 1}, hand_mode=hand_mode)
    client = ViewClient(config.socket)
    client.start()
    results = simulate(config, [random_bot] * 4, seed=11, games=1)
    client.join(timeout=10)
    assert len(results) == 1 and " wins (" in results[0]

    views = client.views
    assert [v["seq"] for v in views] == sorted(v["seq"] for v in views)
    assert views[-1]["phase"] == "game_over"
    assert all(r["online"] for r in views[-1]["readers"])
    assert any(v["phase"] == "play" and v["trains"][0]["tiles"] for v in views)

    journal = Journal(config.database)
    try:
        [game] = journal.games()
        assert game.winner is not None and game.finished
        record = record_from_entries(journal.meta(game.id), journal.entries(game.id))
    finally:
        journal.close()
    replayed = replay(parse_record(record))
    assert replayed.error is None
    assert replayed.state.phase == "game_over"
    assert [game_totals for game_totals in replayed.state.totals] == views[-1]["totals"]


# Di holds one line that uses all fifteen of her tiles from the engine and must end on
# the double 1-1 (only 2-1 reaches a 1). Bo holds the engine and leads, so Di goes out on
# her first turn while Ana's first turn is still owed. Ana holds no 1, nor does the
# boneyard's first tile.
DI = [Tile(12, 11), Tile(11, 10), Tile(10, 9), Tile(9, 8), Tile(8, 7), Tile(7, 6),
      Tile(6, 5), Tile(5, 4), Tile(4, 3), Tile(3, 2), Tile(2, 0), Tile(4, 0), Tile(4, 2),
      Tile(2, 1), Tile(1, 1)]


def _out_on_a_double_before_the_last_first_turn(state, seed):
    pool = [t for t in set_tiles(12) if t not in DI and t is not Tile(12, 12)]
    ones = [t for t in pool if t.matches(1)]
    others = [t for t in pool if not t.matches(1)]
    ana, others = others[:15], others[15:]
    bo, others = [Tile(12, 12), *others[:14]], others[14:]
    cy, boneyard = (ones + others)[:15], (ones + others)[15:]
    return StartRound((tuple(ana), tuple(bo), tuple(cy), tuple(DI)), tuple(boneyard),
                      None, Tile(12, 12))


@pytest.mark.slow
def test_the_last_first_turn_after_a_seat_went_out_on_a_double(config_factory, monkeypatch):
    """Classic lets every seat take its first turn after one went out. Ana must answer
    Di's last double, cannot, and draws a tile that does not fit: the round is over by
    the tiles, but the table, which does not see the drawn tile, waits for her PASS. The
    bots once stalled here, waiting for a turn the table did not give."""
    monkeypatch.setattr(simtable, "deal", _out_on_a_double_before_the_last_first_turn)
    config = config_factory(rules={"preset": "classic", "rounds": 1}, hand_mode="open")
    results = simulate(config, [make_bot("greedy")] * 4, seed=1, games=1)
    assert len(results) == 1 and results[0].startswith("Di wins (Di 0,")

    journal = Journal(config.database)
    try:
        [game] = journal.games()
        record = record_from_entries(journal.meta(game.id), journal.entries(game.id))
    finally:
        journal.close()
    moves = record["rounds"][0]["moves"]
    went_out = moves.index({"seat": 3, "play": "1-1", "on": 3})
    assert moves[went_out + 1 : went_out + 3] == [{"seat": 0, "draw": True},
                                                  {"seat": 0, "pass": True}]
