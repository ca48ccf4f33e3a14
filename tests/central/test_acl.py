"""The shipped ACL (deploy/mosquitto/acl) on a real Mosquitto with a password per table: a table
publishes only under its own name, the central service only commands, and a wrong password is
refused."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from tests.services.servers import Mosquitto, mosquitto

ACL = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto" / "acl"
USERS = {"central": "central secret", "t1": "t1 secret", "t2": "t2 secret"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    passwords = tmp_path / "passwords"
    passwords.touch()
    for user, password in USERS.items():
        subprocess.run(["mosquitto_passwd", "-b", str(passwords), user, password], check=True)
    passwords.chmod(0o644)
    with mosquitto(tmp_path / "mosquitto", passwords=passwords, acl=ACL) as server:
        yield server


class Peer:
    def __init__(self, broker: Mosquitto, user: str, password: str | None = None) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user}")
        self.client.username_pw_set(user, password if password is not None else USERS[user])
        self.got: list[tuple[str, bytes]] = []
        self.ready = threading.Event()
        self.refused: list[object] = []

        def connected(_c: object, _u: object, _f: object, reason: ReasonCode, _p: object) -> None:
            if reason.is_failure:
                self.refused.append(reason)
            self.ready.set()

        self.client.on_connect = connected
        self.client.on_message = lambda _c, _u, m: self.got.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.ready.wait(10)

    def subscribe(self, topic: str) -> None:
        """Subscribe and wait for the broker's answer (a message sent before it would be lost)."""
        done = threading.Event()
        self.client.on_subscribe = lambda *_: done.set()
        self.client.subscribe(topic, qos=1)
        assert done.wait(10), f"no answer to the subscription to {topic}"

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_for_topic(peer: Peer, topic: str) -> None:
    deadline = time.monotonic() + 10
    while topic not in [t for t, _ in peer.got]:
        assert time.monotonic() < deadline, f"{topic} never arrived"
        time.sleep(0.02)


def test_a_table_publishes_only_under_its_own_name(broker: Mosquitto) -> None:
    central, t1, t2 = Peer(broker, "central"), Peer(broker, "t1"), Peer(broker, "t2")
    central.subscribe("feltwatch/#")
    t2.subscribe("feltwatch/t1/commands")  # another table's commands: not its own
    t1.publish("feltwatch/t2/alerts", b"forged")  # refused (silently, as MQTT 3.1.1 does)
    t1.publish("feltwatch/t1/alerts", b"genuine")  # sent after: arrives after a forged one would
    wait_for_topic(central, "feltwatch/t1/alerts")
    assert ("feltwatch/t2/alerts", b"forged") not in central.got

    central.publish("feltwatch/t2/events", b"forged by central")  # central writes only commands
    central.publish("feltwatch/t1/commands", b"ack")
    t1.subscribe("feltwatch/t1/commands")
    central.publish("feltwatch/t1/commands", b"ack 2")
    deadline = time.monotonic() + 10
    while ("feltwatch/t1/commands", b"ack 2") not in t1.got:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert ("feltwatch/t2/events", b"forged by central") not in central.got
    assert not [m for m in t2.got if m[0] == "feltwatch/t1/commands"]
    for peer in (central, t1, t2):
        peer.close()


def test_a_wrong_password_is_refused(broker: Mosquitto) -> None:
    intruder = Peer(broker, "t1", "guess")
    assert intruder.refused
    intruder.close()
