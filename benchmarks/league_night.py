"""A game night of many tables on one broker: the standings' delay from a round's end to
the league's view of it, and what the broker and the league cost.

    python benchmarks/league_night.py [--tables 50] [--rounds 13] [--gap 4.0]

Starts Debian's mosquitto with the shipped configuration (roundhouse.conf and its ACL,
every table a user of its own) on a free loopback port, and `roundhouse league` as a
process. Each simulated table is an MQTT client of its own that sends, as `roundhouse
publish` does (the same messages), its state and each round's score sheet, a round
ending every `--gap` seconds on average (the tables start at random moments), then its
game. A night's pace compressed: a real round takes minutes. Every player name is its
table's, so the standings say how many rounds of each table the league has counted:
the delay of a round is from its table's publish to the first standings that count it.
"""

from __future__ import annotations

import argparse
import getpass
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gamenight.mqtt import STANDINGS, table_topic  # noqa: E402
from gamenight.publisher import game_message, round_message  # noqa: E402
from gamenight.results import Sheet  # noqa: E402

NAMES = ("Ana", "Bo", "Cy", "Di")


def _port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cpu_and_peak(pid: int) -> tuple[float, int]:
    """CPU seconds used so far and the peak resident memory in kB of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    peak = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1])
    import os

    return ticks / os.sysconf("SC_CLK_TCK"), peak


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--gap", type=float, default=4.0, help="mean seconds between rounds")
    args = parser.parse_args()
    tables = [f"t{i:02}" for i in range(args.tables)]
    work = Path(tempfile.mkdtemp(prefix="league-night-"))
    port = _port()
    users = [*tables, "league", "watch"]
    passwd = work / "roundhouse.passwd"
    for i, user in enumerate(users):
        subprocess.run(["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", str(passwd),
                        user, f"{user}-secret"], check=True, capture_output=True)
    shipped = ROOT / "systemd" / "mosquitto"
    (work / "roundhouse.acl").write_text((shipped / "roundhouse.acl").read_text())
    conf = (shipped / "roundhouse.conf").read_text().replace("/etc/mosquitto/conf.d/", f"{work}/")
    conf = conf.replace("listener 1883", f"listener {port} 127.0.0.1")
    conf += f"persistence_location {work}/\nuser {getpass.getuser()}\n"
    (work / "mosquitto.conf").write_text(conf)
    (work / "league.secret").write_text("league-secret\n")
    broker = subprocess.Popen(["mosquitto", "-c", str(work / "mosquitto.conf")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # a benchmark, not a test: the broker starts in far less
    league = subprocess.Popen(
        [sys.executable, "-m", "firmware_py.cli", "league", "--db", str(work / "league.db"),
         "--broker", f"127.0.0.1:{port}", "--username", "league",
         "--password-file", str(work / "league.secret")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    counted: dict[str, int] = {t: 0 for t in tables}
    published: dict[tuple[str, int], float] = {}
    delays: list[float] = []
    lock = threading.Lock()
    done = threading.Event()
    total = args.tables * args.rounds

    def heard(c: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        rows = json.loads(msg.payload)["rows"]
        with lock:
            for row in rows:
                table, _, name = row["player"].partition("-")
                if name != NAMES[0] or table not in counted:
                    continue
                for r in range(counted[table] + 1, row["rounds"] + 1):
                    if (table, r) in published:
                        delays.append(now - published[(table, r)])
                counted[table] = max(counted[table], row["rounds"])
            if sum(counted.values()) >= total:
                done.set()

    watch = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="watch")
    watch.username_pw_set("watch", "watch-secret")
    watch.on_connect = lambda c, *_: c.subscribe(STANDINGS, qos=1)
    watch.on_message = heard
    watch.connect("127.0.0.1", port)
    watch.loop_start()

    clients = {}
    for table in tables:
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"roundhouse-table-{table}")
        c.username_pw_set(table, f"{table}-secret")
        c.will_set(table_topic(table, "status"), "offline", qos=1, retain=True)
        c.connect("127.0.0.1", port, keepalive=15)
        c.loop_start()
        c.publish(table_topic(table, "status"), "online", qos=1, retain=True)
        clients[table] = c
    time.sleep(1.0)  # every table connected before the night starts
    cpu0 = {"broker": _cpu_and_peak(broker.pid)[0], "league": _cpu_and_peak(league.pid)[0]}
    start = time.monotonic()

    rng = random.Random(19)
    events: list[tuple[float, str, int]] = []
    for table in tables:
        at = rng.uniform(0, args.gap)
        for r in range(1, args.rounds + 1):
            events.append((at, table, r))
            at += rng.uniform(0.5 * args.gap, 1.5 * args.gap)
    events.sort()
    sheets: dict[str, list[tuple[int, ...]]] = {t: [] for t in tables}
    for at, table, r in events:
        pause = start + at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        sheets[table].append(tuple(rng.randint(0, 60) for _ in NAMES))
        players = tuple(f"{table}-{n}" for n in NAMES)
        totals = tuple(sum(col) for col in zip(*sheets[table], strict=True))
        sheet = Sheet(f"1@{table}", players, tuple(sheets[table]), None, totals,
                      (None,) * len(players))
        client = clients[table]
        with lock:
            published[(table, r)] = time.monotonic()
        client.publish(table_topic(table, "round"), json.dumps(round_message(table, sheet)),
                       qos=1)
        client.publish(table_topic(table, "state"), json.dumps(
            {"table": table, "online": True, "phase": "play", "round": r,
             "rounds": args.rounds, "turn": 0, "players": list(players),
             "hands": [7, 7, 7, 7], "totals": list(totals), "ranking": None}),
            qos=1, retain=True)
        if r == args.rounds:
            ranking = tuple(sorted(range(len(NAMES)), key=lambda s: totals[s]))
            final = Sheet(sheet.game, players, sheet.scores, ranking, totals, sheet.cards)
            client.publish(table_topic(table, "game"), json.dumps(game_message(table, final)),
                           qos=1)
    done.wait(timeout=60)
    wall = time.monotonic() - start
    figures = {}
    for name, process in (("broker", broker), ("league", league)):
        cpu, peak = _cpu_and_peak(process.pid)
        figures[name] = ((cpu - cpu0[name]) / wall, peak)
    for c in clients.values():
        c.disconnect()
        c.loop_stop()
    watch.disconnect()
    watch.loop_stop()
    league.terminate()
    league.wait(timeout=10)
    broker.terminate()
    broker.wait(timeout=10)

    print(f"{args.tables} tables, {args.rounds} rounds each, a round every {args.gap:g} s "
          f"per table: {len(published)} rounds in {wall:.1f} s "
          f"({len(published) / wall:.1f} rounds/s)")
    if len(delays) < len(published):
        print(f"counted only {len(delays)} of {len(published)} rounds")
    if delays:
        print(f"round end -> standings: p50 {1000 * statistics.median(delays):.0f} ms, "
              f"p99 {1000 * _percentile(delays, 0.99):.0f} ms, "
              f"worst {1000 * max(delays):.0f} ms")
    for name, (cpu, peak) in figures.items():
        print(f"{name}: {100 * cpu:.1f}% of one core, peak memory {peak / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
