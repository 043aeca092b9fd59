"""The journal holds every hidden hand of a tracked game: it is the service's alone.
The screens get the view socket, in a group of their own, and nothing else."""

from __future__ import annotations

import grp
import os
import re
import stat
from pathlib import Path

import pytest
from test_daemon import sim_config

import firmware_py.daemon
from firmware_py.daemon import Service, ViewPublisher
from firmware_py.journal import Journal

ROOT = Path(__file__).resolve().parents[2]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_journal_and_its_side_files_are_the_services_alone(tmp_path):
    db = tmp_path / "t.db"
    journal = Journal(db)
    game = journal.begin_game({"players": ["Ana", "Bo"]})
    journal.append(game, {"t": "dealt", "seat": 0, "tile": "12-5"})
    for suffix in ("", "-wal", "-shm", ".lock"):
        assert mode(db.with_name("t.db" + suffix)) & 0o077 == 0, suffix
    journal.close()
    # A journal of an older version, readable by its group, is made private at a start.
    db.chmod(0o640)
    Journal(db).close()
    assert mode(db) == 0o600


def test_the_view_socket_belongs_to_the_screens_group(tmp_path, monkeypatch):
    other = [g for g in os.getgroups() if g != os.getgid()]
    if os.geteuid() == 0:
        other = [grp.getgrnam("nogroup").gr_gid] if _has("nogroup") else other
    if not other:
        pytest.skip("this user is in no group but its own")
    monkeypatch.setattr(firmware_py.daemon, "VIEW_GROUP", grp.getgrgid(other[0]).gr_name)
    publisher = ViewPublisher(tmp_path / "view.sock")
    publisher.start()
    try:
        info = publisher.path.stat()
        assert info.st_gid == other[0] and stat.S_IMODE(info.st_mode) == 0o660
    finally:
        publisher.close()


def test_a_system_without_the_screens_group_still_serves(tmp_path, monkeypatch):
    monkeypatch.setattr(firmware_py.daemon, "VIEW_GROUP", "no-such-group-here")
    service = Service(sim_config(tmp_path), attach_hardware=False)
    service.start()
    try:
        assert service.config.socket.is_socket()
    finally:
        service.stop()


def test_the_screens_units_run_as_a_user_that_cannot_read_the_journal():
    display = (ROOT / "systemd" / "roundhouse-display@.service").read_text()
    service = (ROOT / "systemd" / "roundhouse.service").read_text()
    users = (ROOT / "systemd" / "sysusers.d" / "roundhouse.conf").read_text()
    assert re.search(r"^User=roundhouse-view$", display, re.M)
    assert re.search(r"^User=roundhouse$", service, re.M)
    assert "roundhouse-view" in re.search(r"^SupplementaryGroups=(.*)$", service, re.M)[1]
    assert re.search(r"^UMask=0077$", service, re.M)
    assert re.search(r"^StateDirectoryMode=0700$", service, re.M)
    # The screens' user is in no group of the service's.
    assert not re.search(r"^m roundhouse-view roundhouse$", users, re.M)
    assert re.search(r"^m roundhouse roundhouse-view$", users, re.M)


def _has(group: str) -> bool:
    try:
        grp.getgrnam(group)
    except KeyError:
        return False
    return True
