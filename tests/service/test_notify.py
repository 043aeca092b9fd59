"""systemd notify over a real datagram socket, as systemd itself listens."""

import os
import socket

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
