"""MQTT between the tables and the central service: topics, payloads, the client.

Topics (QoS 1), one per kind of appliance row, in order within each:

    feltwatch/<table>/events     the table event log v1, one line per message
    feltwatch/<table>/alerts     the alerts (each with its id)
    feltwatch/<table>/hands      each closed hand: pots, awards and rake computed vs observed
    feltwatch/<table>/light      each light command and why (alert, the dealer's button, ack)
    feltwatch/<table>/health     device links, processes, the uplink itself
    feltwatch/<table>/state      retained: online or not, the light, the last hand, the queue
    feltwatch/<table>/commands   central -> table: an acknowledgement for the table's light

Payload: a JSON object ``{"v": 1, "table", "kind", "id", "row"}``; ``id`` names the row for
good (``<table>/<kind>/<byte offset in the appliance's file>``), so a copy delivered twice is
stored once. A command: ``{"v": 1, "id", "type": "acknowledge", "alert", "user"}``.
"""

from __future__ import annotations

import json
import ssl
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from pydantic import BaseModel, ConfigDict, Field

SCHEMA = 1
ROOT = "feltwatch"
ROW_KINDS = ("events", "alerts", "hands", "light", "health")


class PayloadError(ValueError):
    pass


class BrokerSection(BaseModel):
    """Where the broker is and who we are to it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    host: str = Field(min_length=1)
    port: int = Field(default=1883, gt=0, lt=65536)
    username: str | None = None
    password_file: Path | None = None
    """A file holding the password (kept out of the configuration)."""
    tls_ca: Path | None = None
    """The CA that signed the broker's certificate: TLS when set (port 8883 usually)."""
    keepalive_s: int = Field(default=15, ge=5, le=600)


def topic(table: str, kind: str) -> str:
    return f"{ROOT}/{table}/{kind}"


def parse_topic(name: str) -> tuple[str, str]:
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != ROOT or not parts[1]:
        raise PayloadError(f"not a feltwatch topic: {name!r}")
    return parts[1], parts[2]


def encode(table: str, kind: str, row_id: str, row: Mapping[str, Any]) -> bytes:
    return json.dumps(
        {"v": SCHEMA, "table": table, "kind": kind, "id": row_id, "row": row},
        separators=(",", ":"),
    ).encode()


def decode(payload: bytes | bytearray) -> dict[str, Any]:
    try:
        message = json.loads(payload)
    except (ValueError, RecursionError) as exc:
        raise PayloadError(f"not JSON: {str(exc)[:200]}") from None
    if not isinstance(message, dict) or message.get("v") != SCHEMA:
        raise PayloadError(f"not a schema {SCHEMA} message")
    return message


def client(
    broker: BrokerSection, client_id: str, base: Path | None = None, *, manual_ack: bool = False
) -> mqtt.Client:
    """A client with a persistent session (``clean_session`` off: the broker keeps what this
    client subscribed to while it is away) that reconnects by itself. ``manual_ack``: a message
    is acknowledged when the receiver says so (once it is stored), not on arrival."""
    c = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=False,
        reconnect_on_failure=True,
        manual_ack=manual_ack,
    )
    if broker.username is not None:
        password = None
        if broker.password_file is not None:
            path = broker.password_file
            if base is not None and not path.is_absolute():
                path = base / path
            password = path.read_text().strip()
        c.username_pw_set(broker.username, password)
    if broker.tls_ca is not None:
        c.tls_set(ca_certs=str(broker.tls_ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    c.reconnect_delay_set(min_delay=1, max_delay=10)
    c.max_inflight_messages_set(100)
    return c
