"""Pulling the plug: a service playing a game is SIGKILLed at random moments.

The service runs in a child process: the table service on a simulated table, with
players acting through presses and pad taps, until the parent kills it. A screen on the
view socket records every view it is shown. After each kill the parent checks that

- the restarted service shows exactly the state a fresh replay of the committed journal
  gives, and
- nothing a screen was shown is missing: the last view seen before the kill is covered
  by that replay (its rounds, scores and every tile laid are still there).

Every sixth kill lands while the service is still starting (opening, checking and
replaying its journal), which must change nothing. The players decide from the table's
own state alone, so they pick the game up again after every restart, as people at a
real table would.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import random
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from players import Players

KILLS = 55
PHASES = ("lobby", "deal", "play", "round_over", "game_over")


# --- the child: a service with players ----------------------------------------------------


def _config(folder: Path) -> Any:
    from firmware_py.config import example_config, load_config

    base = load_config(example_config("sim"))
    # Engine set aside, open hands: every step follows from what the table shows.
    return dataclasses.replace(base, rules={"preset": "tournament", "rounds": 3},
                               hand_mode="open",
                               database=folder / "table.db", socket=folder / "view.sock",
                               watchdog=False)


def child(folder: Path, seed: int, ready: Any, go: Any) -> None:
    from firmware_py.daemon import Service

    service = Service(_config(folder), attach_hardware=False)
    service.start()
    ready.set()
    go.wait()  # the parent's screen has taken the first view
    Players(service, random.Random(seed)).play()
    service.finished.wait()


# --- the parent ---------------------------------------------------------------------------


class Screen(threading.Thread):
    """Records every view the service publishes until the connection drops."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rb")
        self.views: list[dict[str, Any]] = []
        self.first = threading.Event()

    def run(self) -> None:
        for line in self.file:
            if not line.endswith(b"\n"):
                break
            self.views.append(json.loads(line))
            self.first.set()
        self.first.set()

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def _replay(config: Any) -> tuple[dict[str, Any], Any]:
    """The view a fresh table gives from the committed journal alone, and the newest
    game's summary (None before the first game)."""
    from firmware_py.journal import Journal
    from firmware_py.table import Table
    from hardware.tags import TagRegistry

    journal = Journal(config.database)
    registry = TagRegistry(config.database)
    try:
        games = journal.games()
        view = Table(config, journal, registry.lookup).view().to_json()
        return view, games[-1] if games else None
    finally:
        registry.close()
        journal.close()


def _public(view: dict[str, Any]) -> dict[str, Any]:
    """The view without its number, nor the notice that says where a start after a
    kill took the game up (it tells how the last service stopped, not the game)."""
    out = {k: v for k, v in view.items() if k != "seq"}
    out["alerts"] = [a for a in view["alerts"] if a["message"]["id"] != "alert.resumed_at"]
    return out


def _assert_covers(replay: dict[str, Any], seen: dict[str, Any]) -> None:
    """Everything the screen was shown is still in the replayed state."""
    if seen["phase"] == "lobby":
        return  # seats joining are not part of any game yet
    assert replay["phase"] != "lobby", "a game the screens showed is gone"
    assert replay["scores"][: len(seen["scores"])] == seen["scores"]
    assert (replay["round"], len(replay["scores"])) >= (seen["round"], len(seen["scores"]))
    if replay["round"] == seen["round"] and len(replay["scores"]) == len(seen["scores"]):
        assert PHASES.index(replay["phase"]) >= PHASES.index(seen["phase"])
        assert replay["boneyard"] <= seen["boneyard"]
        replay_trains = {t["id"]: t["tiles"] for t in replay["trains"]}
        for train in seen["trains"]:
            laid = replay_trains[train["id"]]
            assert laid[: len(train["tiles"])] == train["tiles"], train["id"]


def _start_child(folder: Path, seed: int) -> tuple[Any, Any, Any]:
    # Forked, so that each restart costs a service start and not a Python start.
    context = multiprocessing.get_context("fork")
    ready, go = context.Event(), context.Event()
    proc = context.Process(target=child, args=(folder, seed, ready, go), daemon=True)
    proc.start()
    return proc, ready, go


def _kill(proc: Any) -> None:
    proc.kill()  # SIGKILL
    proc.join()
    assert proc.exitcode == -signal.SIGKILL


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_shown(tmp_path):
    rng = random.Random(20261130)
    folder = tmp_path / "table-1"
    folder.mkdir()
    config = _config(folder)
    expected: dict[str, Any] | None = None
    in_play = kills = games = 0
    while kills < KILLS:
        proc, ready, go = _start_child(folder, rng.randrange(2**32))
        if kills % 6 == 5:
            # Killed while it opens, checks and replays the journal: that changes nothing.
            time.sleep(rng.uniform(0.0, 0.06))
            _kill(proc)
            kills += 1
            replay, _ = _replay(config)
            assert expected is None or _public(replay) == expected
            continue
        assert ready.wait(10), "the service did not start"
        screen = Screen(config.socket)
        screen.start()
        assert screen.first.wait(10)
        if expected is not None:
            # The restarted table shows exactly the replay of what was committed.
            assert _public(screen.views[0]) == expected
        go.set()
        time.sleep(rng.uniform(0.0, 0.3))
        _kill(proc)
        kills += 1
        screen.join(5)
        screen.close()
        seen = screen.views[-1]
        in_play += seen["phase"] == "play"
        replay, game = _replay(config)
        if game is None or game.finished is None:
            _assert_covers(replay, seen)
            expected = _public(replay)
            continue
        # A finished game is closed in the journal; the table waits in the lobby.
        if seen["phase"] == "game_over":
            assert game.winner == seen["seats"][seen["ranking"][0]]["name"]
        games += 1
        folder = tmp_path / f"table-{games + 1}"
        folder.mkdir()
        config = _config(folder)
        expected = None
    # Many kills must land in the middle of play, not in a lobby or after a game.
    assert in_play >= KILLS // 3, f"only {in_play} of {KILLS} kills landed during play"
