"""`roundhouse league`: the standings of a game night's tables, across nights.

    roundhouse league --broker HOST:PORT [--db PATH] [--username league --password-file F]

Subscribes to every table's topics (docs/game-night.md), keeps their score sheets in
SQLite (gamenight.standings) and publishes the standings, retained, to
`roundhouse/league/standings` for the pages and the wall. Its session on the broker
outlives it (a fixed client id, no clean session), so the rounds that end while it
restarts wait for it on the broker; and each time it connects it asks every table to
send its journal's results again, so even a league that lost its database, or a broker
that lost its messages, ends with complete standings.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sqlite3
import sys
import threading
import time
import uuid
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from gamenight.mqtt import (
    KEEPALIVE_S,
    PREFIX,
    RESYNC,
    STANDINGS,
    TABLE_NAME,
    Broker,
    add_broker_options,
    broker_of,
    client,
    stop_on_sigterm,
)
from gamenight.standings import Standings, StandingsError
from roundhouse.errors import RoundhouseError

DEFAULT_DB = Path("/var/lib/roundhouse/league.db")
# The standings are published at most this often: fifty tables ending rounds together
# cost one computation, not fifty.
SETTLE_S = 0.1


class League:
    def __init__(self, broker: Broker, store: Standings, client_id: str = "roundhouse-league"
                 ) -> None:
        self.broker = broker
        self.store = store
        self._dirty = threading.Event()
        self._reported: set[str] = set()
        self.mqtt = client(broker, client_id, who="roundhouse league", clean=False)
        self.mqtt.on_connect = self._connected
        self.mqtt.on_message = self._message

    def _connected(self, c: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                   reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            print(f"roundhouse league: the broker refused the league: {reason}",
                  file=sys.stderr)
            return
        # A table that went away while the broker was down never had its last will said:
        # who is online is what the broker's retained statuses say from now on.
        self.store.all_offline()
        c.subscribe(f"{PREFIX}/table/+/+", qos=1)
        # Every table sends its journal's results again (they are counted once).
        c.publish(RESYNC, uuid.uuid4().hex, qos=1)
        self._dirty.set()

    def _message(self, c: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        parts = msg.topic.split("/")
        if len(parts) != 4 or not TABLE_NAME.match(parts[2]):
            return
        table, leaf = parts[2], parts[3]
        try:
            if leaf == "status":
                self.store.status(table, msg.payload == b"online")
            else:
                data = json.loads(msg.payload)
                if not isinstance(data, dict) or data.get("table") != table:
                    raise StandingsError("the message names another table than its topic")
                if leaf == "state":
                    self.store.status(table, True, data)
                elif leaf in ("round", "game"):
                    self.store.sheet(table, data, final=leaf == "game")
                else:
                    return
        except (ValueError, StandingsError) as err:  # JSON, or what it says
            self._report(f"table {table}: skipped a {leaf} message: {err}")
            return
        self._dirty.set()

    def _report(self, text: str) -> None:
        if text not in self._reported:
            self._reported.add(text)
            print(f"roundhouse league: {text}", file=sys.stderr)

    def publish_standings(self) -> None:
        payload = {"rows": [s.to_json() for s in self.store.standings()],
                   "tables_online": self.store.tables_online(), "at": time.time()}
        self.mqtt.publish(STANDINGS, json.dumps(payload, ensure_ascii=False), qos=1,
                          retain=True)

    def run(self, stop: threading.Event | None = None) -> None:
        stop = stop or threading.Event()
        self.mqtt.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S)
        self.mqtt.loop_start()
        try:
            while not stop.is_set():
                if self._dirty.wait(0.5):
                    time.sleep(SETTLE_S)
                    self._dirty.clear()
                    self.publish_standings()
        finally:
            self.mqtt.disconnect()
            self.mqtt.loop_stop()


def configure_league(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=DEFAULT_DB,
                        help=f"the league's database (default {DEFAULT_DB})")
    add_broker_options(parser, required=True)


def run_league(args: argparse.Namespace) -> int:
    try:
        broker = broker_of(args)
        assert broker is not None  # --broker is required
        store = Standings(args.db)
    except (RoundhouseError, OSError, sqlite3.Error) as err:
        print(f"roundhouse league: {err}", file=sys.stderr)
        return 2
    stop_on_sigterm()
    print(f"roundhouse league: standings in {args.db}, from {broker.host}:{broker.port}",
          flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        League(broker, store).run()
    store.close()
    return 0
