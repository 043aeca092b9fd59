"""systemd notify over a real datagram socket, as systemd itself listens."""

import os
import socket
import threading

import pytest

from firmware_py.notify import Notifier


@pytest.fixture
def listener(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def test_ready_watchdog_stopping_arrive_as_datagrams(listener):
    path, sock = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.ready("serving 4 seats")
    assert sock.recv(4096) == b"READY=1\nSTATUS=serving 4 seats"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_abstract_socket_written_with_at_sign():
    name = f"roundhouse-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(4096) == b"READY=1"


def test_without_notify_socket_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready()
    assert not notifier.watchdog()
    assert notifier.watchdog_interval is None


def test_a_vanished_systemd_does_not_stop_the_caller(tmp_path, caplog):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not notifier.watchdog()
    assert not notifier.watchdog()
    assert len([r for r in caplog.records if "cannot notify" in r.getMessage()]) == 1


def test_watchdog_interval_is_half_of_watchdogsec_and_only_for_this_process():
    assert Notifier({"WATCHDOG_USEC": "10000000"}).watchdog_interval == 5.0
    mine = {"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": str(os.getpid())}
    assert Notifier(mine).watchdog_interval == 2.0
    other = {"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert Notifier(other).watchdog_interval is None
    assert Notifier({"WATCHDOG_USEC": "soon"}).watchdog_interval is None


def _journal_of_a_long_game(db, entries: int = 3000) -> None:
    """A journal of three games, the newest one abandoned after `entries` entries."""
    import json
    import sqlite3

    from firmware_py.journal import Journal

    meta = {"players": ["Ana", "Bo"], "seats": [0, 1], "leader": 0,
            "preset": "tournament", "rules": "tournament", "hand_mode": "open"}
    journal = Journal(db)
    for _ in range(2):
        done = journal.begin_game(meta)
        journal.append(done, {"t": "action", "action": {"seat": 0, "draw": True}},
                       finish={"ranking": [0, 1], "winner": "Ana"})
    game = journal.begin_game(meta)
    journal.close()
    raw = sqlite3.connect(db)
    with raw:
        raw.executemany("INSERT INTO entries (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                        [(game, n, "2026-01-01T00:00:00+00:00",
                          json.dumps({"t": "hunt", "seat": n % 2, "pad": "x" * 200}))
                         for n in range(1, entries + 1)])
        raw.execute("UPDATE games SET finished = started, result = '{\"abandoned\": true}' "
                    "WHERE id = ?", (game,))
    raw.close()


def _said(sock) -> list[str]:
    """Every message waiting on the socket, without waiting for more."""
    out = []
    sock.setblocking(False)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.setblocking(True)
    return out


def test_a_long_journal_check_tells_systemd_the_start_goes_on(tmp_path, listener, monkeypatch):
    import itertools

    from test_daemon import sim_config

    from firmware_py import journal, notify
    from firmware_py.daemon import Service

    path, sock = listener
    db = tmp_path / "t.db"
    _journal_of_a_long_game(db)
    # A slow check, made so by the clock: every 100 steps of SQLite's take a second.
    monkeypatch.setattr(journal, "CHECK_STEPS", 100)
    monkeypatch.setattr(notify, "_clock", itertools.count().__next__)
    # systemd, reading as the service sends (a datagram socket's queue is short).
    before_ready: list[str] = []

    def systemd() -> None:
        for message in iter(lambda: sock.recv(4096).decode(), None):
            if message.startswith("READY=1"):
                return
            before_ready.append(message)

    reading = threading.Thread(target=systemd)
    reading.start()
    service = Service(sim_config(tmp_path, database=db), attach_hardware=False,
                      notifier=Notifier({"NOTIFY_SOCKET": path}))
    service.start()
    try:
        reading.join()
        extended = [m for m in before_ready if "EXTEND_TIMEOUT_USEC=15000000" in m]
        assert len(extended) >= 2, before_ready
        assert before_ready[0].splitlines()[0] == f"STATUS=checking the journal {db}"
        # The archive's own check, after READY, tells systemd nothing of the kind.
        assert service.journal.archived.wait(30)
        assert not [m for m in _said(sock) if "EXTEND_TIMEOUT_USEC" in m]
    finally:
        service.stop()


def test_a_quick_check_and_no_systemd_send_nothing(tmp_path, listener):
    from test_daemon import sim_config

    from firmware_py.daemon import Service
    from firmware_py.notify import still_starting

    assert still_starting(Notifier({}), "checking") is None
    path, sock = listener
    db = tmp_path / "t.db"
    _journal_of_a_long_game(db)
    service = Service(sim_config(tmp_path, database=db), attach_hardware=False,
                      notifier=Notifier({"NOTIFY_SOCKET": path}))
    service.start()
    try:
        # The machine's own clock: the check is over long before systemd need be told.
        assert sock.recv(4096).decode().startswith("READY=1")
    finally:
        service.stop()
