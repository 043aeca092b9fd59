"""`roundhouse sim`: the command's answers to bad arguments, and a whole headless run."""

from __future__ import annotations

import pytest

from firmware_py.cli import main
from firmware_py.journal import Journal


def test_bad_arguments_are_one_line_and_exit_2(capsys):
    assert main(["sim", "--seats", "1"]) == 2
    assert capsys.readouterr().err.strip() == "roundhouse sim: --seats takes 2 to 13, got 1"
    assert main(["sim", "--seats", "3", "--rules", "simple"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("roundhouse sim: --rules/--rounds/--seats: simple rules")
    assert "\n" not in err
    assert main(["sim", "--rules", "nosuch"]) == 2
    assert 'unknown preset "nosuch"' in capsys.readouterr().err
    assert main(["sim", "--seats", "14"]) == 2
    assert "--seats takes 2 to 13, got 14" in capsys.readouterr().err
    assert main(["sim", "--bots", "greedy,clever"]) == 2
    assert capsys.readouterr().err.strip() == (
        "roundhouse sim: --bots: no bot named 'clever'; bots: random, greedy"
    )


def test_a_foreign_database_is_refused_never_reset(tmp_path, capsys):
    db = tmp_path / "notes.db"
    db.write_text("shopping list\n")
    assert main(["sim", "--db", str(db), "--headless", "--speed", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("roundhouse sim: ") and str(db) in err
    assert db.read_text() == "shopping list\n"
    assert "--move-aside" in err


@pytest.mark.slow
def test_without_a_screen_it_says_so_and_writes_frames(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    db, frames = tmp_path / "sim.db", tmp_path / "frames"
    args = ["sim", "--rounds", "1", "--speed", "0", "--seed", "4", "--bots", "greedy,random"]
    assert main([*args, "--db", str(db), "--frames", str(frames)]) == 0
    out = capsys.readouterr().out
    assert "Running headless (no screen ($DISPLAY and $WAYLAND_DISPLAY unset)): " in out
    assert f"{frames}/table and {frames}/wall" in out
    assert "Game 1: " in out and " wins (" in out
    for view in ("table", "wall"):
        assert any(p.suffix == ".png" for p in (frames / view).iterdir())
    journal = Journal(db)
    try:
        [game] = journal.games()
        assert game.finished and game.winner in ("Ana", "Bo", "Cy", "Di")
    finally:
        journal.close()
