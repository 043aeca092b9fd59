"""The league's standings as a table's page follows them: the retained standings topic
the league publishes, read by a paho client in its own thread and handed to the page's
event loop."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from gamenight.follow import Signal
from gamenight.mqtt import STANDINGS, Broker, client


class StandingsFollower:
    def __init__(self, broker: Broker, signal: Signal, loop: asyncio.AbstractEventLoop) -> None:
        self.rows: list[dict[str, Any]] | None = None
        self.tables_online = 0
        self._pending: asyncio.Future[None] | None = None
        self._signal = signal
        self._loop = loop
        self._client = client(broker, f"roundhouse-page-{os.getpid()}")
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
        self._loop.call_soon_threadsafe(self._update, rows, online)

    def _update(self, rows: list[dict[str, Any]], online: int) -> None:
        self.rows, self.tables_online = rows, online
        self._pending = asyncio.ensure_future(self._signal.bump())

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
