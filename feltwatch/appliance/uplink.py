"""The table -> the central service: the uplink process publishes every row the appliance writes
(events, alerts, hands, light, health: ``feltwatch.appliance.mqtt``) to the broker with QoS 1, in
order per kind, and passes the central service's acknowledgements to the engine (the light).

The appliance's files are the queue on disk: what the broker has acknowledged is remembered by
byte offset (``<table>.uplink.json``, replaced whole); after a broker outage, a restart of the
uplink or a power cut, publishing resumes from there, in order. Copies are harmless (every
message has the row's id). The queue is bounded: when what is waiting exceeds ``queue_mb``, the
oldest lines are dropped (events first, alerts last) and counted, and the count is published in
the table's state and health.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from dashboard.feed import camera_rows
from dashboard.tail import new_lines
from engine.table_files import TableFiles
from feltwatch.appliance import mqtt as wire

DROP_ORDER = ("events", "health", "light", "hands", "alerts")
"""What goes first when the queue is over its budget."""
BATCH_LINES = 500
MAX_IN_FLIGHT = 1000


@dataclass
class _Stream:
    kind: str
    path: Path
    acked: int = 0
    """Byte offset up to which the broker has acknowledged every line."""
    sent: int = 0
    """Byte offset up to which lines were handed to the client."""
    pending: dict[int, int] = field(default_factory=dict)
    """mid -> end offset of the line, for lines not acknowledged yet."""
    ends: list[tuple[int, int]] = field(default_factory=list)
    """(end offset, mid) in order."""


class Uplink:
    def __init__(
        self,
        files: TableFiles,
        client: mqtt.Client,
        broker_host: str,
        broker_port: int,
        *,
        queue_bytes: int,
        on_command: Callable[[dict[str, Any]], None],
        keepalive_s: int = 15,
    ) -> None:
        self.table = files.table
        self.files = files
        self.client = client
        self.queue_bytes = queue_bytes
        self.on_command = on_command
        self.state_path = files.journal_dir / f"{files.table}.uplink.json"
        self.dropped = 0
        self.published = 0
        self.connected = False
        self.light = ""
        self.last_hand = ""
        self._lock = threading.Lock()
        self._early: set[int] = set()
        self._stop = threading.Event()
        self._streams = [_Stream(kind, files.file(kind)) for kind in wire.ROW_KINDS]
        self._load()
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_publish = self._published
        client.on_message = self._message
        state = {"v": wire.SCHEMA, "table": self.table, "online": False}
        client.will_set(wire.topic(self.table, "state"), json.dumps(state), qos=1, retain=True)
        self._host, self._port, self._keepalive_s = broker_host, broker_port, keepalive_s
        self._thread = threading.Thread(target=self._run, name="uplink", daemon=True)

    # --- what was acknowledged, on disk ---

    def _load(self) -> None:
        try:
            saved = json.loads(self.state_path.read_text())
        except (OSError, ValueError):
            return
        self.dropped = int(saved.get("dropped", 0))
        for stream in self._streams:
            stream.acked = stream.sent = int(saved.get("acked", {}).get(stream.kind, 0))

    def _save(self) -> None:
        with self._lock:
            row = {
                "acked": {s.kind: s.acked for s in self._streams},
                "dropped": self.dropped,
            }
        part = self.state_path.with_name(self.state_path.name + ".part")
        with contextlib.suppress(OSError):
            part.write_text(json.dumps(row))
            os.replace(part, self.state_path)

    # --- the client's callbacks (its network thread) ---

    def _connected(
        self, client: mqtt.Client, _u: object, _f: object, reason: Any, _p: object
    ) -> None:
        if getattr(reason, "is_failure", False):
            return
        self.connected = True
        client.subscribe(wire.topic(self.table, "commands"), qos=1)
        with self._lock:  # what the broker did not acknowledge goes again, in order
            self._early.clear()
            for stream in self._streams:
                stream.sent = stream.acked
                stream.pending.clear()
                stream.ends.clear()

    def _disconnected(self, *_: object) -> None:
        self.connected = False

    def _published(self, _c: object, _u: object, mid: int, *_: object) -> None:
        with self._lock:
            for stream in self._streams:
                if mid in stream.pending:
                    self._acked(stream, mid)
                    return
            if len(self._early) > 10_000:  # acknowledgements of an earlier connection
                self._early.clear()
            self._early.add(mid)

    def _acked(self, stream: _Stream, mid: int) -> None:
        """(Under the lock.) The broker has ``mid``: move ``acked`` over what is contiguous."""
        del stream.pending[mid]
        while stream.ends and stream.ends[0][1] not in stream.pending:
            stream.acked = max(stream.acked, stream.ends.pop(0)[0])
        self.published += 1

    def _message(self, _c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        try:
            command = wire.decode(message.payload)
        except wire.PayloadError:
            return
        self.on_command(command)

    # --- publishing ---

    def start(self) -> Uplink:
        self.client.connect_async(self._host, self._port, keepalive=self._keepalive_s)
        self.client.loop_start()
        self._thread.start()
        return self

    def stop(self, drain_s: float = 5.0) -> None:
        deadline = time.monotonic() + drain_s
        while self.connected and self.waiting() and time.monotonic() < deadline:
            time.sleep(0.05)
        self._stop.set()
        self._thread.join(5.0)
        self._save()
        if self.connected:
            state = {"v": wire.SCHEMA, "table": self.table, "online": False}
            info = self.client.publish(wire.topic(self.table, "state"), json.dumps(state), 1, True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)
        self.client.disconnect()
        self.client.loop_stop()

    def waiting(self) -> int:
        """Bytes written by the appliance and not yet acknowledged by the broker."""
        total = 0
        for stream in self._streams:
            with contextlib.suppress(OSError):
                total += max(0, stream.path.stat().st_size - stream.acked)
        return total

    def _run(self) -> None:
        saved_at = 0.0
        state_at = 0.0
        while not self._stop.is_set():
            self._bound()
            sent = self._send() if self.connected else 0
            now = time.monotonic()
            if now - saved_at > 1.0:
                self._save()
                saved_at = now
            if self.connected and now - state_at > 10.0:
                self._state()
                state_at = now
            if not sent:
                self._stop.wait(0.05)

    def _send(self) -> int:
        count = 0
        for stream in self._streams:
            with self._lock:
                if sum(len(s.pending) for s in self._streams) >= MAX_IN_FLIGHT:
                    return count
                with contextlib.suppress(OSError):
                    if stream.path.stat().st_size < stream.acked:  # a new file: from its start
                        stream.acked = stream.sent = 0
                        stream.pending.clear()
                        stream.ends.clear()
                start = stream.sent
            for line in new_lines(stream.path, start, max_bytes=1 << 20):
                if count >= BATCH_LINES:
                    break
                row = line.row if line.row is not None else {"unreadable": line.error}
                row_id = f"{self.table}/{stream.kind}/{line.start}"
                self._note(stream.kind, row)
                info = self.client.publish(
                    wire.topic(self.table, stream.kind),
                    wire.encode(self.table, stream.kind, row_id, row),
                    qos=1,
                )
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    return count  # disconnected meanwhile: from ``acked`` again on reconnect
                with self._lock:  # not held while publishing: the client's thread calls back
                    stream.pending[info.mid] = line.end
                    stream.ends.append((line.end, info.mid))
                    stream.sent = line.end
                    if info.mid in self._early:  # acknowledged before it was noted here
                        self._early.discard(info.mid)
                        self._acked(stream, info.mid)
                count += 1
        return count

    def _note(self, kind: str, row: dict[str, Any]) -> None:
        if kind == "light":
            self.light = f"{row.get('colour', '')} {row.get('pattern', '')}".strip()
            self._state()
        elif kind == "events" and row.get("type") == "hand_start":
            self.last_hand = str(row.get("hand", ""))

    def _state(self) -> None:
        state = {
            "v": wire.SCHEMA,
            "table": self.table,
            "online": True,
            "light": self.light,
            "hand": self.last_hand,
            "queue_bytes": self.waiting(),
            "dropped": self.dropped,
            "cameras": camera_rows(self.files),  # the pipeline's figures (fps, frames dropped)
            "wall": time.time(),
        }
        self.client.publish(wire.topic(self.table, "state"), json.dumps(state), qos=1, retain=True)

    def _bound(self) -> None:
        """Over the budget: drop the oldest lines, events first, alerts last; count them."""
        over = self.waiting() - self.queue_bytes
        if over <= 0:
            return
        for kind in DROP_ORDER:
            stream = next(s for s in self._streams if s.kind == kind)
            for line in new_lines(stream.path, stream.acked, max_bytes=max(over, 1) + (1 << 16)):
                if over <= 0:
                    break
                with self._lock:
                    stream.acked = stream.sent = max(stream.sent, line.end)
                    stream.pending.clear()
                    stream.ends.clear()
                over -= line.end - line.start
                self.dropped += 1
            if over <= 0:
                break
        self._save()
