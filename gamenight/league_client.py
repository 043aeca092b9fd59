"""The league's standings as a page or the league's wall follows them: the retained
standings topic the league publishes, read by a paho client in its own thread;
`on_change` is called from that thread after each news."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from gamenight.mqtt import STANDINGS, Broker, check_follower_user, client


class StandingsFollower:
    def __init__(self, broker: Broker, on_change: Callable[[], None], *, who: str) -> None:
        self.rows: list[dict[str, Any]] | None = None
        self.tables_online = 0
        self._on_change = on_change
        check_follower_user(broker)
        # Unique on every machine of the room (a pid is not): under a broker that knows
        # clients by their ids, two followers with one id would throw each other off.
        self._client = client(broker, f"roundhouse-follower-{uuid.uuid4().hex[:16]}",
                              who=who)
        self._client.on_connect = self._connected
        self._client.on_message = self._message
        self._client.connect_async(broker.host, broker.port, keepalive=15)
        self._client.loop_start()

    def _connected(self, c: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                   reason: ReasonCode, properties: Properties | None) -> None:
        if not reason.is_failure:
            c.subscribe(STANDINGS, qos=1)

    def _message(self, c: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        try:
            data = json.loads(msg.payload)
            rows = [dict(r) for r in data["rows"]]
            online = int(data["tables_online"])
        except (ValueError, KeyError, TypeError):
            return
        self.rows, self.tables_online = rows, online
        self._on_change()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
