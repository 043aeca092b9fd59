"""`roundhouse sim`: the command's answers to bad arguments, and a whole headless run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.journal import Journal
from firmware_py.simtable import ENDLESS_FRAMES


def test_bad_arguments_are_one_line_and_exit_2(capsys):
    assert main(["sim", "--seats", "1"]) == 2
    assert capsys.readouterr().err.strip() == "roundhouse sim: --seats takes 2 to 14, got 1"
    assert main(["sim", "--seats", "3", "--rules", "simple"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("roundhouse sim: --rules/--rounds/--seats: simple rules")
    assert "\n" not in err
    assert main(["sim", "--rules", "nosuch"]) == 2
    assert 'unknown preset "nosuch"' in capsys.readouterr().err
    assert main(["sim", "--seats", "15"]) == 2
    assert "--seats takes 2 to 14, got 15" in capsys.readouterr().err
    assert main(["sim", "--speed", "-1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "roundhouse sim: --speed takes moves per second, 0 or more, got -1"
    )
    assert main(["sim", "--full", "--rounds", "3"]) == 2
    assert "--full" in capsys.readouterr().err
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


@pytest.mark.parametrize("where", ["afile", "/proc/roundhouse-frames"])
def test_frames_where_no_folder_can_be_made_is_one_line(tmp_path, monkeypatch, capsys,
                                                        where):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    assert main(["sim", "--frames", where, "--speed", "0", "--db", "sim.db"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"roundhouse sim: --frames {where}: cannot keep") and "\n" not in (
        err.strip())


def test_help_shows_the_defaults_and_the_hand_modes(capsys):
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for default in ("(default: 4)", "(default: classic)", "(default: open)", "(default: 1)",
                    "(default: greedy)", "(default: 2, or the preset's with --full)"):
        assert default in out
    assert "tracked: every tile dealt and drawn is tapped too" in out


@pytest.mark.slow
def test_fourteen_seats_play_the_classic_deal(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    args = ["sim", "--seats", "14", "--rounds", "1", "--speed", "0", "--seed", "2"]
    assert main([*args, "--db", str(tmp_path / "sim.db"), "--headless"]) == 0
    out = capsys.readouterr().out
    assert "Demo" not in out and "14 bots play 1 round of classic" in out
    assert "Ned" in out.splitlines()[-3]  # the fourteenth seat is scored


@pytest.mark.slow
def test_a_journal_of_another_table_size_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    db = tmp_path / "sim.db"
    args = ["sim", "--rounds", "1", "--speed", "0", "--seed", "4", "--db", str(db)]
    assert main([*args, "--seats", "2", "--headless"]) == 0
    capsys.readouterr()
    assert main([*args, "--seats", "4", "--headless"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"roundhouse sim: {db.resolve()} holds a game of 2 seats (Ana, Bo): give --seats 2, "
        "or another --db for 4 seats\n"
    )
    journal = Journal(db)
    try:
        assert [g.players for g in journal.games()] == [("Ana", "Bo")]
    finally:
        journal.close()


@pytest.mark.slow
def test_the_demo_says_what_it_plays_and_prints_every_round(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    assert main(["sim", "--speed", "0", "--seed", "11"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Demo: 4 bots play 2 rounds of classic (open hands)")
    assert lines[0].endswith("The whole game: roundhouse sim --full")
    assert "Seed: 11 (--seed 11 plays this game again)" in lines
    rounds = [line for line in lines if line.startswith("Round ")]
    assert [r.split(" (")[0] for r in rounds] == ["Round 1", "Round 2"]
    for line in rounds:
        assert all(f"{name} " in line for name in ("Ana", "Bo", "Cy", "Di"))
        assert "went out)" in line or "(blocked)" in line
    # The frames were temporary: nothing is left of them, the journal stays.
    [workdir] = tmp_path.glob("roundhouse-sim-*")
    assert not (workdir / "frames").exists()
    assert f"Journal: {workdir / 'sim.db'}" in lines
    assert (workdir / "sim.db").exists()


def test_the_demo_takes_about_a_minute():
    import argparse

    from firmware_py.simtable import _bots, _plan, configure_sim, estimate, sim_config

    parser = argparse.ArgumentParser()
    configure_sim(parser)
    args = parser.parse_args([])
    config, _ = sim_config(args)
    bots = _bots(args.bots, args.seats)
    times = [estimate(config, bots, args.speed, seed) for seed in range(10)]
    assert min(times) >= 30 and max(times) <= 90 and 45 <= sum(times) / 10 <= 75, times
    line = _plan(config, bots, args, 7)
    assert "2 rounds of classic (open hands) at 4 moves a second: about a minute" in line
    # The whole game is one option away, and takes far longer.
    full = parser.parse_args(["--full"])
    config, _ = sim_config(full)
    assert estimate(config, bots, full.speed, 7) > 5 * 60


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
    assert f"Frames: {frames}/table and {frames}/wall" in out
    for view in ("table", "wall"):
        assert any(p.suffix == ".png" for p in (frames / view).iterdir())
    journal = Journal(db)
    try:
        [game] = journal.games()
        assert game.finished and game.winner in ("Ana", "Bo", "Cy", "Di")
    finally:
        journal.close()


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "Ctrl-C", "terminal closed"])
def test_stopping_the_sim_stops_its_screens(tmp_path, signum):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    frames = tmp_path / "frames"
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_py.cli", "sim", "--speed", "1", "--seed", "3",
         "--db", str(tmp_path / "sim.db"), "--frames", str(frames)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not list(frames.glob("*/*.png")) and time.monotonic() < deadline:
            time.sleep(0.2)
        screens = children_of(sim.pid)
        assert len(screens) == 2, "the two screens run beside the sim"
        sim.send_signal(signum)
        out, err = sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:
            sim.kill()
    assert sim.returncode == 130, err
    assert "Traceback" not in err
    assert "Stopped: the screens are closed" in out
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in screens) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in screens if alive(pid)], "a screen outlived the sim"


@pytest.mark.slow
def test_a_killed_sim_leaves_no_screen_waiting_and_an_endless_one_keeps_few_frames(
        tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    frames = tmp_path / "frames"
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_py.cli", "sim", "--speed", "0", "--seed", "3",
         "--games", "0", "--db", str(tmp_path / "sim.db"), "--frames", str(frames)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not list(frames.glob("*/*.png")) and time.monotonic() < deadline:
            time.sleep(0.2)
        screens = children_of(sim.pid)
        assert len(screens) == 2, "the two screens run beside the sim"
        # With no end, each screen keeps only its newest frames.
        for pid in screens:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            assert command[command.index(b"--keep-frames") + 1] == str(ENDLESS_FRAMES).encode()
        sim.kill()  # kill -9: nothing of the sim runs to close them
        sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:
            sim.kill()
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in screens) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in screens if alive(pid)], "a screen outlived the killed sim"


@pytest.mark.slow
def test_closing_a_screen_ends_the_sim(tmp_path, monkeypatch, capsys):
    """A window closed with Q, Esc or its close button ends its process with status 0
    (tests/display/test_client.py); the sim then ends too."""
    import firmware_py.simtable as simtable

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    started: list[subprocess.Popen[bytes]] = []

    def screens(config, frames, **_):
        closed = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
        started.append(closed)
        return [closed]

    monkeypatch.setattr(simtable, "_start_screens", screens)
    begun = time.monotonic()
    assert main(["sim", "--full", "--speed", "2", "--seed", "3", "--headless",
                 "--db", str(tmp_path / "sim.db")]) == 0
    assert time.monotonic() - begun < 60  # the whole game at 2 moves a second is minutes
    out = capsys.readouterr().out
    assert "A screen was closed: the sim ends" in out
    assert "Game 1" not in out


def test_a_table_that_stops_on_an_error_ends_the_sim_with_status_1(tmp_path, monkeypatch,
                                                                   capsys):
    from firmware_py.table import Table

    handle = Table.handle
    inputs = []

    def breaks_at_the_tenth_input(self: Table, event: object) -> bool:
        inputs.append(event)
        if len(inputs) == 10:
            raise RuntimeError("a fault in the table")
        return handle(self, event)

    monkeypatch.setattr(Table, "handle", breaks_at_the_tenth_input)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    code = main(["sim", "--headless", "--speed", "0", "--db", str(tmp_path / "sim.db")])
    err = capsys.readouterr().err
    assert code == 1
    assert "roundhouse sim: the table stopped on an unexpected error (" in err
    assert "a fault in the table" in err
