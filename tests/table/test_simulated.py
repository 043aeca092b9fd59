"""End to end: the service on the simulated table, bots pressing mock buttons and
tapping tags that fake readers send as real frames."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from firmware_py.journal import Journal
from firmware_py.journal_commands import record_from_entries
from firmware_py.record import parse_record, replay
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
