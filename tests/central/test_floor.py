"""The floor end to end: three demo tables (``feltwatch demo``, each the real appliance with its
uplink) publish through a real Mosquitto to ``feltwatch central`` on a real PostgreSQL. The
broker is stopped and started again mid-run, and the central service is restarted; every alert
raised at the tables is in the central store and on the floor view, once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import psycopg
import yaml

from tests.services.servers import Postgres, free_port, mosquitto, wait_port

TABLES = ("t1", "t2", "t3")
PASSWORD = "floor supervisor 1"


def feltwatch(
    *argv: str, log: Path | None = None, stdin: str | None = None
) -> subprocess.Popen[bytes]:
    out = log.open("ab") if log is not None else subprocess.DEVNULL
    return subprocess.Popen(
        [sys.executable, "-m", "feltwatch", *argv],
        stdout=out, stderr=subprocess.STDOUT,
        stdin=subprocess.PIPE if stdin is not None else None,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip


def wait_subscribed(log: Path, times: int) -> None:
    """Until the central service has said it subscribed ``times`` times (once a start)."""
    deadline = time.monotonic() + 60
    while log.read_text().count("central: subscribed") < times:
        assert time.monotonic() < deadline, log.read_text()[-2000:]
        time.sleep(0.1)


def rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_three_tables_reach_the_floor_through_a_broker_outage_and_a_central_restart(
    tmp_path: Path, postgres_server: Postgres
) -> None:
    dsn = postgres_server.database("floor")
    port = free_port()
    with mosquitto(tmp_path / "broker") as broker:
        config = tmp_path / "central.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "broker": {"host": "127.0.0.1", "port": broker.port},
                    "store": {"dsn": dsn},
                    "dashboard": {"port": port, "secure_cookies": False},
                }
            )
        )
        add = feltwatch("users", "add", "sup", "--role", "supervisor", "--central", "--config",
                        str(config), "--password-stdin", stdin=PASSWORD)  # fmt: skip
        add.communicate(PASSWORD.encode() + b"\n", timeout=60)
        assert add.returncode == 0
        central = feltwatch("central", "--config", str(config), log=tmp_path / "central.log")
        wait_port(port)
        wait_subscribed(tmp_path / "central.log", 1)  # its session keeps what comes from then on
        demos = [  # t1 stays up after its hands (its dashboard on): its light is acknowledged later
            feltwatch("demo", "--dir", str(tmp_path / name), "--table", name, "--seed", str(i),
                      "--hands", "3", "--speed", "4", "--vision", "truth",
                      *(["--port", str(free_port()), "--stay"] if name == "t1"
                        else ["--port", "0"]),
                      "--central", f"127.0.0.1:{broker.port}", log=tmp_path / f"{name}.log")
            for i, name in enumerate(TABLES, 1)
        ]  # fmt: skip
        time.sleep(14)
        broker.stop()  # mid-run: the tables queue on disk
        time.sleep(5)
        broker.start()
        time.sleep(5)
        central.send_signal(signal.SIGTERM)  # and the central service restarts
        central.wait(30)
        central = feltwatch("central", "--config", str(config), log=tmp_path / "central.log")
        wait_port(port)
        wait_subscribed(tmp_path / "central.log", 2)
        for demo, name in zip(demos[1:], TABLES[1:], strict=True):
            assert demo.wait(timeout=400) == 0, (tmp_path / f"{name}.log").read_text()[-3000:]
        deadline = time.monotonic() + 400
        while "the hands are over" not in (tmp_path / "t1.log").read_text():
            assert time.monotonic() < deadline and demos[0].poll() is None
            time.sleep(0.2)

        raised = {
            name: rows(tmp_path / name / "journal" / f"{name}.alerts.jsonl") for name in TABLES
        }
        assert all(raised.values()), "every table raised alerts"
        events = {
            name: len(rows(tmp_path / name / "journal" / f"{name}.events.jsonl")) for name in TABLES
        }

        def central_store() -> tuple[dict[str, set[str]], dict[str, int], int]:
            with psycopg.connect(dsn) as db:
                ids: dict[str, set[str]] = {name: set() for name in TABLES}
                for table, alert in db.execute("SELECT table_name, id FROM alerts"):
                    ids.setdefault(table, set()).add(alert)
                counts: dict[str, int] = dict(
                    db.execute("SELECT table_name, COUNT(*) FROM events GROUP BY 1").fetchall()
                )
                row = db.execute("SELECT COUNT(*) FROM alerts").fetchone()
                total = int(row[0]) if row is not None else 0
            return ids, counts, total

        want = {name: {str(r["id"]) for r in raised[name]} for name in TABLES}
        deadline = time.monotonic() + 60
        while central_store()[:2] != (want, events):
            assert time.monotonic() < deadline, f"central: {central_store()} != {want}, {events}"
            time.sleep(0.5)
        assert central_store()[2] == sum(len(ids) for ids in want.values())  # no copies

        client = httpx.Client(base_url=f"http://127.0.0.1:{port}")
        assert client.get("/api/alerts").status_code == 401  # the floor's dashboard: its roles
        login = client.get("/login")
        assert login.status_code == 200
        form = {"username": "sup", "password": PASSWORD, "csrf": client.cookies["feltwatch_login"]}
        assert client.post("/login", data=form).status_code in (200, 303)
        floor = client.get("/")
        assert floor.status_code == 200
        for name in TABLES:
            assert f'data-table-card="{name}"' in floor.text
        listed = {a["id"] for a in client.get("/api/alerts?limit=2000").json()}
        assert listed == set().union(*want.values())
        tables = {t["name"]: t for t in client.get("/api/tables").json()}
        assert set(tables) == set(TABLES)

        # acknowledged on the floor -> the broker -> t1's uplink -> its engine -> its light
        alert = next(iter(want["t1"]))
        csrf = {"X-CSRF-Token": client.get("/api/me").json()["csrf"]}
        done = client.post(f"/api/alerts/{alert}/ack", headers=csrf).json()
        assert (done["status"], done["acknowledged_by"]) == ("acknowledged", "sup")
        light = tmp_path / "t1" / "journal" / "t1.light.jsonl"
        deadline = time.monotonic() + 30

        def told() -> list[dict[str, object]]:
            return [r for r in rows(light) if r.get("alert") == alert and r["cause"] == "dashboard"]

        while not told():
            assert time.monotonic() < deadline, "the acknowledgement never reached t1's light"
            time.sleep(0.2)
        assert told()[0]["user"] == "sup (central)"
        # The light shows the alerts still open: green only when none is.
        still = {str(r["severity"]) for r in raised["t1"] if r["id"] != alert}
        look = "red" if "critical" in still else "amber" if "warning" in still else "green"
        assert told()[0]["colour"] == look
        demos[0].send_signal(signal.SIGINT)
        assert demos[0].wait(60) == 0
        with psycopg.connect(dsn) as db:
            actions = [r[0] for r in db.execute("SELECT action FROM audit WHERE user_name = 'sup'")]
        assert "login" in actions and "acknowledge" in actions  # the floor's audit log
        central.send_signal(signal.SIGTERM)
        central.wait(30)
