"""The game night's commands answer a mistake with one line an installer can act on,
never a traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from firmware_py.cli import main


def _said(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_a_port_in_use_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["web", "--socket", str(tmp_path / "v.sock"), "--host", "127.0.0.1",
                     "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in _said(capsys)


@pytest.mark.parametrize(("args", "said"), [
    (["publish", "--table", "table 1", "--broker", "night:1883", "--db", "x", "--socket", "y"],
     "table name 'table 1'"),
    (["publish", "--table", "t1", "--broker", "night", "--db", "x", "--socket", "y"],
     "give HOST:PORT"),
    (["publish", "--table", "t1", "--broker", "night:1883"], "give --config FILE"),
    (["league", "--broker", "night:1883", "--password-file", "/nonexistent/secret"],
     "--password-file /nonexistent/secret"),
    (["web", "--broker", "night:99999"], "give HOST:PORT"),
    (["display", "--view", "league", "--broker", "night:1883", "--cafile", "/nonexistent"],
     "--cafile /nonexistent: no such file"),
    # A page or a wall under a table's or the league's user would throw it off the broker.
    (["web", "--socket", "v.sock", "--broker", "127.0.0.1:1", "--username", "table1"],
     "--username table1: the page and the wall need a broker user of their own"),
    (["display", "--view", "league", "--broker", "127.0.0.1:1", "--username", "league"],
     "--username league: the page and the wall need a broker user of their own"),
])
def test_a_wrong_broker_option_is_named(args: list[str], said: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert said in _said(capsys)
