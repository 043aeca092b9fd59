"""`roundhouse sim` finishes its games: every table size from 2 to 14 seats, each preset
and both hand modes among them, as fast as the bots can press (`--speed 0`), and once
at the default speed, where the simulated presses are timed as real hands would be.

Short on purpose: `benchmarks/sim_soak.py` plays the whole matrix, and `--games 0` for
as long as it is given.
"""

from __future__ import annotations

import itertools

import pytest

from firmware_py.cli import main
from firmware_py.journal import Journal
from firmware_py.rules import PRESETS

SIZES = range(2, 15)


def _plan() -> list[tuple[int, str, str]]:
    """One game per table size; the presets and hand modes taken in turn among them."""
    presets = itertools.cycle(sorted(PRESETS))
    modes = itertools.cycle(["open", "tracked"])
    out = []
    for seats in SIZES:
        while True:
            name = next(presets)
            if any(row[0] == seats for row in PRESETS[name].deal):
                break
        out.append((seats, name, next(modes)))
    return out


PLAN = _plan()


def test_the_plan_covers_every_size_preset_and_hand_mode():
    assert [seats for seats, _, _ in PLAN] == list(SIZES)
    assert {name for _, name, _ in PLAN} == set(PRESETS)
    assert {mode for _, _, mode in PLAN} == {"open", "tracked"}


def _sim(tmp_path, monkeypatch, capsys, *args: str) -> str:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    db = tmp_path / "sim.db"
    code = main(["sim", *args, "--db", str(db), "--headless"])
    out = capsys.readouterr()
    assert code == 0, out.err
    journal = Journal(db)
    try:
        [game] = journal.games()
        assert game.finished and game.winner is not None
    finally:
        journal.close()
    return out.out


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "rules", "hand_mode"), PLAN,
                         ids=[f"{s}-{r}-{m}" for s, r, m in PLAN])
def test_every_table_size_plays_to_the_end(tmp_path, monkeypatch, capsys, seats, rules,
                                           hand_mode):
    out = _sim(tmp_path, monkeypatch, capsys, "--seats", str(seats), "--rules", rules,
               "--hand-mode", hand_mode, "--rounds", "1", "--speed", "0",
               "--seed", str(seats), "--bots", "random")
    assert "Game 1: " in out and " wins (" in out


@pytest.mark.slow
def test_a_game_at_the_default_speed_plays_to_the_end(tmp_path, monkeypatch, capsys):
    out = _sim(tmp_path, monkeypatch, capsys, "--seats", "2", "--rounds", "1",
               "--hand-mode", "tracked", "--seed", "42")
    assert "Game 1: " in out and " wins (" in out
