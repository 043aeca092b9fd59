"""The league across tables on a real mosquitto: standings complete and counted once
whatever is killed (a table's publisher, the league, the broker), rebuilt from the
tables' journals; one table cannot write another's results."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import threading
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from night_services import MOSQUITTO, Mosquitto, Processes, free_port, listening, wait_until
from paho.mqtt.enums import CallbackAPIVersion

pytestmark = pytest.mark.skipif(shutil.which(MOSQUITTO) is None,
                                reason="Debian's mosquitto is not installed (.ci/run installs it)")
STANDINGS = "roundhouse/league/standings"
RESYNC = "roundhouse/league/resync"
RESULT = re.compile(r"Game 1: (\S+) wins \((.*)\)")


class Watcher:
    """The retained standings as a page sees them, through a page's user."""

    def __init__(self, broker: Mosquitto, user: str) -> None:
        self.latest: dict[str, Any] | None = None
        self.heard: list[tuple[str, bytes]] = []  # every message, in order
        self._lock = threading.Lock()
        self._echo = f"roundhouse/table/{user}/echo"
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"watch-{user}")
        self.client.username_pw_set(user, broker.password(user))
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = lambda c, *_: c.subscribe(
            [(STANDINGS, 1), (RESYNC, 1), (self._echo, 1)])
        self.client.on_message = self._message
        self.client.connect_async("127.0.0.1", broker.port, keepalive=5)
        self.client.loop_start()

    def _message(self, c: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.heard.append((msg.topic, msg.payload))
            if msg.topic == STANDINGS:
                self.latest = json.loads(msg.payload)

    def caught_up(self) -> list[tuple[str, bytes]]:
        """Everything the broker had sent it before now: a message of its own, sent
        round through the broker, arrives after all of them."""
        token = uuid.uuid4().hex.encode()
        self.client.publish(self._echo, token, qos=1)
        wait_until(lambda: (self._echo, token) in self.heard, "the watcher's own echo")
        with self._lock:
            return list(self.heard)

    def table(self) -> dict[str, tuple[int, int, int, int]]:
        with self._lock:
            rows = self.latest["rows"] if self.latest else []
        return {r["player"]: (r["games"], r["wins"], r["rounds"], r["points"]) for r in rows}

    def online(self) -> int:
        with self._lock:
            return int(self.latest["tables_online"]) if self.latest else -1

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _expected(logs: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """The standings the tables' own announcements add up to."""
    tally: dict[str, list[int]] = {}
    for log in logs:
        found = RESULT.search(log)
        assert found is not None, log
        for item in found.group(2).split(", "):
            name, total = item.rsplit(" ", 1)
            line = tally.setdefault(name, [0, 0, 0, 0])
            line[0] += 1
            line[1] += int(name == found.group(1))
            line[2] += 2
            line[3] += int(total)
    return {name: (g, w, r, p) for name, (g, w, r, p) in tally.items()}


def _play(processes: Processes, tables: list[str], folder: Path) -> list[str]:
    """A whole game of two rounds at each table, flat out, journaled."""
    sims = [processes.roundhouse(f"sim-{t}", "sim", "--headless", "--speed", "0",
                                 "--rounds", "2", "--seed", str(20 + i),
                                 "--db", str(folder / f"{t}.db"),
                                 "--socket", str(folder / f"{t}.sock"))
            for i, t in enumerate(tables)]
    for sim in sims:
        assert sim.wait(timeout=240) == 0
    return [processes.log(f"sim-{t}") for t in tables]


def test_the_standings_survive_every_kill_and_count_each_game_once(
    processes: Processes, tmp_path: Path
) -> None:
    tables = ["t1", "t2", "t3"]
    logs = _play(processes, tables, tmp_path)
    broker = Mosquitto(processes, [*tables, "t4", "league", "t1.watch", "t1.web", "room.wall"])
    broker.start()
    league_db = tmp_path / "league.db"

    def league() -> Any:
        return processes.roundhouse("league", "league", "--db", str(league_db),
                                    *broker.credentials("league"))

    def publisher(table: str) -> Any:
        return processes.roundhouse(f"publish-{table}", "publish", "--table", table,
                                    "--db", str(tmp_path / f"{table}.db"),
                                    "--socket", str(tmp_path / f"{table}.sock"),
                                    *broker.credentials(table))

    running = {"league": league(), "t1": publisher("t1"), "t2": publisher("t2")}
    watcher = Watcher(broker, "t1.watch")
    try:
        two = _expected(logs[:2])
        wait_until(lambda: watcher.table() == two and watcher.online() == 2,
                   "the standings of two tables", timeout=60)

        # One table cannot write another's results: the broker drops the forgery.
        forger = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="forger")
        forger.username_pw_set("t4", broker.password("t4"))
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        forged = {"table": "t2", "game": "99@x", "players": ["Ana", "Bo"],
                  "scores": [[500, 0]], "totals": [500, 0], "ranking": [1, 0]}
        forger.publish("roundhouse/table/t2/game", json.dumps(forged), qos=1).wait_for_publish(5)
        # Nor the league's standings, nor its call to send everything again.
        forger.publish(STANDINGS, json.dumps({"rows": [], "tables_online": 0, "forged": 1}), qos=1,
                       retain=True).wait_for_publish(5)
        forger.publish(RESYNC, "forged", qos=1).wait_for_publish(5)
        # Its own topic is allowed, and the league hears it after the forgery.
        marker = {"table": "t4", "online": False, "phase": None, "marker": "after forgery"}
        forger.publish("roundhouse/table/t4/state", json.dumps(marker), qos=1).wait_for_publish(5)
        # (t4 plays no part here: it goes offline again.)
        forger.publish("roundhouse/table/t4/status", b"offline", qos=1).wait_for_publish(5)
        forger.disconnect()
        forger.loop_stop()

        def heard_marker() -> bool:
            with sqlite3.connect(f"file:{league_db}?mode=ro", uri=True) as db:
                row = db.execute(
                    "SELECT state, online FROM tables WHERE table_name = 't4'").fetchone()
            return row is not None and "after forgery" in (row[0] or "") and row[1] == 0

        wait_until(heard_marker, "the league hearing t4's own state")
        assert watcher.table() == two
        heard = watcher.caught_up()
        assert (RESYNC, b"forged") not in heard
        assert not any(b"forged" in payload for topic, payload in heard)

        # A table's publisher killed: the broker says it is offline; back, nothing doubles.
        running["t1"].kill()
        running["t1"].wait()
        wait_until(lambda: watcher.online() == 1, "t1 marked offline by its last will")
        running["t1"] = publisher("t1")
        wait_until(lambda: watcher.online() == 2, "t1 back online")
        assert watcher.table() == two

        # The league killed and its database lost: rebuilt from the tables' journals.
        running["league"].kill()
        running["league"].wait()
        league_db.unlink()
        for side in ("-wal", "-shm"):
            Path(f"{league_db}{side}").unlink(missing_ok=True)
        running["league"] = league()
        watcher.latest = None
        wait_until(lambda: watcher.table() == two,
                   "the standings rebuilt by a new league", timeout=60)

        # The broker killed before it saved anything: everyone reconnects, the tables send
        # their journals again, the standings come back complete.
        broker.kill()
        watcher.latest = None
        broker.start()
        wait_until(lambda: watcher.table() == two and watcher.online() == 2,
                   "the standings after the broker's crash", timeout=90)

        # A table that was away all evening catches up when it comes back.
        running["t3"] = publisher("t3")
        wait_until(lambda: watcher.table() == _expected(logs) and watcher.online() == 3,
                   "the third table's games counted", timeout=60)

        # The room's wall draws them: its first picture waits, the next shows the league.
        frames = tmp_path / "wall"
        processes.roundhouse("wall", "display", "--view", "league", "--frames", str(frames),
                             "--size", "1280x720", *broker.credentials("room.wall"))
        wait_until(lambda: len(list(frames.glob("league-*.png"))) >= 2,
                   "the league's wall drawn with the standings")

        # A table's phone page shows the standings, through a user of its own.
        port = free_port()
        processes.roundhouse("web", "web", "--socket", str(tmp_path / "t1.sock"),
                             "--host", "127.0.0.1", "--port", str(port),
                             *broker.credentials("t1.web"))
        wait_until(lambda: listening(port), "roundhouse web listening")

        def page_league() -> Any:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/board.json?lang=en",
                                        timeout=5) as answer:
                return json.load(answer)["league"]

        wait_until(lambda: page_league() is not None, "the page hearing the standings")
        shown = page_league()
        assert shown["tables"] == "3 tables online"
        everyone = _expected(logs)
        assert {r["name"]: (int(r["games"]), int(r["wins"]), int(r["points"]))
                for r in shown["rows"]} == {n: (g, w, p) for n, (g, w, _r, p) in everyone.items()}
    finally:
        watcher.stop()



def test_a_playing_table_is_followed_live_and_its_rounds_counted_as_they_end(
    processes: Processes, tmp_path: Path
) -> None:
    # The test's observer reads what the table sends.
    broker = Mosquitto(processes, ["t1", "league", "t1.watch", "observer"],
                       acl="\nuser observer\ntopic read roundhouse/table/#\n")
    broker.start()
    sock = tmp_path / "t1.sock"
    processes.roundhouse("league", "league", "--db", str(tmp_path / "league.db"),
                         *broker.credentials("league"))
    processes.roundhouse("publish-t1", "publish", "--table", "t1",
                         "--db", str(tmp_path / "t1.db"), "--socket", str(sock),
                         *broker.credentials("t1"))
    phases: list[str] = []
    rounds: list[int] = []
    states = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="states")
    states.username_pw_set("observer", broker.password("observer"))

    def heard(c: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic.endswith("/status"):
            return  # "online" or "offline", not JSON
        data = json.loads(msg.payload)
        if msg.topic.endswith("/state") and data["phase"] not in phases[-1:]:
            phases.append(data["phase"])
        if msg.topic.endswith("/round"):
            rounds.append(data["round"])

    states.on_connect = lambda c, *_: c.subscribe("roundhouse/table/t1/+", qos=1)
    states.on_message = heard
    states.connect("127.0.0.1", broker.port)
    states.loop_start()
    watcher = Watcher(broker, "t1.watch")
    try:
        sim = processes.roundhouse("sim", "sim", "--headless", "--speed", "25",
                                   "--rounds", "2", "--seed", "5", "--socket", str(sock),
                                   "--db", str(tmp_path / "t1.db"))
        assert sim.wait(timeout=240) == 0
        expected = _expected([processes.log("sim")])
        wait_until(lambda: watcher.table() == expected, "the game in the standings", timeout=60)
        # The state followed the table through the game, and each round was sent when it
        # ended, not only when the publisher connected.
        assert "play" in phases and "game_over" in phases
        assert phases.index("play") < phases.index("game_over")
        assert rounds and rounds[0] == 1 and rounds.index(1) < rounds.index(2)
    finally:
        watcher.stop()
        states.disconnect()
        states.loop_stop()


class Victim:
    """A client as the league's or a table's process connects, noting each time the
    broker throws it off."""

    def __init__(self, broker: Mosquitto, user: str, client_id: str) -> None:
        self.dropped: list[str] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  clean_session=False)
        self.client.username_pw_set(user, broker.password(user))
        self.client.on_disconnect = lambda c, u, f, reason, p: self.dropped.append(str(reason))
        self.topic = f"roundhouse/table/{user}/state"
        self.client.connect("127.0.0.1", broker.port, keepalive=30)
        self.client.loop_start()

    def round_trip(self) -> None:
        """A message acknowledged on the connection it had: a connection the broker
        closed would have been seen closed first."""
        try:
            self.client.publish(self.topic, b"{}", qos=1).wait_for_publish(10)
        except RuntimeError as err:  # paho: not connected
            self.dropped.append(str(err))

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_table_login_cannot_throw_the_league_or_another_table_off(
    processes: Processes,
) -> None:
    broker = Mosquitto(processes, ["t1", "t2", "league"])
    broker.start()
    victims = [Victim(broker, "league", "roundhouse-league"),
               Victim(broker, "t2", "roundhouse-table-t2")]
    try:
        for victim in victims:
            victim.round_trip()
        # Table t1's login, giving the league's id and then the other table's.
        for stolen in ("roundhouse-league", "roundhouse-table-t2", "league", "t2"):
            thief = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=stolen)
            thief.username_pw_set("t1", broker.password("t1"))
            thief.connect("127.0.0.1", broker.port)
            thief.loop_start()
            thief.publish("roundhouse/table/t1/state", b"{}", qos=1).wait_for_publish(10)
            thief.disconnect()
            thief.loop_stop()
        for victim in victims:
            victim.round_trip()
        assert [v.dropped for v in victims] == [[], []]
    finally:
        for victim in victims:
            victim.stop()
