"""The floor under load: simulated tables (default 50) write the appliance's files at a live
table's pace, their uplinks (``feltwatch.appliance.uplink``, one process for all) publish them
through a real Mosquitto to ``feltwatch central`` on a real PostgreSQL. Reports, per phase: the rows
offered and stored per second, the latency from a table writing a line to the floor view's live push
delivering it (events and alerts, p50 / p99), and the CPU of each process (the broker, the uplinks,
the central service, PostgreSQL): the first bottleneck is the one at its limit.

Phases: a live table's rate (a hand every ``--hand-s`` seconds, 120: 30 hands an hour), then 10
times that, then a burst (every table's whole backlog written at once: the ingest at its limit).
The peer, measured in the same run: the same rows stored straight into PostgreSQL by the same
store code in one process (no broker, no MQTT): the ingest's ceiling without the transport.

    .venv/bin/python bench/central.py [--tables 50] [--seconds 120] [--faster 10]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).parent))  # after the packages: bench's own helpers
from simtables import PASSWORD, USER, Browser, cpu_s, listen, percentile, prepare, push  # noqa: E402


def run_uplinks(folder: Path, tables: list[str], port: int, stop_file: Path) -> None:
    """All the tables' uplinks, in this process, until ``stop_file`` appears."""
    from engine.table_files import TableFiles
    from feltwatch.appliance import mqtt as wire
    from feltwatch.appliance.uplink import Uplink

    section = wire.BrokerSection(host="127.0.0.1", port=port)
    links = [
        Uplink(
            TableFiles(table=t, journal_dir=folder / "live"),
            wire.client(section, f"feltwatch-table-{t}"),
            "127.0.0.1",
            port,
            queue_bytes=10**9,
            on_command=lambda _command: None,
        ).start()
        for t in tables
    ]
    while not stop_file.exists():
        time.sleep(0.2)
    for link in links:
        link.stop(drain_s=0)


def postgres_pids() -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    out.append(int(entry.name))
            except OSError:
                continue
    return out


class Cpu:
    """CPU seconds of named processes between two moments."""

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.pids = {**pids, "postgres": postgres_pids()}  # its backends come and go
        self.start = self._now()
        self.t0 = time.monotonic()

    def _now(self) -> dict[str, float]:
        out = {}
        for name, pids in self.pids.items():
            total = 0.0
            for pid in pids:
                try:
                    total += cpu_s(pid)
                except OSError:
                    continue
            out[name] = total
        return out

    def cores(self) -> dict[str, float]:
        now, took = self._now(), time.monotonic() - self.t0
        return {name: round((now[name] - self.start[name]) / took, 2) for name in now}


def stored_rows(dsn: str) -> int:
    import psycopg

    with psycopg.connect(dsn) as db:
        counts = [
            db.execute(f"SELECT COUNT(*) FROM {name}").fetchone() for name in ("events", "alerts")
        ]
    return sum(int(row[0]) for row in counts if row is not None)


def peer(rows: dict[str, dict[str, list[dict]]], dsn: str) -> float:
    """Rows per second stored straight by the store code (no broker), as the ingest stores them
    (a table's event lines a thousand to a transaction, an alert a transaction): the ceiling."""
    from dashboard.apply import Applier
    from dashboard.store.postgres import PostgresStore

    store = PostgresStore(dsn)
    apply = Applier(store)
    count = 0
    started = time.monotonic()
    for table, kinds in rows.items():
        for start in range(0, len(kinds["events"]), 1000):
            batch = kinds["events"][start : start + 1000]
            apply.events(table, batch)
            count += len(batch)
        for alert in kinds["alerts"]:
            apply.row(table, "alerts", alert)
            count += 1
    took = time.monotonic() - started
    store.close()
    return count / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--hand-s", type=float, default=120)
    parser.add_argument("--faster", type=float, default=10)
    args = parser.parse_args()
    from dashboard.security import hash_password
    from dashboard.store import Role
    from dashboard.store.postgres import PostgresStore
    from tests.services.servers import free_port, mosquitto, postgres, wait_port

    folder = Path(tempfile.mkdtemp(prefix="feltwatch-bench-central-"))
    print(f"[bench] preparing {args.tables} tables of real hands in {folder}", flush=True)
    rows = prepare(folder, args.tables, hands=8)
    (folder / "frame.jpg").write_bytes(b"")
    tables = list(rows)
    results = []
    with postgres(folder / "pg") as pg, mosquitto(folder / "broker") as broker:
        dsn = pg.database("floor")
        store = PostgresStore(dsn)
        store.add_user(USER, hash_password(PASSWORD), Role.SUPERVISOR, time.time())
        store.close()
        port = free_port()
        config = folder / "central.yaml"
        config.write_text(json.dumps({
            "broker": {"host": "127.0.0.1", "port": broker.port},
            "store": {"dsn": dsn},
            "dashboard": {"port": port, "secure_cookies": False},
        }))  # fmt: skip
        central = subprocess.Popen(
            [sys.executable, "-m", "feltwatch", "central", "--config", str(config)],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        wait_port(port)
        time.sleep(2.0)  # its MQTT subscription: from then on the broker keeps the tables' rows
        stop_file = folder / "stop-uplinks"
        uplinks = multiprocessing.Process(
            target=run_uplinks, args=(folder, tables, broker.port, stop_file)
        )
        uplinks.start()
        assert broker.process is not None
        pids = {
            "broker": [broker.process.pid],
            "uplinks": [uplinks.pid or 0],
            "central": [central.pid],
            "postgres": postgres_pids(),
        }
        listener = Browser(port)
        epoch = 0

        def phase(
            name: str, hand_s: float, seconds: float, skip_s: float = 0.0
        ) -> dict[str, object]:
            nonlocal epoch
            got_alerts: dict[str, float] = {}
            got_events: dict[str, float] = {}
            stop = threading.Event()
            ear = threading.Thread(
                target=listen, args=(listener, stop, got_alerts, got_events), daemon=True
            )
            ear.start()
            time.sleep(1.0)
            before = stored_rows(dsn)
            with multiprocessing.Manager() as manager:
                alerts, events, counts = manager.dict(), manager.dict(), manager.dict()
                writer = multiprocessing.Process(
                    target=push,
                    args=(folder, rows, hand_s, seconds, alerts, epoch, events, skip_s, counts),
                )
                cpu = Cpu(pids)
                t0 = time.monotonic()
                writer.start()
                writer.join()
                written_s = time.monotonic() - t0
                offered, timed = int(counts["rows"]), int(counts["timed"])
                deadline = time.monotonic() + 120
                while stored_rows(dsn) - before < offered and time.monotonic() < deadline:
                    time.sleep(0.2)
                took_s = time.monotonic() - t0
                cores = cpu.cores()
                time.sleep(1.0)
                stop.set()
                alert_times, event_times = dict(alerts), dict(events)
            ear.join(5)
            epoch += 1
            stored = stored_rows(dsn) - before
            event_ms = [
                1000 * (got_events[k] - t) for k, t in event_times.items() if k in got_events
            ]
            alert_ms = [
                1000 * (got_alerts[k] - t) for k, t in alert_times.items() if k in got_alerts
            ]
            return {
                "phase": name,
                "offered_rows": offered,
                "offered_per_s": timed / written_s,
                "stored_rows": stored,
                "stored_per_s": stored / took_s,
                "drain_s": took_s - written_s,
                "event_p50_ms": percentile(event_ms, 0.5),
                "event_p99_ms": percentile(event_ms, 0.99),
                "events_timed": len(event_ms),
                "alert_p50_ms": percentile(alert_ms, 0.5),
                "alert_p99_ms": percentile(alert_ms, 0.99),
                "alerts_timed": f"{len(alert_ms)}/{len(alert_times)}",
                "cpu_cores": cores,
            }

        try:
            # each table's first hand is written at once (not timed): the live phase then holds
            # the second hands, the first with irregularities
            live = phase(f"{args.tables} tables, live rate", args.hand_s, args.seconds, args.hand_s)
            results.append(live)
            results.append(
                phase(
                    f"{args.tables} tables, {args.faster:g}x",
                    args.hand_s / args.faster,
                    args.seconds / 2,
                )
            )
            # the burst: two rounds of every table's hands written as fast as they can be
            results.append(phase(f"{args.tables} tables, burst", 0.001, 0.016))
        finally:
            stop_file.touch()
            uplinks.join(30)
            central.send_signal(signal.SIGTERM)
            central.wait(30)
        ceiling = peer(rows, pg.database("peer"))
    print()
    print(f"{'phase':26} {'offered/s':>10} {'stored/s':>9} {'drain s':>8} "
          f"{'event p50/p99 ms':>17} {'alert p50/p99 ms':>17}  CPU cores")  # fmt: skip
    for r in results:
        print(
            f"{r['phase']:26} {r['offered_per_s']:>10.0f} {r['stored_per_s']:>9.0f} "
            f"{r['drain_s']:>8.1f} {r['event_p50_ms']:>8.0f} /{r['event_p99_ms']:>7.0f} "
            f"{r['alert_p50_ms']:>8.0f} /{r['alert_p99_ms']:>7.0f}  {r['cpu_cores']}"
        )
    burst = results[-1]
    print()
    print(f"peer: the store alone (no broker, no MQTT): {ceiling:.0f} rows/s; "
          f"the burst through the broker: {burst['stored_per_s']:.0f} rows/s = "
          f"{burst['stored_per_s'] / ceiling:.2f}x the peer")  # fmt: skip
    cores = burst["cpu_cores"]
    assert isinstance(cores, dict)
    busiest = max(cores.items(), key=lambda kv: kv[1])
    print(f"first bottleneck (busiest process in the burst): {busiest[0]} at {busiest[1]} cores")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
