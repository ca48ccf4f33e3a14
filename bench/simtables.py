"""Simulated tables and browsers for the benchmarks (``bench/dashboard.py``, ``bench/central.py``):
tables that write the appliance's files at a live table's pace, from real hands completed by the
engine (with injected irregularities), and browsers that log in, load pages and listen to the
live push."""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

USER, PASSWORD = "bench", "bench password 1"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def prepare(
    folder: Path, tables: int, hands: int, distinct: int = 20
) -> dict[str, dict[str, list[dict]]]:
    """Each table's rows, by file, made by the engine from real hands (``distinct`` sessions,
    shared round-robin by the tables beyond that: making them is the slow part)."""
    from tests.dashboard.appliance import REAL, write_table

    sessions = []
    for i in range(min(tables, distinct)):
        made = write_table(
            folder / "source" / f"s{i}", f"s{i}", hands=hands, seed=i,
            first=(i * 7) % (len(REAL) - hands),
        )  # fmt: skip
        sessions.append(
            {
                kind: [json.loads(line) for line in made.file(kind).read_text().splitlines()]
                for kind in ("events", "alerts", "hands")
            }
        )
    return {f"t{i + 1:02d}": sessions[i % len(sessions)] for i in range(tables)}


def push(
    folder: Path,
    rows: dict[str, dict[str, list[dict]]],
    hand_s: float,
    seconds: float,
    alert_times: dict[str, float],
    epoch: int,
    event_times: dict[str, float] | None = None,
    skip_s: float = 0.0,
    counts: dict[str, int] | None = None,
) -> None:
    """Write the tables' files at their pace for ``seconds`` (a process of its own); ``epoch``
    keeps each phase's hands, seqs and alert ids apart from the others'. ``skip_s``: the first
    seconds of the tables' session are written at once (not timed), the rest at its pace.
    ``counts``: ``rows`` (event and alert lines written) and ``timed`` (those at the pace)."""
    written = timed_rows = 0
    live = folder / "live"
    live.mkdir(parents=True, exist_ok=True)
    frame = (folder / "frame.jpg").read_bytes()
    start = time.monotonic()
    plan: list[tuple[float, str, str, dict]] = []
    for t_index, (table, kinds) in enumerate(rows.items()):
        offset = t_index * hand_s / len(rows)  # the tables are not in step
        hand_of_seq: dict[int, int] = {}
        starts: list[int] = []
        for e in kinds["events"]:
            if e["type"] == "hand_start":
                starts.append(e["seq"])
        for e in kinds["events"]:
            hand_of_seq[e["seq"]] = sum(1 for s in starts if s <= e["seq"]) - 1
        per_hand: dict[int, list[dict]] = defaultdict(list)
        for e in kinds["events"]:
            per_hand[hand_of_seq[e["seq"]]].append(e)
        when_seq: dict[int, float] = {}
        loop = 0
        while True:
            base = offset + loop * len(per_hand) * hand_s
            if base > seconds:
                break
            for h, events in per_hand.items():
                for k, e in enumerate(events):
                    at = base + h * hand_s + hand_s * k / max(1, len(events))
                    when_seq[e["seq"] + (epoch * 1000 + loop) * 100_000] = at
                    seq = e["seq"] + (epoch * 1000 + loop) * 100_000
                    row = dict(e, seq=seq)
                    if e["type"] == "hand_start":
                        row["hand"] = f"{epoch}.{loop}-{e['hand']}"
                    plan.append((at, table, "events", row))
            for a in kinds["alerts"]:
                at = when_seq.get(a["seq"] + (epoch * 1000 + loop) * 100_000)
                if at is not None:
                    row = dict(
                        a,
                        hand=f"{epoch}.{loop}-{a['hand']}",
                        seq=a["seq"] + (epoch * 1000 + loop) * 100_000,
                    )
                    row["id"] = f"{table}-{epoch}.{loop}-{a['id']}"
                    plan.append((at, table, "alerts", row))
            for s in kinds["hands"]:
                hand_index = int(s["hand"]) - 1
                plan.append(
                    (
                        base + (hand_index + 1) * hand_s - 0.01,
                        table,
                        "hands",
                        dict(s, hand=f"{epoch}.{loop}-{s['hand']}"),
                    )
                )
            loop += 1
        for second in range(int(seconds) + 1):
            plan.append((second + offset % 1, table, "camera", {}))
    plan.sort(key=lambda p: p[0])
    files = {}
    for at_in_session, table, kind, row in plan:
        at = at_in_session - skip_s
        if at > seconds:
            break
        timed = at >= 0
        wait = start + at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if kind == "camera":
            folder_c = live / f"{table}.cameras"
            folder_c.mkdir(exist_ok=True)
            (folder_c / "overhead.jpg.part").write_bytes(frame)
            os.replace(folder_c / "overhead.jpg.part", folder_c / "overhead.jpg")
            (folder_c / "overhead.json").write_text(
                json.dumps(
                    {"camera": "overhead", "wall": time.time(), "fps": 30.0, "detector_fps": 10.0}
                )
            )
            continue
        if kind in ("alerts", "hands"):
            row["wall"] = time.time()
        if kind == "hands":
            row["started_wall"] = time.time() - hand_s
        key = (table, kind)
        if key not in files:
            files[key] = (live / f"{table}.{kind}.jsonl").open("a")
        if kind == "alerts" and timed:
            alert_times[row["id"]] = time.monotonic()
        elif kind == "events" and event_times is not None and timed:
            event_times[f"{table}:{row['seq']}"] = time.monotonic()
        files[key].write(json.dumps(row) + "\n")
        files[key].flush()
        if kind in ("events", "alerts"):
            written += 1
            timed_rows += timed
    if counts is not None:
        counts["rows"], counts["timed"] = written, timed_rows


class Browser:
    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.login()

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, float]:
        all_headers = {"Cookie": self.cookie, **(headers or {})}
        started = time.monotonic()
        self.conn.request(method, path, body=body, headers=all_headers)
        response = self.conn.getresponse()
        data = response.read()
        took = time.monotonic() - started
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie = value.split(";")[0]
                jar = dict(c.split("=", 1) for c in self.cookie.split("; ") if "=" in c)
                key, val = cookie.split("=", 1)
                jar[key] = val
                self.cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
        return response.status, data, took

    def login(self) -> None:
        self.request("GET", "/login")
        token = dict(c.split("=", 1) for c in self.cookie.split("; "))["feltwatch_login"]
        body = urlencode({"username": USER, "password": PASSWORD, "csrf": token, "next": "/"})
        status, _, _ = self.request(
            "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"}
        )
        assert status == 303, f"login: {status}"


def listen(
    browser: Browser,
    stop: threading.Event,
    got: dict[str, float],
    events: dict[str, float] | None = None,
) -> None:
    """One browser's live push, until ``stop``: when each alert arrived. (Read from the raw
    socket: each event is one chunk of the response, so its lines arrive whole.)"""
    import select
    import socket

    sock = socket.create_connection(("127.0.0.1", browser.port))
    request = (
        f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {browser.cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    )
    sock.sendall(request.encode())
    buffer = b""
    kind = ""
    while not stop.is_set():
        ready, _, _ = select.select([sock], [], [], 0.25)
        if not ready:
            continue
        data = sock.recv(65536)
        if not data:
            break
        now = time.monotonic()
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            text = line.decode(errors="replace").strip()
            if text.startswith("event:"):
                kind = text[6:].strip()
            elif text.startswith("data:") and kind == "alert":
                got.setdefault(json.loads(text[5:])["id"], now)
            elif text.startswith("data:") and kind == "event" and events is not None:
                change = json.loads(text[5:])
                events.setdefault(f"{change['table']}:{change['seq']}", now)
    sock.close()


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
