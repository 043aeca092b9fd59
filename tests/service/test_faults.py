"""The service keeps the game through the faults a room throws at it: a full or
read-only disk, too many screens, a second service on the same journal, a thread of
its own that dies. Each fault is made for real: a tiny tmpfs, a low RLIMIT_NOFILE, a
second process."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from faults import serve_with_few_files, tiny_disk
from test_daemon import (
    NotifyListener,
    ViewReader,
    first_view,
    press,
    run,
    sim_config,
    unit,
    write_config,
)

from firmware_py.daemon import MAX_SCREENS, Service, ViewPublisher
from firmware_py.journal import Journal, JournalDamaged, JournalError
from firmware_py.notify import Notifier
from hardware.events import Button, ButtonHeld, ButtonPressed, ButtonReleased
from roundhouse.message import Message
from roundhouse.render import render
from roundhouse.view import View, load_view

FULL = "The table's disk is full: nothing was lost. Free some space."


def said(rejection: dict[str, Any]) -> str:
    return render(Message.from_json(rejection["message"]), "en")


def hold(service: Service, seat: int, button: Button = Button.DRAW) -> None:
    for event in (ButtonPressed, ButtonHeld, ButtonReleased):
        service.events.put(event(seat, button))


def public(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("seq", "rejection")}


# --- a full disk during play ------------------------------------------------------------


def test_a_full_disk_refuses_inputs_on_screen_and_the_game_goes_on_once_freed(
        tmp_path, caplog):
    with tiny_disk(tmp_path / "disk") as disk:
        config = sim_config(tmp_path, database=disk.path / "t.db")
        service = Service(config, attach_hardware=False)
        service.start()
        screen = ViewReader(config.socket)
        screen.next()
        press(service, 0)
        press(service, 1)
        lobby = first_view(screen, lambda v: sum(s["joined"] for s in v["seats"]) == 2)

        disk.fill()
        hold(service, 0)  # start a game: its first write finds no room
        refused = first_view(screen, lambda v: v["rejection"] is not None)
        assert refused["rejection"]["seat"] is None and said(refused["rejection"]) == FULL
        assert public(refused) == public(lobby)

        disk.free()
        hold(service, 0)
        playing = first_view(screen, lambda v: v["phase"] != "lobby")
        assert playing["rejection"] is None

        disk.fill()
        press(service, 0)  # draws for the engine: refused, nothing of it taken
        refused = first_view(screen, lambda v: v["rejection"] is not None)
        assert said(refused["rejection"]) == FULL
        assert public(refused) == public(playing)
        press(service, 0)
        assert said(first_view(screen, lambda v: True)["rejection"]) == FULL

        disk.free()
        press(service, 0)
        led = first_view(screen, lambda v: v["rejection"] is None)
        assert public(led) != public(playing)
        assert not service.finished.is_set() and service.failure is None
        service.stop()
        screen.close()
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []

        # What the screens showed is what the journal kept, refused inputs not in it.
        again = Service(config, attach_hardware=False)
        again.start()
        assert public(again.table.view().to_json()) == public(led)
        assert len(again.journal.entries(1)) == 1  # the one press the disk took
        again.stop()


def test_a_read_only_disk_refuses_inputs_on_screen_until_it_writes_again(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        config = sim_config(tmp_path, database=disk.path / "t.db")
        pid = os.fork()
        if pid == 0:  # killed mid-game; then the kernel turned the disk read-only
            service = Service(config, attach_hardware=False)
            service.start()
            service.table.handle(ButtonPressed(0, Button.DRAW))
            service.table.handle(ButtonReleased(0, Button.DRAW))
            service.table.handle(ButtonPressed(1, Button.DRAW))
            service.table.handle(ButtonReleased(1, Button.DRAW))
            for event in (ButtonPressed, ButtonHeld, ButtonReleased):
                service.table.handle(event(0, Button.DRAW))
            os.kill(os.getpid(), signal.SIGKILL)
        os.waitpid(pid, 0)
        disk.remount("ro")
        service = Service(config, attach_hardware=False)
        service.start()
        screen = ViewReader(config.socket)
        shown = screen.next()
        assert shown["phase"] != "lobby"  # the game is shown
        press(service, 0)
        refused = first_view(screen, lambda v: v["rejection"] is not None)
        assert refused["rejection"]["seat"] is None and said(refused["rejection"]) == (
            "The table's disk takes no writes: nothing was lost. Check the disk.")
        assert public(refused) == public(shown)
        disk.remount("rw")
        press(service, 0)
        taken = first_view(screen, lambda v: v["rejection"] is None)
        assert public(taken) != public(shown)
        assert not service.finished.is_set() and service.failure is None
        service.stop()
        screen.close()


def play_on_a_journal_made_read_only(folder: Path, wait: float = 30) -> list[list[Any]]:
    """Start a game on a journal file made read-only (chmod 0444), then again once it is
    writable; what the table showed each time: [phase, refusal]."""
    config = sim_config(folder)
    service = Service(config, attach_hardware=False)
    service.start()
    service.stop()  # a journal, closed cleanly
    config.database.chmod(0o444)
    service = Service(config, attach_hardware=False)
    service.start()

    def shown(wanted: Any, wait: float = wait) -> list[Any]:
        deadline = time.monotonic() + wait
        view = service.table.view().to_json()
        while not wanted(view) and time.monotonic() < deadline:
            time.sleep(0.02)
            view = service.table.view().to_json()
        return [view["phase"], view["rejection"] and said(view["rejection"])]

    shows: list[list[Any]] = []
    press(service, 0)  # a seat joins: journaled, so refused
    shows.append(shown(lambda view: view["rejection"] is not None))
    if not os.access(config.database, os.W_OK):  # root writes it all the same
        try:
            service.journal.begin_game({})
        except JournalError as err:
            shows.append([str(err)])  # what the log says: the file, not the disk
    config.database.chmod(0o644)
    # The input after the one that found the disk writable is taken (each input after a
    # refusal reconnects first; the refused one's own release may have come before the
    # chmod): the players join and hold DRAW again.
    for _ in range(3):
        view = service.table.view().to_json()
        for seat in (0, 1):
            if not view["seats"][seat]["joined"]:
                press(service, seat)
                shown(lambda view, seat=seat: view["seats"][seat]["joined"], wait=min(wait, 2))
        hold(service, 0)
        taken = shown(lambda view: view["phase"] != "lobby", wait=min(wait, 5))
        if taken[0] != "lobby":
            break
    shows.append(taken)
    service.stop()
    assert service.failure is None
    return shows


def test_a_journal_file_made_read_only_refuses_inputs_until_it_is_writable_again():
    # As the service's user: root writes a read-only file all the same, so as root the
    # table runs as nobody, in a folder of its own, in a child process.
    folder = Path(tempfile.mkdtemp(prefix="roundhouse-ro-", dir="/tmp"))
    as_root = os.geteuid() == 0
    if as_root:
        # Played once as root first, so that every module the play imports is loaded
        # before the child is nobody, who may not read where Python and the project are.
        with contextlib.suppress(AssertionError):
            play_on_a_journal_made_read_only(Path(tempfile.mkdtemp(dir=folder)), wait=0.5)
        shutil.rmtree(folder)
        folder.mkdir(mode=0o700)
        os.chown(folder, 65534, 65534)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            if as_root:
                os.setgroups([])
                os.setresgid(65534, 65534, 65534)
                os.setresuid(65534, 65534, 65534)
            answer: Any = play_on_a_journal_made_read_only(folder)
        except BaseException as err:
            answer = repr(err)
        finally:
            with os.fdopen(write, "w") as out:
                json.dump(answer, out)
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer_file:
        answer = json.load(answer_file)
    os.waitpid(pid, 0)
    shutil.rmtree(folder, ignore_errors=True)
    assert isinstance(answer, list), answer
    refused, [logged], taken = answer
    assert "the file is not writable by this user" in logged
    assert "check the disk" not in logged
    # Read-only: a seat's join is refused on screen, the table stays in the lobby.
    assert refused == ["lobby", "The table's disk takes no writes: nothing was lost. "
                                "Check the disk."]
    # Writable again: the same input is taken, with no restart.
    assert taken[0] != "lobby" and taken[1] is None


def test_the_service_on_a_full_disk_says_so_and_never_calls_the_journal_damaged(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        config = write_config(tmp_path, {'database = "t.db"': f'database = "{disk.path}/t.db"'})
        Journal(disk.path / "t.db").close()
        disk.fill()
        for args in ((), ("--move-aside",)):
            proc = run(tmp_path, "--config", str(config), *args)
            _, err = proc.communicate(timeout=30)
            assert proc.returncode == 2
            assert "its disk is full: free some space" in err
            assert "--move-aside" not in err and "Traceback" not in err
        assert not list(disk.path.glob("*broken*"))


# --- one journal, one service ------------------------------------------------------------


def test_a_second_service_on_the_same_journal_is_refused_naming_the_first(tmp_path):
    config = write_config(tmp_path)
    listener = NotifyListener(tmp_path / "notify")
    first = run(tmp_path, "--config", str(config), env={"NOTIFY_SOCKET": str(listener.path)})
    try:
        listener.until("READY=1\nSTATUS=serving 4 seats on " + str(tmp_path / "view.sock"))
        screen = ViewReader(tmp_path / "view.sock")
        screen.next()
        other = tmp_path / "other"
        other.mkdir()
        second = write_config(other, {'database = "t.db"': f'database = "{tmp_path}/t.db"'})
        proc = run(other, "--config", str(second))
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 2
        [line] = err.splitlines()
        assert f"in use by pid {first.pid}" in line and str(tmp_path / "t.db") in line
        assert not (other / "view.sock").exists()

        sim = subprocess.run([sys.executable, "-m", "firmware_py.cli", "sim", "--db",
                              str(tmp_path / "t.db"), "--headless", "--speed", "0"],
                             capture_output=True, text=True, timeout=60, cwd=other)
        assert sim.returncode != 0
        assert f"in use by pid {first.pid}" in sim.stderr.splitlines()[-1]
        assert "Traceback" not in sim.stderr

        # The one service goes on; games and export read the journal meanwhile.
        games = subprocess.run([sys.executable, "-m", "firmware_py.cli", "games", "--db",
                                str(tmp_path / "t.db")], capture_output=True, text=True,
                               timeout=30)
        assert games.returncode == 0 and games.stdout.startswith("no games in")
        assert first.poll() is None
        first.send_signal(signal.SIGTERM)
        assert first.wait(10) == 0
        screen.close()
    finally:
        first.kill()
        listener.close()


def test_games_and_export_read_the_journal_while_the_service_plays(tmp_path, capsys):
    from firmware_py.cli import main

    service = Service(sim_config(tmp_path), attach_hardware=False)
    service.start()
    screen = ViewReader(tmp_path / "view.sock")
    press(service, 0)
    press(service, 1)
    hold(service, 0)
    press(service, 0)
    first_view(screen, lambda v: v["phase"] != "lobby" and v["rejection"] is None
               and v["prompt"] and "leads" not in v["prompt"])
    assert main(["games", "--db", str(tmp_path / "t.db")]) == 0
    assert "Ana, Bo" in capsys.readouterr().out
    assert main(["export", "1", "--db", str(tmp_path / "t.db")]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["Ana", "Bo"]
    service.stop()
    screen.close()


# --- start-up: the full check only when it is needed -------------------------------------


def _journal_with_games(path: Path, games: int) -> None:
    journal = Journal(path)
    for n in range(games):
        game = journal.begin_game({"players": ["Ana", "Bo"], "preset": "classic"})
        journal.append(game, {"t": "lead", "seat": 0, "padding": "x" * 2000, "n": n},
                       finish={"ranking": [0, 1], "winner": "Ana"})
    journal.close()


def _damage_a_page_in_the_middle(path: Path) -> None:
    # An old game's page, one no start-up query reads: only the full check sees it.
    size = path.stat().st_size
    with open(path, "r+b") as out:
        out.seek((size // 4096 // 2) * 4096)
        out.write(b"\xa5" * 4096)


def test_every_start_checks_and_a_refusal_holds_until_moved_aside(tmp_path):
    db = tmp_path / "t.db"
    _journal_with_games(db, 60)
    _damage_a_page_in_the_middle(db)
    # The last stop was clean, and the damaged file is still refused, in one line.
    with pytest.raises(JournalDamaged, match="the integrity check failed") as refused:
        Journal(db)
    assert "\n" not in str(refused.value)
    proc = run(tmp_path, "--config", str(write_config(tmp_path)))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "the integrity check failed" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    # The refusal holds at the next start, whatever the first one's close did.
    proc = run(tmp_path, "--config", str(write_config(tmp_path)))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "refused since an earlier start" in err, err
    # A person acts: the file is moved aside, kept, and a fresh journal serves.
    moved = Journal(db, move_aside=True)
    assert moved.moved_to is not None and moved.moved_to.is_file()
    assert moved.games() == []
    moved.close()
    Journal(db).close()
    assert not (tmp_path / "t.db.refused").exists()


def test_an_unclean_stop_is_known_at_the_next_start_only(tmp_path):
    db = tmp_path / "t.db"
    _journal_with_games(db, 60)
    # Killed: SQLite's write-ahead log is left behind.
    pid = os.fork()
    if pid == 0:
        Journal(db).begin_game({"players": ["Ana", "Bo"]})
        os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    journal = Journal(db)
    assert journal.unclean
    journal.close()
    again = Journal(db)
    assert not again.unclean
    again.close()


def test_only_a_damaged_journal_is_moved_aside_and_never_a_device(tmp_path):
    config = dataclasses.replace(sim_config(tmp_path), database=Path("/dev/null"))
    service = Service(config, attach_hardware=False, move_aside=True)
    with pytest.raises(JournalError, match="is not a regular file"):
        service.start()
    assert Path("/dev/null").is_char_device()
    assert not list(Path("/dev").glob("null.broken-*"))


# --- too many screens ----------------------------------------------------------------------


def numbered(n: int) -> View:
    """A view told apart by its round."""
    sample = load_view(Path(__file__).parents[1] / "views" / "play_4.json")
    return dataclasses.replace(sample, round=n)


def test_screens_beyond_the_bound_are_refused_clearly_and_the_others_served(tmp_path):
    publisher = ViewPublisher(tmp_path / "view.sock")
    publisher.start()
    publisher.publish(numbered(0))
    screens = [ViewReader(publisher.path) for _ in range(MAX_SCREENS)]  # at once
    for screen in screens:
        assert screen.next()["round"] == 0
    extra = ViewReader(publisher.path)
    refusal = extra.next()
    assert refusal == {"refused": f"this table already serves {MAX_SCREENS} screens: "
                                  "close one and connect again"}
    assert extra.file.readline() == b""  # and closed
    extra.close()
    publisher.publish(numbered(1))
    for screen in screens:
        assert screen.next()["round"] == 1
    screens.pop().close()
    deadline = time.monotonic() + 10
    while publisher.screens == MAX_SCREENS and time.monotonic() < deadline:
        time.sleep(0.01)
    late = ViewReader(publisher.path)
    assert late.next()["round"] == 1
    for screen in [*screens, late]:
        screen.close()
    publisher.close()


def test_screens_that_never_read_never_keep_a_real_one_out(tmp_path):
    publisher = ViewPublisher(tmp_path / "view.sock")
    publisher.start()
    publisher.publish(numbered(0))
    stuck = []
    for _ in range(MAX_SCREENS):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(publisher.path))
        sock.settimeout(10)
        # Its first view has arrived, and is left unread (peeked at, not taken).
        assert sock.recv(1, socket.MSG_PEEK) == b"{"
        stuck.append(sock)
    # The table is idle: nothing more is published, no write stalls.
    for _ in range(3):
        real = ViewReader(publisher.path)
        assert real.next()["round"] == 0  # served, not refused
        real.close()
    # Those that were dropped for it are closed; the others still wait.
    closed = 0
    for sock in stuck:
        assert sock.recv(65536).count(b"\n") == 1  # its one view, still there
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            closed += sock.recv(65536) == b""
    assert closed >= 1
    for sock in stuck:
        sock.close()
    publisher.close()


def test_a_refused_screen_says_why_and_is_served_once_a_place_frees(tmp_path, monkeypatch,
                                                                    capsys):
    import firmware_py.daemon
    from roundhouse.feed import ViewFeed

    monkeypatch.setattr(firmware_py.daemon, "MAX_SCREENS", 2)
    publisher = ViewPublisher(tmp_path / "view.sock")
    publisher.start()
    publisher.publish(numbered(4))
    screens = [ViewReader(publisher.path) for _ in range(2)]
    for screen in screens:
        screen.next()
    feed = ViewFeed(str(publisher.path), backoff=(0.02, 0.1))
    deadline = time.monotonic() + 10
    while "refused this screen" not in (err := capsys.readouterr().err):
        assert feed.poll(0.05) is None
        assert time.monotonic() < deadline, err
    assert "this table already serves 2 screens: close one and connect again" in err
    screens.pop().close()
    view = None
    while view is None:
        view = feed.poll(0.05)
        assert time.monotonic() < deadline + 10
    assert view.phase == "play"
    feed.close()
    for screen in screens:
        screen.close()
    publisher.close()


def test_screens_past_the_file_limit_wait_and_the_service_keeps_serving(tmp_path):
    spare = 12
    context = multiprocessing.get_context("fork")
    ready = context.Event()
    child = context.Process(target=serve_with_few_files, args=(tmp_path, spare, ready),
                            daemon=True)
    child.start()
    try:
        assert ready.wait(30)
        screens = []
        for _ in range(spare + 20):  # connecting needs none of the service's files
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(str(tmp_path / "view.sock"))  # waits in the listen backlog
            sock.settimeout(10)
            screens.append(sock)
        time.sleep(1.5)  # the service has run into EMFILE by now
        first = [ViewReader.__new__(ViewReader) for _ in range(spare - 2)]
        for reader, sock in zip(first, screens, strict=False):
            reader.sock, reader.file = sock, sock.makefile("rb")
            a, b = reader.next()["seq"], reader.next()["seq"]
            assert b > a  # still served
        assert child.is_alive()
        # Screens that leave make room for those waiting: they are served in turn.
        for reader in first:
            reader.close()
        waiting = ViewReader.__new__(ViewReader)
        waiting.sock = screens[spare + 4]  # was beyond the limit, now among the next
        waiting.file = waiting.sock.makefile("rb")
        views = [waiting.next(), waiting.next()]
        assert len(views) == 2 and views[1]["seq"] > views[0]["seq"]
        assert child.is_alive()
    finally:
        child.kill()
        child.join()


# --- the watchdog: fed only while every thread the table needs runs ----------------------


def _silent_after(listener: NotifyListener, seconds: float) -> bool:
    """Whether no WATCHDOG=1 arrives within `seconds`, pings already sent drained."""
    listener.sock.setblocking(False)
    with contextlib.suppress(BlockingIOError):
        while True:
            listener.sock.recv(4096)
    listener.sock.settimeout(seconds)
    try:
        listener.until("WATCHDOG=1")
    except TimeoutError:
        return True
    return False


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.parametrize("dies", ["view publisher", "reader"])
def test_the_watchdog_starves_when_a_thread_the_table_needs_dies(tmp_path, dies,
                                                                 monkeypatch):
    import firmware_py.daemon

    listener = NotifyListener(tmp_path / "notify")
    notifier = Notifier({"NOTIFY_SOCKET": str(listener.path), "WATCHDOG_USEC": "100000"})
    service = Service(sim_config(tmp_path, watchdog=True), notifier=notifier)
    service.start()
    assert listener.until("WATCHDOG=1")
    if dies == "view publisher":
        def defect(*_: object) -> bool:
            raise RuntimeError("a defect in serving the screens")

        monkeypatch.setattr(firmware_py.daemon._Client, "pump", defect)
        screen = ViewReader(tmp_path / "view.sock")  # the views thread dies serving it
        press(service, 0)
    else:
        service._readers[0].close()  # its thread ends
    deadline = time.monotonic() + 10
    while not service._dead_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert service._dead_threads()
    assert _silent_after(listener, 1.0)
    assert not service.finished.is_set()  # the controller runs: only systemd restarts
    service.stop()
    listener.close()
    if dies == "view publisher":
        screen.close()


def test_the_unit_gives_room_for_every_screen_and_the_tables_own_files():
    limit = unit()["Service"]["LimitNOFILE"]
    soft, _, hard = limit.partition(":")
    # Screens (one descriptor each), readers, buttons, journal, registry, notify socket.
    assert int(soft) >= MAX_SCREENS + 64
    assert not hard or int(hard) >= int(soft)
