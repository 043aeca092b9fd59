"""A publisher or a league that cannot reach the broker says so, once per outage, and
stops cleanly all the same."""

from __future__ import annotations

import getpass
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from night_services import MOSQUITTO, Processes, free_port, listening, wait_until

from gamenight.mqtt import Broker, client

OPENSSL = shutil.which("openssl")


def test_an_unreachable_broker_is_said_once_an_outage(
        capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()  # nothing listens there
    made = client(Broker("127.0.0.1", port), "probe", who="roundhouse league")
    made.reconnect_delay_set(min_delay=1, max_delay=1)
    failed = made.on_connect_fail
    attempts: list[int] = []

    def counted(c: object, userdata: object) -> None:
        attempts.append(1)
        failed(c, userdata)

    made.on_connect_fail = counted
    made.connect_async("127.0.0.1", port)
    made.loop_start()
    try:
        wait_until(lambda: len(attempts) >= 3, "three attempts to connect")
    finally:
        made.loop_stop()
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"roundhouse league: cannot reach the broker at 127.0.0.1:{port}: "
                     "[Errno 111] Connection refused; trying again until it answers"]


def test_a_publisher_without_its_broker_says_so_and_stops_cleanly(
        processes: Processes, tmp_path: Path) -> None:
    port = free_port()
    publisher = processes.roundhouse(
        "publish", "publish", "--table", "t1", "--db", str(tmp_path / "t1.db"),
        "--socket", str(tmp_path / "t1.sock"), "--broker", f"127.0.0.1:{port}")
    wait_until(lambda: "cannot reach the broker" in processes.log("publish"),
               "the publisher saying it cannot reach the broker")
    publisher.send_signal(signal.SIGTERM)
    assert publisher.wait(timeout=20) == 0
    said = processes.log("publish")
    assert "Traceback" not in said
    assert f"cannot reach the broker at 127.0.0.1:{port}: [Errno 111]" in said


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """An authority of its own and a broker certificate for another host's name."""
    assert OPENSSL is not None
    ca_key, ca, key, request, cert = (folder / n for n in (
        "ca.key", "ca.crt", "broker.key", "broker.csr", "broker.crt"))
    for args in (
        ["req", "-x509", "-newkey", "rsa:2048", "-days", "2", "-nodes", "-keyout", ca_key,
         "-out", ca, "-subj", "/CN=night-ca"],
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request,
         "-subj", "/CN=night.invalid"],
        ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
         "-days", "2", "-out", cert],
    ):
        subprocess.run([OPENSSL, *map(str, args)], check=True, capture_output=True,
                       timeout=60)
    return ca, cert, key


@pytest.mark.skipif(shutil.which(MOSQUITTO) is None or OPENSSL is None,
                    reason="Debian's mosquitto and openssl are needed")
def test_a_broker_certificate_for_another_name_is_said(
        processes: Processes, tmp_path: Path) -> None:
    ca, cert, key = _certificates(tmp_path)
    port = free_port()
    conf = tmp_path / "tls.conf"
    conf.write_text(f"listener {port} 127.0.0.1\ncertfile {cert}\nkeyfile {key}\n"
                    f"allow_anonymous true\nuser {getpass.getuser()}\n")
    processes.start("mosquitto", [MOSQUITTO, "-c", str(conf)])
    wait_until(lambda: listening(port), "mosquitto listening with TLS")
    league = processes.roundhouse("league", "league", "--db", str(tmp_path / "league.db"),
                                  "--broker", f"127.0.0.1:{port}", "--cafile", str(ca))
    wait_until(lambda: "cannot reach the broker" in processes.log("league"),
               "the league saying it cannot reach the broker")
    league.send_signal(signal.SIGTERM)
    assert league.wait(timeout=20) == 0
    said = processes.log("league")
    assert "Traceback" not in said
    assert said.count("cannot reach the broker") == 1
    assert "certificate" in said and "must name the host given to --broker" in said
