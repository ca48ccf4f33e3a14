"""Tables -> a real Mosquitto -> the central ingest -> a real PostgreSQL: every row arrives once,
in order, through a broker outage and a restart of the central service; an acknowledgement goes
back to the table; a table's queue over its budget drops the oldest lines and counts them."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from dashboard.store import HandQuery
from dashboard.store.postgres import PostgresStore
from engine.table_files import TableFiles
from feltwatch.appliance import mqtt as wire
from feltwatch.appliance.uplink import Uplink
from feltwatch.central.ingest import Ingest
from tests.dashboard.appliance import Table, write_table
from tests.services.servers import Mosquitto, Postgres, mosquitto

COUNTER = itertools.count()
KINDS = ("events", "alerts", "hands")


def wait_for(what: Callable[[], bool], timeout_s: float = 60.0, why: str = "") -> None:
    deadline = time.monotonic() + timeout_s
    while not what():
        assert time.monotonic() < deadline, f"timed out: {why}"
        time.sleep(0.05)


class Half:
    """A table's files written in two halves: the second appended later."""

    def __init__(self, source: Table, live: Path) -> None:
        self.source = source
        self.files = TableFiles(table=source.name, journal_dir=live)
        live.mkdir(parents=True, exist_ok=True)
        self.lines = {k: source.file(k).read_text().splitlines(keepends=True) for k in KINDS}

    def write(self, part: int) -> None:
        for kind, lines in self.lines.items():
            cut = len(lines) // 2
            chunk = lines[:cut] if part == 0 else lines[cut:]
            with self.files.file(kind).open("a") as file:
                file.writelines(chunk)


def uplink(
    broker: Mosquitto, files: TableFiles, commands: list[dict[str, Any]], **kw: Any
) -> Uplink:
    section = wire.BrokerSection(host="127.0.0.1", port=broker.port)
    client = wire.client(section, f"feltwatch-table-{files.table}")
    return Uplink(
        files, client, "127.0.0.1", broker.port, queue_bytes=kw.get("queue_bytes", 10**9),
        on_command=commands.append,
    ).start()  # fmt: skip


def central(broker: Mosquitto, store: PostgresStore) -> Ingest:
    section = wire.BrokerSection(host="127.0.0.1", port=broker.port)
    client = wire.client(section, "feltwatch-central", manual_ack=True)
    ingest = Ingest(store, client, "127.0.0.1", broker.port).start()
    assert ingest.subscribed.wait(30), "the central service never subscribed"
    return ingest


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    with mosquitto(tmp_path / "mosquitto") as server:
        yield server


@pytest.fixture
def store(postgres_server: Postgres) -> Iterator[PostgresStore]:
    made = PostgresStore(postgres_server.database(f"central{next(COUNTER)}"))
    yield made
    made.close()


def stored(store: PostgresStore, table: Table) -> tuple[int, set[str], int]:
    events = sum(len(store.events(table.name, h)) for h in table.hands)
    return (
        events,
        {a.id for a in store.alerts(table=table.name, limit=10_000)},
        len([h for h in store.hands(HandQuery(table=table.name)) if h.summary]),
    )


def expected(table: Table) -> tuple[int, set[str], int]:
    events = sum(1 for line in table.file("events").read_text().splitlines()
                 if json.loads(line)["type"] != "table")  # fmt: skip
    ids = {json.loads(line)["id"] for line in table.file("alerts").read_text().splitlines()}
    return events, ids, len(table.hands)


def _all_stored(store: PostgresStore, table: Table) -> bool:
    return stored(store, table) == expected(table)


def test_every_row_arrives_once_through_a_broker_outage_and_a_central_restart(
    tmp_path: Path, broker: Mosquitto, store: PostgresStore
) -> None:
    sources = [write_table(tmp_path / f"src{i}", f"t{i}", hands=6, seed=i, first=6 * i)
               for i in range(3)]  # fmt: skip
    tables = [Half(source, tmp_path / "live") for source in sources]
    commands: dict[str, list[dict[str, Any]]] = {t.files.table: [] for t in tables}
    ingest = central(broker, store)
    links = [uplink(broker, t.files, commands[t.files.table]) for t in tables]
    for t in tables:
        t.write(0)
    wait_for(lambda: all(stored(store, t.source)[0] > 0 for t in tables), why="first half")

    broker.stop()  # the broker goes away mid-run; the tables keep writing
    for t in tables:
        t.write(1)
    time.sleep(1.0)
    assert all(link.waiting() > 0 for link in links)  # queued on disk
    broker.start()
    ingest.stop()  # and the central service restarts while the backlog flows
    ingest = central(broker, store)

    for t in tables:
        wait_for(partial(_all_stored, store, t.source), why=t.files.table)
    for t in tables:  # every hand's events in order, nothing twice
        for hand in t.source.hands:
            seqs = [e.seq for e in store.events(t.files.table, hand)]
            assert seqs == sorted(set(seqs))

    first = tables[0].files.table
    alert = store.alerts(table=first, limit=1)[0]
    assert "sent to table" in ingest.acknowledge(first, alert.id, "sup")
    wait_for(lambda: bool(commands[first]), why="the command at the table")
    assert commands[first][0]["alert"] == alert.id and commands[first][0]["user"] == "sup"
    assert all(not commands[t.files.table] for t in tables[1:])
    for link in links:
        link.stop()
    ingest.stop()
    uplinks = {h.table: h for t in tables for h in store.health(t.files.table)
               if h.source == "uplink"}  # fmt: skip
    assert {h.status for h in uplinks.values()} == {"offline"}  # each said goodbye


def test_a_restarted_uplink_resumes_from_what_the_broker_acknowledged(
    tmp_path: Path, broker: Mosquitto, store: PostgresStore
) -> None:
    table = Half(write_table(tmp_path / "src", "t9", hands=4), tmp_path / "live")
    figures = {"camera": "overhead", "wall": time.time(), "fps": 29.8, "frames_dropped": 3}
    table.files.cameras_dir.mkdir(parents=True)
    (table.files.cameras_dir / "overhead.json").write_text(json.dumps(figures))
    ingest = central(broker, store)
    link = uplink(broker, table.files, [])
    table.write(0)
    wait_for(lambda: link.waiting() == 0, why="first half acknowledged")
    wait_for(lambda: any(h.source == "camera:overhead" for h in store.health("t9")), why="camera")
    camera = next(h for h in store.health("t9") if h.source == "camera:overhead")
    assert (camera.status, camera.detail["frames_dropped"]) == ("running", 3)  # in the state
    link.stop()
    saved = json.loads((table.files.journal_dir / "t9.uplink.json").read_text())
    assert saved["acked"]["events"] == table.files.file("events").stat().st_size
    table.write(1)
    link = uplink(broker, table.files, [])
    wait_for(lambda: stored(store, table.source) == expected(table.source), why="all")
    link.stop()
    ingest.stop()


def test_a_queue_over_its_budget_drops_the_oldest_and_counts_them(
    tmp_path: Path, broker: Mosquitto, store: PostgresStore
) -> None:
    table = Half(write_table(tmp_path / "src", "t8", hands=4), tmp_path / "live")
    broker.stop()
    table.write(0)
    table.write(1)
    alerts_bytes = table.files.file("alerts").stat().st_size
    budget = alerts_bytes + 2000
    link = uplink(broker, table.files, [], queue_bytes=budget)
    # the uplink drops line after line: wait until it is within its budget, not the first drop
    wait_for(lambda: link.dropped > 0 and link.waiting() <= budget, why="within the budget")
    broker.start()
    ingest = central(broker, store)
    wait_for(lambda: link.waiting() == 0, why="the rest delivered")
    _, ids, _ = expected(table.source)
    wait_for(lambda: {a.id for a in store.alerts(table="t8")} == ids, why="every alert kept")
    wait_for(lambda: any(h.source == "uplink" and h.detail.get("dropped") == link.dropped
                         for h in store.health("t8")), why="the drops said")  # fmt: skip
    link.stop()
    ingest.stop()


def _bad_messages(table: str) -> list[tuple[str, bytes]]:
    """(topic, payload): rows a broken or hostile table could publish."""

    def row(kind: str, body: dict[str, Any]) -> tuple[str, bytes]:
        return wire.topic(table, kind), wire.encode(table, kind, f"bad-{kind}", body)

    return [
        row("alerts", {"hand": "1", "seq": 10**30, "rule": "R-X-1", "family": "f",
                       "severity": "warning", "seat": 1, "message": "m", "id": "big-seq"}),
        row("alerts", {"hand": "1", "seq": 5, "rule": "R-X-1", "family": "f",
                       "severity": "warning", "seat": {}, "message": "m", "id": "seat-object"}),
        row("events", {"seq": 900_001, "type": "hand_start", "hand": "x", "stacks": {"1": "lots"}}),
        row("events", {"seq": 900_002, "type": "hand_start", "stacks": {"1": 100}}),
        row("light", {"colour": "red", "pattern": "fast", "wall": 10**400}),
        row("hands", {"hand": {}, "pot": 5}),
        (wire.topic(table, "events"), b"{not json"),
        (wire.topic(table, "events"), b"[" * 5000 + b"]" * 5000),
        (wire.topic(table, "alerts"), json.dumps({"v": wire.SCHEMA, "table": table}).encode()),
        (wire.topic(table, "state"), json.dumps({"v": wire.SCHEMA, "wall": "soon",
                                                  "online": True}).encode()),
    ]  # fmt: skip


def test_poison_rows_are_quarantined_and_never_hold_up_the_rows_after_them(
    tmp_path: Path, broker: Mosquitto, store: PostgresStore
) -> None:
    source = write_table(tmp_path / "src", "t7", hands=6, seed=7)
    table = Half(source, tmp_path / "live")
    ingest = central(broker, store)
    link = uplink(broker, table.files, [])
    table.write(0)
    wait_for(lambda: stored(store, source)[0] > 0, why="first half")
    section = wire.BrokerSection(host="127.0.0.1", port=broker.port)
    hostile = wire.client(section, "feltwatch-table-t7-broken")
    hostile.connect("127.0.0.1", broker.port)
    hostile.loop_start()
    bad = _bad_messages("t7")
    for topic, payload in bad:
        hostile.publish(topic, payload, qos=1).wait_for_publish(10)
    table.write(1)  # good rows after the bad ones
    wait_for(lambda: stored(store, source) == expected(source), why="every good row")
    wait_for(lambda: len(store.quarantined("t7")) == len(bad), why="every bad row quarantined")
    assert all(q.reason and q.line for q in store.quarantined("t7"))
    assert "quarantined" in {h.source: h.message for h in store.health("t7")}["central"]
    hostile.loop_stop()
    hostile.disconnect()
    link.stop()
    ingest.stop()
