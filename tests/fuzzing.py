"""Fuzzing every reader of outside input: seed inputs mutated at random (bytes flipped, cut,
spliced, repeated; JSON values replaced by huge, infinite, deeply nested or mistyped ones), fed
to the reader as a user would (the CLI in process, the central ingest's message path, the
dashboard's HTTP routes). A reader may refuse an input with its own message or exit code; any
other exception is a traceback, counted with the input that caused it.

``tests/test_fuzz.py`` runs a few hundred inputs per reader in ``make test``; ``bench/fuzz.py``
runs as many as asked.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.eventlog import SHARED
from tests.present import present

ROOT = Path(__file__).resolve().parent.parent

SLOW_S = 10.0
"""An input a reader takes longer than this on is counted slow."""

STRANGE_VALUES: tuple[object, ...] = (
    None, True, -1, 0, 10**30, -(10**30), 1.5, 1e308, "", "²", "seat:²", "\x00", "a" * 5000,
    [], {}, [1, 2], {"1": "lots"}, {"": None},
)  # fmt: skip
"""JSON values that a reader must refuse or take, never crash on."""


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One to four byte-level changes: flip, delete, insert, cut, repeat a chunk, non-UTF-8."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        at = rng.randrange(len(out) + 1)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1 and out:
            del out[at : at + rng.randint(1, 32)]
        elif kind == 2:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 3:
            del out[at:]
        elif kind == 4 and out:
            start = rng.randrange(len(out))
            chunk = out[start : start + rng.randint(1, 200)]
            out[at:at] = chunk * rng.randint(1, 50)
        elif kind == 5:
            out[at:at] = rng.choice((b"\xff\xfe", b"\xc3", b"\x80", b"\xed\xa0\x80"))
        else:
            out[at:at] = nested(rng.choice((10, 200, 2000))).encode()
    return bytes(out)


def mutate_json(value: object, rng: random.Random, depth: int = 0) -> object:
    """The value with one leaf or member replaced by a strange one (or a key dropped); below
    20 levels the value itself is replaced."""
    if depth > 20:
        return rng.choice(STRANGE_VALUES)
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        copy = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del copy[key]
        elif roll < 0.3:
            copy[rng.choice(("seq", "type", "hand", "seat", "to", "amount", "x"))] = rng.choice(
                STRANGE_VALUES
            )
        else:
            copy[key] = mutate_json(copy[key], rng, depth + 1)
        return copy
    if isinstance(value, list) and value:
        items = list(value)
        i = rng.randrange(len(items))
        items[i] = mutate_json(items[i], rng, depth + 1)
        return items
    if rng.random() < 0.1:
        return json.loads(nested(rng.choice((50, 500))))
    return rng.choice(STRANGE_VALUES)


def mutate_lines(data: bytes, rng: random.Random) -> bytes:
    """For a file of JSON lines: mutate the values of a few lines, or its bytes."""
    if rng.random() < 0.4:
        return mutate_bytes(data, rng)
    lines = data.splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        try:
            row = json.loads(lines[i])
        except ValueError:
            continue
        text = json.dumps(mutate_json(row, rng), ensure_ascii=rng.random() < 0.5)
        lines[i] = text.replace("Infinity", rng.choice(("Infinity", "1e400", "NaN"))).encode()
    return b"\n".join(lines) + b"\n"


@dataclass
class Tally:
    reader: str
    tried: int = 0
    refused: int = 0
    """Inputs the reader refused with its own message or exit code."""
    tracebacks: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    seconds: float = 0.0


Feed = Callable[[bytes], object]
"""Give one input to a reader; return normally or raise ``Refused``; anything else is a bug."""


class Refused(Exception):
    """The reader refused the input in its own words (not a bug)."""


def run(reader: str, feed: Feed, inputs: Iterator[bytes]) -> Tally:
    tally = Tally(reader)
    for data in inputs:
        started = time.monotonic()
        try:
            feed(data)
        except Refused:
            tally.refused += 1
        except Exception:  # the bug this looks for: kept with its input
            last = traceback.format_exc().strip().splitlines()[-1]
            tally.tracebacks.append(f"{last[:200]} <- {data[:120]!r}")
        took = time.monotonic() - started
        tally.seconds += took
        if took > SLOW_S:
            tally.slow.append(f"{took:.1f} s <- {data[:120]!r}")
        tally.tried += 1
    return tally


def cli(argv: Callable[[Path], list[str]], suffix: str) -> Feed:
    """A ``feltwatch`` command run in process on the input written to a file."""
    from feltwatch.cli.main import main

    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))

    def feed(data: bytes) -> None:
        path = folder / f"input{suffix}"
        path.write_bytes(data)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                code = main(argv(path))
            except SystemExit as exc:  # argparse's own refusal
                code = exc.code if isinstance(exc.code, int) else 2
        if code:
            raise Refused

    return feed


def seeds_of(paths: list[Path]) -> list[bytes]:
    return [p.read_bytes() for p in paths if p.is_file()]


def event_log_seeds() -> list[bytes]:
    from engine.clean_hands import RandomChooser, clean_hands

    dealt = clean_hands(RandomChooser(random.Random(3)), 3)
    from engine.codec import event_to_json

    generated = "".join(json.dumps(event_to_json(e)) + "\n" for e in dealt.events).encode()
    return [generated, *seeds_of([ROOT / "examples" / "irregular-hands.jsonl"])]


def serial_seeds() -> list[bytes]:
    from devices.framing import Frame, encode
    from devices.messages import CardDrawnMsg, ShoeLoadedMsg

    loaded = present(ShoeLoadedMsg.FORMAT).pack(7, 1)
    drawn = present(CardDrawnMsg.FORMAT).pack(1, 7, 12345, b"As")
    frames = [
        encode(Frame(ShoeLoadedMsg.TYPE, 1, loaded)),
        encode(Frame(CardDrawnMsg.TYPE, 2, drawn)),
    ]
    return [
        "".join(
            json.dumps({"t_ns": 1000 * i, "data": frame.hex()}) + "\n"
            for i, frame in enumerate(frames)
        ).encode()
    ]


def phh_seeds() -> list[bytes]:
    return seeds_of(sorted((SHARED / "data" / "phh").rglob("*.phh"))[:20])


def config_seeds() -> list[bytes]:
    return seeds_of([ROOT / "deploy" / "demo.yaml"])


def mqtt_feed() -> tuple[Feed, list[bytes]]:
    """The central ingest's path for one broker message, on a SQLite store."""
    from dashboard.store.sqlite import SqliteStore
    from feltwatch.appliance import mqtt as wire
    from feltwatch.central.ingest import Ingest

    folder = Path(tempfile.mkdtemp(prefix="fuzz-mqtt-"))
    store = SqliteStore(folder / "central.sqlite3")
    client: Any = SimpleNamespace()
    ingest = Ingest(store, client, "127.0.0.1", 1)

    def feed(data: bytes) -> None:
        kind, _, payload = data.partition(b"\n")  # the topic's kind, then the payload
        topic = wire.topic("t1", kind.decode("utf-8", "replace"))
        message = SimpleNamespace(topic=topic, payload=payload, qos=0, mid=0)
        before = ingest.bad
        ingest._store([message])  # type: ignore[list-item]  # a broker message's fields
        if ingest.bad != before:
            raise Refused

    seeds = [
        b"alerts\n" + wire.encode("t1", "alerts", "a1", {"hand": "1", "seq": 5,
            "rule": "R-POT-5", "family": "chip_miscount", "severity": "critical", "seat": 2,
            "message": "m", "id": "a1", "wall": 5.0}),
        b"events\n" + wire.encode("t1", "events", "e1", {"seq": 2, "type": "hand_start",
            "ts_ms": 0, "hand": "1", "button": 1, "stacks": {"1": 100, "2": 100}}),
        b"light\n" + wire.encode("t1", "light", "l1", {"colour": "red", "pattern": "fast",
            "wall": 5.0}),
        b"state\n" + json.dumps({"v": wire.SCHEMA, "online": True, "wall": 5.0, "cameras": [
            {"camera": "c", "wall": 4.0, "fps": 10}]}).encode(),
    ]  # fmt: skip
    return feed, seeds


def http_feed() -> tuple[Feed, list[bytes]]:
    """The dashboard's routes: a request line, headers and a body from the input, sent by a
    logged-in supervisor (and by nobody, for the login)."""
    from fastapi.testclient import TestClient

    from dashboard.app import create_app
    from dashboard.security import hash_password
    from dashboard.settings import Settings
    from dashboard.store import AlertRow, AlertStatus, Role
    from dashboard.store.sqlite import SqliteStore

    folder = Path(tempfile.mkdtemp(prefix="fuzz-http-"))
    store = SqliteStore(folder / "d.sqlite3")
    store.add_user("super1", hash_password("correct horse battery"), Role.SUPERVISOR, 0.0)
    store.put_alert(
        AlertRow(id="x1", table="t1", hand="1", seq=5, rule="R-POT-5", family="chip_miscount",
                 severity="critical", seat=2, message="m", raised_at=1.0,
                 status=AlertStatus.OPEN, body={})
    )  # fmt: skip
    app = create_app(store, Settings(login_attempts=10**9))
    client = TestClient(app, base_url="https://testserver", raise_server_exceptions=False)
    client.get("/login")
    token = client.cookies.get("feltwatch_login")
    client.post("/login", data={"username": "super1", "password": "correct horse battery",
                                "csrf": token})  # fmt: skip
    csrf = client.get("/api/me").json()["csrf"]

    def feed(data: bytes) -> None:
        head, _, body = data.partition(b"\n\n")
        first, *lines = head.decode("latin-1").split("\n")
        method, _, target = first.partition(" ")
        headers = {"X-CSRF-Token": csrf}
        for line in lines:
            name, _, value = line.partition(":")
            headers[name.strip()] = value.strip()
        try:
            request = client.build_request(method, target, content=body, headers=headers)
        except Exception as exc:  # the client cannot even send it: not the server's doing
            raise Refused from exc
        if target.startswith("/api/stream"):
            request.extensions["timeout"] = {"read": 0.5}
        try:
            response = client.send(request, stream=True)
        except Exception as exc:
            raise Refused from exc
        code = response.status_code
        response.close()
        if code >= 500:
            raise RuntimeError(f"{method} {target[:60]}: {code}")
        if code >= 400:
            raise Refused

    seeds = [
        b"GET /api/hands?limit=5&seat=2\nAccept: application/json\n\n",
        b"GET /api/alerts?status=open&limit=10\n\n",
        b'POST /api/alerts/x1/resolve\ncontent-type: application/json\n\n{"note": "ok"}',
        b"GET /api/stream?after=0\nLast-Event-ID: 5\n\n",
        b"GET /api/export/search.csv?limit=3\n\n",
        b"GET /hands?table=t1\n\n",
        b'POST /api/alerts/bulk\ncontent-type: application/json\n\n{"ids": ["x1"], '
        b'"action": "resolve", "note": "ok"}',
    ]
    return feed, seeds


@dataclass(frozen=True)
class Reader:
    name: str
    feed: Feed
    seeds: list[bytes]
    """Good inputs (each must be taken as it is), mutated into the fuzzed ones."""
    mutate: Callable[[bytes, random.Random], bytes]

    def fuzzed(self, rng: random.Random, count: int) -> Iterator[bytes]:
        for _ in range(count):
            yield self.mutate(rng.choice(self.seeds), rng)


def readers() -> Iterator[Reader]:
    """Every reader of outside input."""
    yield Reader(
        "event log (check)",
        cli(lambda p: ["check", str(p)], ".jsonl"),
        event_log_seeds(),
        mutate_lines,
    )
    yield Reader(
        "config (config validate)",
        cli(lambda p: ["config", "validate", str(p)], ".yaml"),
        config_seeds(),
        mutate_bytes,
    )
    yield Reader(
        "PHH (phh replay)",
        cli(lambda p: ["phh", "replay", str(p)], ".phh"),
        phh_seeds(),
        mutate_bytes,
    )
    yield Reader(
        "serial capture (serial replay)",
        cli(lambda p: ["serial", "replay", "--device", "shoe", str(p)], ".jsonl"),
        serial_seeds(),
        mutate_lines,
    )
    feed, seeds = mqtt_feed()
    yield Reader("MQTT message (central ingest)", feed, seeds, mutate_bytes)
    feed, seeds = http_feed()
    yield Reader("HTTP request (dashboard)", feed, seeds, mutate_bytes)
