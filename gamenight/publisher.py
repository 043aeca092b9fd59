"""`roundhouse publish`: a table's results and state, sent to the night's broker.

    roundhouse publish --table NAME --broker HOST:PORT [--config FILE | --db PATH --socket PATH]
                       [--username U --password-file F] [--cafile CA]

Beside the table service, never inside it: it follows the view socket for the table's
public state (published retained, so a wall that starts late sees every table at once)
and reads the journal read-only for the results. Its last will marks the table offline.

The journal is the truth, the broker only carries it: on every connection to the broker
(the first, and each one after a drop of the Wi-Fi or a restart of the broker, which
loses what it had not yet saved) and whenever the league asks (`roundhouse/league/resync`:
the league starting with an empty database), the publisher sends every game's score
sheet again from the journal. A round's message holds the game's whole sheet so far and
a game's message its final ranking, each named by table, game and round, so the league
stores each once however often it hears it. A table that was off the network all
evening catches up when it is back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from gamenight.follow import TableFollower
from gamenight.mqtt import (
    KEEPALIVE_S,
    RESYNC,
    Broker,
    BrokerError,
    add_broker_options,
    broker_of,
    check_table_name,
    client,
    stop_on_sigterm,
    table_topic,
)
from gamenight.results import Results, Sheet
from roundhouse.errors import RoundhouseError
from roundhouse.view import View


def state_message(table: str, view: View | None, online: bool) -> dict[str, Any]:
    """The table's public state for the league and the wall: as the wall shows it."""
    if view is None:
        return {"table": table, "online": online, "phase": None}
    return {
        "table": table,
        "online": online,
        "phase": view.phase.value,
        "round": view.round,
        "rounds": view.rounds,
        "turn": view.turn,
        "players": [s.name for s in view.seats if s.joined or view.phase.value != "lobby"],
        "hands": [s.hand for s in view.seats],
        "totals": list(view.totals),
        "ranking": list(view.ranking) if view.ranking is not None else None,
    }


def round_message(table: str, sheet: Sheet) -> dict[str, Any]:
    return {"table": table, "game": sheet.game, "round": len(sheet.scores),
            "players": list(sheet.players), "cards": list(sheet.cards),
            "scores": [list(r) for r in sheet.scores]}


def game_message(table: str, sheet: Sheet) -> dict[str, Any]:
    return {"table": table, "game": sheet.game, "players": list(sheet.players),
            "cards": list(sheet.cards), "scores": [list(r) for r in sheet.scores],
            "totals": list(sheet.totals),
            "ranking": list(sheet.ranking or ())}


class Publisher:
    def __init__(self, table: str, broker: Broker, results: Results,
                 follower: TableFollower) -> None:
        self.table = table
        self.broker = broker
        self.results = results
        self.follower = follower
        # What this connection has sent: emptied on every connection, so a broker that
        # lost everything is sent everything again.
        self._sent: dict[str, str] = {}
        self._sent_lock = threading.Lock()
        self._resync = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waking: asyncio.Future[None] | None = None
        self.mqtt = client(broker, f"roundhouse-table-{table}", who="roundhouse publish")
        self.mqtt.will_set(table_topic(table, "status"), "offline", qos=1, retain=True)
        self.mqtt.on_connect = self._connected
        self.mqtt.on_message = self._message

    # paho's thread ----------------------------------------------------------------------

    def _connected(self, c: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                   reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            print(f"roundhouse publish: the broker refused table {self.table}: {reason} "
                  "(check --username and --password-file)", file=sys.stderr)
            return
        c.publish(table_topic(self.table, "status"), "online", qos=1, retain=True)
        c.subscribe(RESYNC, qos=1)
        self._ask_resync()

    def _message(self, c: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == RESYNC:
            self._ask_resync()

    def _ask_resync(self) -> None:
        with self._sent_lock:
            self._sent.clear()
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        self._resync.set()
        self._waking = asyncio.ensure_future(self.follower.signal.bump())

    # the publisher's own loop -------------------------------------------------------------

    def _send(self, leaf: str, key: str, payload: dict[str, Any], *, retain: bool) -> None:
        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        with self._sent_lock:
            if self._sent.get(key) == text:
                return
            self._sent[key] = text
        self.mqtt.publish(table_topic(self.table, leaf), text, qos=1, retain=retain)

    def publish_results(self) -> None:
        try:
            sheets = self.results.sheets()
        except RoundhouseError as err:
            # The journal cannot be read now (the service moving a damaged one aside, a
            # disk failing): the next round's end, or the next connection, tries again.
            print(f"roundhouse publish: {err}", file=sys.stderr)
            return
        for sheet in sheets:
            self._send("round", f"round {sheet.game}", round_message(self.table, sheet),
                       retain=False)
            if sheet.ranking is not None:
                self._send("game", f"game {sheet.game}", game_message(self.table, sheet),
                           retain=False)
        for problem in self.results.problems:
            print(f"roundhouse publish: {problem}", file=sys.stderr)
        self.results.problems.clear()

    def publish_state(self) -> None:
        self._send("state", "state",
                   state_message(self.table, self.follower.view, self.follower.online),
                   retain=True)

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.mqtt.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S)
        self.mqtt.loop_start()
        follow = asyncio.create_task(self.follower.run())
        seen = -1
        shape: tuple[object, ...] | None = None
        try:
            while True:
                view = self.follower.view
                # A round or a game ends when the view's score sheet grows or the phase
                # changes: only then is the journal read again.
                now = (len(view.scores), view.phase) if view is not None else None
                if self._resync.is_set() or now != shape:
                    self._resync.clear()
                    shape = now
                    await asyncio.to_thread(self.publish_results)
                self.publish_state()
                seen = await self.follower.signal.wait(seen, 30.0)
        finally:
            follow.cancel()
            said = self.mqtt.publish(table_topic(self.table, "status"), "offline", qos=1,
                                     retain=True)
            # Not connected (the broker away): nothing to say it to, and the broker says
            # the last will for a table it had and lost.
            with contextlib.suppress(RuntimeError):
                said.wait_for_publish(2.0)
            self.mqtt.disconnect()
            self.mqtt.loop_stop()


def configure_publish(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", required=True,
                        help="this table's name in the league (its broker user too)")
    parser.add_argument("--config", type=Path,
                        help="the table's configuration file: its journal and view socket")
    parser.add_argument("--db", type=Path, help="the journal (instead of --config's)")
    parser.add_argument("--socket", type=Path, help="the view socket (instead of --config's)")
    add_broker_options(parser, required=True)


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    database, socket = args.db, args.socket
    if args.config is not None:
        from firmware_py.config import load_config

        config = load_config(args.config)
        database = database or config.database
        socket = socket or config.socket
    if database is None or socket is None:
        raise BrokerError("give --config FILE, or both --db and --socket")
    return Path(database), Path(socket)


def run_publish(args: argparse.Namespace) -> int:
    try:
        table = check_table_name(args.table)
        broker = broker_of(args)
        assert broker is not None  # --broker is required
        database, socket = _paths(args)
    except RoundhouseError as err:
        print(f"roundhouse publish: {err}", file=sys.stderr)
        return 2
    stop_on_sigterm()
    publisher = Publisher(table, broker, Results(database), TableFollower(socket))
    print(f"roundhouse publish: table {table} (pid {os.getpid()}) to "
          f"{broker.host}:{broker.port}, from {database} and {socket}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(publisher.run())
    return 0
