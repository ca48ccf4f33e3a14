"""The central service's side of MQTT: every table's rows into the store, in order, each
acknowledged to the broker only once stored (a central service that stops loses nothing: the
broker keeps the rest for its persistent session); acknowledgements back to the tables.

Messages are taken by one writer thread in arrival order; a table's event lines that arrive
together are stored in one transaction. A message that cannot be stored (not a row, a field of
the wrong type, a number out of range) is quarantined in the store with why, counted on the
table's health view (source ``central``) and acknowledged: it never holds up the messages after
it. Only a store that cannot be reached keeps a batch unacknowledged (tried again each second).
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from dashboard.apply import Applier
from dashboard.rows import DATA_ERRORS, RowError
from dashboard.store import QUARANTINE_LINE_CHARS, QuarantineRow, Store
from feltwatch.appliance import mqtt as wire

LOG = logging.getLogger("feltwatch.central")
SUBSCRIPTION = f"{wire.ROOT}/+/+"
BATCH = 1000


class Ingest:
    def __init__(self, store: Store, client: mqtt.Client, host: str, port: int,
                 keepalive_s: int = 15) -> None:  # fmt: skip
        self.store = store
        self.apply = Applier(store)
        self.client = client
        self.stored = 0
        self.bad = 0
        self.connected = False
        self._inbox: queue.Queue[mqtt.MQTTMessage | None] = queue.Queue()
        self._host, self._port, self._keepalive_s = host, port, keepalive_s
        client.on_connect = self._connected
        client.on_disconnect = lambda *_: setattr(self, "connected", False)
        client.on_message = lambda _c, _u, message: self._inbox.put(message)
        client.on_subscribe = self._subscribed
        self.subscribed = threading.Event()
        """Set once the broker has taken the subscription: from then on it keeps every table's
        messages for this service (its persistent session), even while it is away."""
        self._thread = threading.Thread(target=self._run, name="ingest", daemon=True)

    def start(self) -> Ingest:
        self._thread.start()
        self.client.connect_async(self._host, self._port, keepalive=self._keepalive_s)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self._inbox.put(None)
        self._thread.join(10)

    def _connected(self, client: mqtt.Client, _u: object, _f: object, reason: Any,
                   _p: object) -> None:  # fmt: skip
        if getattr(reason, "is_failure", False):
            return
        self.connected = True
        client.subscribe(SUBSCRIPTION, qos=1)

    def _subscribed(self, *_: object) -> None:
        if not self.subscribed.is_set():
            LOG.info(f"central: subscribed to {SUBSCRIPTION}")
        self.subscribed.set()

    def acknowledge(self, table: str, alert_id: str, user: str) -> str:
        """The dashboard's acknowledgement -> the table's light (``Settings.acknowledge``)."""
        command = {"v": wire.SCHEMA, "id": f"ack/{alert_id}/{time.time_ns()}",
                   "type": "acknowledge", "alert": alert_id, "user": user}  # fmt: skip
        self.client.publish(wire.topic(table, "commands"), json.dumps(command), qos=1)
        if self.connected:
            return f"sent to table {table}: its light goes back to normal"
        return f"the broker is unreachable: table {table} is told when it is back"

    def _run(self) -> None:
        while True:
            first = self._inbox.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    more = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._inbox.put(None)
                    break
                batch.append(more)
            try:
                self._store(batch)
            except Exception as exc:  # the store is down: say so, keep the messages unacked
                LOG.error(f"central: cannot store: {type(exc).__name__}: {exc}")
                time.sleep(1.0)
                for message in batch:
                    self._inbox.put(message)
                continue
            for message in batch:
                if message.qos:
                    self.client.ack(message.mid, message.qos)

    def _store(self, batch: list[mqtt.MQTTMessage]) -> None:
        events: dict[str, list[tuple[mqtt.MQTTMessage, dict[str, Any]]]] = {}
        for message in batch:
            try:
                table, kind = wire.parse_topic(message.topic)
            except wire.PayloadError as exc:
                self._quarantine("", message, str(exc))
                continue
            if kind == "commands":
                continue  # ours, to the tables
            try:
                body = wire.decode(message.payload)
                if kind == "state":
                    self._state(table, body)
                    continue
                row = body.get("row")
                if not isinstance(row, dict) or body.get("table") != table:
                    raise wire.PayloadError("no row, or another table's row")
                if kind == "events":
                    events.setdefault(table, []).append((message, row))
                else:
                    self._flush(events)
                    self.apply.row(table, kind, row)
            except (wire.PayloadError, *DATA_ERRORS) as exc:
                why = str(exc) if isinstance(exc, wire.PayloadError | RowError) else repr(exc)
                self._quarantine(table, message, why[:300])
                continue
            self.stored += 1
        self._flush(events)

    def _flush(self, events: dict[str, list[tuple[mqtt.MQTTMessage, dict[str, Any]]]]) -> None:
        for table, items in events.items():
            for i, why in self.apply.events(table, [row for _, row in items]):
                self.stored -= 1
                self._quarantine(table, items[i][0], why)
        events.clear()

    def _quarantine(self, table: str, message: mqtt.MQTTMessage, why: str) -> None:
        """Keep the message with why, say so on the table's health view, and go on."""
        self.bad += 1
        line = bytes(message.payload[:QUARANTINE_LINE_CHARS]).decode("utf-8", "replace")
        kept = self.store.quarantine(
            QuarantineRow(table=table, source=message.topic, line=line, reason=why, at=time.time())
        )
        if table:
            text = f"{message.topic}: message quarantined: {why} ({kept} quarantined)"
            self.apply.health(table, "central", "warning", text[:1000])

    def _state(self, table: str, state: dict[str, Any]) -> None:
        online = bool(state.get("online"))
        message = "online" if online else "offline: the table's uplink is not connected"
        if online and state.get("dropped"):
            message += f"; {state['dropped']} lines dropped (queue over budget)"
        detail = {k: v for k, v in state.items() if k in ("hand", "queue_bytes", "dropped")}
        self.apply.health(table, "uplink", "connected" if online else "offline", message, **detail)
        sent = float(state.get("wall") or time.time())
        for camera in state.get("cameras") or ():
            # its age when the state was sent (the state comes every 10 s; clocks may differ)
            seen = dict(camera, wall=time.time() - (sent - float(camera.get("wall") or sent)))
            with contextlib.suppress(RowError, TypeError, ValueError):
                self.apply.row(table, "camera", seen)
        known = self.store.table(table)
        if state.get("light") and (known is None or known.light != state["light"]):
            self.store.put_light(table, str(state["light"]), time.time())
