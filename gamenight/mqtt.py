"""The broker of a game night, as the tables' publishers, the league and the pages reach
it: its address, a table's or the league's credentials, TLS, and the topics.

The topics (docs/game-night.md):

    roundhouse/table/<table>/status   "online" / "offline" (retained; the last will)
    roundhouse/table/<table>/state    the table's public state (retained)
    roundhouse/table/<table>/round    one finished round (QoS 1)
    roundhouse/table/<table>/game     one finished game (QoS 1)
    roundhouse/league/resync          the league asks every table to publish again
    roundhouse/league/standings       the standings (retained, published by the league)

Every client speaks MQTT 3.1.1 through paho-mqtt 2's VERSION2 callbacks: `client()` is
the only place a client is made.
"""

from __future__ import annotations

import argparse
import re
import signal
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from roundhouse.errors import RoundhouseError

PREFIX = "roundhouse"
RESYNC = f"{PREFIX}/league/resync"
STANDINGS = f"{PREFIX}/league/standings"
TABLE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
KEEPALIVE_S = 15


class BrokerError(RoundhouseError):
    """The broker's address or credentials, as given, cannot be used."""


def table_topic(table: str, leaf: str) -> str:
    return f"{PREFIX}/table/{table}/{leaf}"


def check_table_name(name: str) -> str:
    if not TABLE_NAME.match(name):
        raise BrokerError(f"table name {name!r}: use 1 to 40 letters, digits, - or _ (it is "
                          "part of the table's topics and its broker user)")
    return name


def check_follower_user(broker: Broker) -> None:
    """A page or a wall only reads the standings, under a broker user of its own. The
    shipped broker knows each client by its user (`use_username_as_clientid`), so a page
    under a table's user or the league's would throw that table or the league off."""
    user = broker.username
    if user is not None and TABLE_NAME.match(user):
        raise BrokerError(
            f"--username {user}: the page and the wall need a broker user of their own, "
            "with a dot in its name (table1.web, room.wall): under a table's or the "
            "league's user they would throw that table or the league off the broker")


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None  # TLS: the certificate authority that signed the broker's


def add_broker_options(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument("--broker", required=required, metavar="HOST:PORT",
                        help="the game night's MQTT broker" + (
                            "" if required else " (with it, the page shows the league)"))
    parser.add_argument("--username", help="this client's user on the broker")
    parser.add_argument("--password-file", type=Path,
                        help="a file holding the user's password (kept out of the process list)")
    parser.add_argument("--cafile", type=Path,
                        help="TLS: the certificate authority of the broker's certificate")


def broker_of(args: argparse.Namespace) -> Broker | None:
    if args.broker is None:
        return None
    host, _, port_text = str(args.broker).rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise BrokerError(f"--broker {args.broker!r}: give HOST:PORT, e.g. night.local:1883")
    password = None
    if args.password_file is not None:
        try:
            password = Path(args.password_file).read_text(encoding="utf-8").strip()
        except OSError as err:
            raise BrokerError(f"--password-file {args.password_file}: {err.strerror}") from None
    if args.cafile is not None and not Path(args.cafile).is_file():
        raise BrokerError(f"--cafile {args.cafile}: no such file")
    return Broker(host, int(port_text), args.username, password, args.cafile)


def client(broker: Broker, client_id: str, *, who: str, clean: bool = True) -> mqtt.Client:
    """A client for `broker` (not yet connected). `clean=False` keeps the session on the
    broker while the client is away, so QoS 1 messages wait for it. `who` ("roundhouse
    league") heads the line the log gets when the broker cannot be reached."""
    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                       clean_session=clean, protocol=mqtt.MQTTv311)
    if broker.username is not None:
        made.username_pw_set(broker.username, broker.password)
    if broker.ca_file is not None:
        made.tls_set(ca_certs=str(broker.ca_file), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    made.reconnect_delay_set(min_delay=1, max_delay=10)
    outage = _Outage(who, broker)
    made.on_connect_fail = outage.failed
    made.on_socket_open = outage.reached
    return made


class _Outage:
    """paho retries a broker it cannot reach without a word: the log gets one line when
    an outage begins, and another only after the broker was reached again."""

    def __init__(self, who: str, broker: Broker) -> None:
        self.who, self.broker = who, broker
        self.down = False

    def failed(self, c: mqtt.Client, userdata: object) -> None:
        if self.down:
            return
        self.down = True
        # paho calls this while it handles the connection's error.
        err = sys.exc_info()[1]
        why = str(err) if err is not None else "no answer"
        hint = ""
        if isinstance(err, ssl.SSLError):
            hint = (" (TLS: --cafile must be the authority that signed the broker's "
                    "certificate, and the certificate must name the host given to --broker)")
        print(f"{self.who}: cannot reach the broker at {self.broker.host}:{self.broker.port}"
              f": {why}{hint}; trying again until it answers", file=sys.stderr, flush=True)

    def reached(self, c: mqtt.Client, userdata: object, sock: object) -> None:
        if self.down:
            print(f"{self.who}: the broker at {self.broker.host}:{self.broker.port} "
                  "answers again", file=sys.stderr, flush=True)
        self.down = False


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """systemd's stop (SIGTERM) ends a service as Ctrl-C does, through its clean-up: a
    table says it goes offline before its connection closes."""
    signal.signal(signal.SIGTERM, _interrupt)
