"""The dashboard under load: 20 simulated tables push their appliance files at a live table's
rate while simulated surveillance browsers load pages and API calls, and keep the live push
open; it reports p50 / p99 latency of pages and API calls, the time from the engine writing an
alert to a browser's live push receiving it, and the dashboard process's CPU.

The peer, measured in the same run: the same dashboard and browsers with no table pushing (the
dashboard idle). Then (``--faster X``, default 10) the tables push X times faster.

    .venv/bin/python bench/dashboard.py [--tables 20] [--seconds 60] [--faster 10]

The tables replay real hands (../shared/data/phh, completed and with injected irregularities by
the engine, as the dashboard's tests make them): each hand's event-log lines spread over
``--hand-s`` seconds (60: a fast dealer's 60 hands an hour; a live table deals 25-40), its alerts
written when their proving event is, its summary at its end, the camera's view and figures
every second. Everything runs on this machine's cores: the dashboard process (niced as in the
appliance), the table writers and the browsers (one process each).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

USER, PASSWORD = "bench", "bench password 1"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# --- the dashboard process -------------------------------------------------------------------


def serve(folder: Path, port: int, tables: list[str]) -> None:
    import uvicorn

    from dashboard.app import create_app
    from dashboard.feed import Feed, TableFiles
    from dashboard.security import hash_password
    from dashboard.settings import Settings
    from dashboard.store import Role
    from dashboard.store.sqlite import SqliteStore

    os.nice(5)
    store = SqliteStore(folder / "dashboard.sqlite3")
    if store.user(USER) is None:
        store.add_user(USER, hash_password(PASSWORD), Role.SUPERVISOR, time.time())
    files = [
        TableFiles(table=t, journal_dir=folder / "live", media_root=folder / "media")
        for t in tables
    ]
    feed = Feed(store, files).start()
    app = create_app(
        store,
        Settings(tables={f.table: f for f in files}, secure_cookies=False),
    )
    try:
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    finally:
        feed.stop()


# --- the tables ------------------------------------------------------------------------------


def prepare(folder: Path, tables: int, hands: int) -> dict[str, dict[str, list[dict]]]:
    """Each table's rows, by file, made by the engine from real hands."""
    from tests.dashboard.appliance import REAL, write_table

    out = {}
    for i in range(tables):
        name = f"t{i + 1:02d}"
        made = write_table(
            folder / "source" / name, name, hands=hands, seed=i, first=(i * 7) % (len(REAL) - hands)
        )
        out[name] = {
            kind: [json.loads(line) for line in made.file(kind).read_text().splitlines()]
            for kind in ("events", "alerts", "hands")
        }
    return out


def push(
    folder: Path,
    rows: dict[str, dict[str, list[dict]]],
    hand_s: float,
    seconds: float,
    alert_times: dict[str, float],
    epoch: int,
) -> None:
    """Write the tables' files at their pace for ``seconds`` (a process of its own); ``epoch``
    keeps each phase's hands, seqs and alert ids apart from the others'."""
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
    for at, table, kind, row in plan:
        if at > seconds:
            break
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
        if kind == "alerts":
            alert_times[row["id"]] = time.monotonic()
        files[key].write(json.dumps(row) + "\n")
        files[key].flush()


# --- the browsers ----------------------------------------------------------------------------


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
        from urllib.parse import urlencode

        body = urlencode({"username": USER, "password": PASSWORD, "csrf": token, "next": "/"})
        status, _, _ = self.request(
            "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"}
        )
        assert status == 303, f"login: {status}"


def browse(
    browser: Browser, tables: list[str], seconds: float, out: list[tuple[str, float]], seed: int
) -> None:
    rng = random.Random(seed)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status, data, took = browser.request("GET", "/api/tables")
        out.append(("api /api/tables", took))
        known = [t["name"] for t in json.loads(data)] if status == 200 else []
        if not known:  # no table has reported yet
            time.sleep(0.5)
            continue
        table = rng.choice(known)
        for kind, path in (
            ("page /", "/"),
            ("page /tables/T", f"/tables/{table}"),
            ("api /api/tables/T", f"/api/tables/{table}"),
            ("api /api/alerts", "/api/alerts?status=open"),
            ("page /hands", f"/hands?table={table}"),
            ("api /api/hands", f"/api/hands?table={table}&limit=50"),
        ):
            status, data, took = browser.request("GET", path)
            if status != 200:
                raise RuntimeError(f"{path}: {status} {data[:200]!r}")
            out.append((kind, took))
            if kind == "api /api/hands":
                hands = json.loads(data)
                if hands:
                    h = hands[0]
                    status, _, took = browser.request("GET", f"/hands/{h['table']}/{h['hand']}")
                    out.append(("page /hands/T/H", took))
        time.sleep(rng.uniform(0.2, 0.8))  # a person reading


def listen(browser: Browser, stop: threading.Event, got: dict[str, float]) -> None:
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
    sock.close()


def phase(
    name: str,
    browsers: list[Browser],
    listeners: list[Browser],
    pid: int,
    tables: list[str],
    seconds: float,
    pushing: dict[str, object] | None,
) -> dict[str, object]:
    written: dict[str, float] = {}
    got: dict[str, float] = {}
    stop = threading.Event()
    ears = [threading.Thread(target=listen, args=(b, stop, got), daemon=True) for b in listeners]
    for t in ears:
        t.start()
    time.sleep(1.0)
    with multiprocessing.Manager() as manager:
        shared = manager.dict()
        pusher = None
        if pushing is not None:
            pusher = multiprocessing.Process(
                target=push,
                args=(
                    pushing["folder"],
                    pushing["rows"],
                    pushing["hand_s"],
                    seconds,
                    shared,
                    pushing["epoch"],
                ),
            )
        cpu0, t0 = cpu_s(pid), time.monotonic()
        if pusher is not None:
            pusher.start()
        results = run_browsers(browsers, tables, seconds)
        if pusher is not None:
            pusher.join()
        cpu = (cpu_s(pid) - cpu0) / (time.monotonic() - t0)
        time.sleep(2.0)  # the last alerts' push
        written = dict(shared)
    stop.set()
    for t in ears:
        t.join(5)
    pages = [t for k, t in results if k.startswith("page")]
    apis = [t for k, t in results if k.startswith("api")]
    push_ms = [1000 * (got[i] - t) for i, t in written.items() if i in got]
    return {
        "phase": name,
        "requests": len(results),
        "page_p50_ms": 1000 * percentile(pages, 0.5),
        "page_p99_ms": 1000 * percentile(pages, 0.99),
        "api_p50_ms": 1000 * percentile(apis, 0.5),
        "api_p99_ms": 1000 * percentile(apis, 0.99),
        "alerts_written": len(written),
        "alerts_pushed": sum(1 for i in written if i in got),
        "push_p50_ms": percentile(push_ms, 0.5),
        "push_p99_ms": percentile(push_ms, 0.99),
        "dashboard_cpu_cores": cpu,
        "by_kind_p99_ms": {
            k: round(1000 * percentile([t for kk, t in results if kk == k], 0.99), 1)
            for k in sorted({k for k, _ in results})
        },
    }


def run_browsers(
    browsers: list[Browser], tables: list[str], seconds: float
) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    threads = [
        threading.Thread(target=browse, args=(b, tables, seconds, out, i))
        for i, b in enumerate(browsers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument(
        "--seconds",
        type=float,
        default=150,
        help="of the real-rate phase (long enough for each table to reach a hand with an "
        "irregularity); the idle peer runs a fifth of it, the faster phase 40 %%",
    )
    parser.add_argument("--hand-s", type=float, default=60)
    parser.add_argument("--browsers", type=int, default=6)
    parser.add_argument("--faster", type=float, default=10)
    parser.add_argument("--serve", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        folder, port, tables = args.serve
        serve(Path(folder), int(port), tables.split(","))
        return
    import cv2
    import numpy as np

    folder = Path(tempfile.mkdtemp(prefix="feltwatch-bench-dashboard-"))
    print(f"[bench] preparing {args.tables} tables of real hands in {folder}", flush=True)
    rows = prepare(folder, args.tables, hands=8)
    _, jpeg = cv2.imencode(".jpg", np.full((540, 960, 3), (30, 90, 30), np.uint8))
    (folder / "frame.jpg").write_bytes(jpeg.tobytes())
    tables = list(rows)
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(folder), str(port), ",".join(tables)],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline, "the dashboard did not start"
                time.sleep(0.2)
        browsers = [Browser(port) for _ in range(args.browsers)]  # logged in once each
        listeners = [Browser(port) for _ in range(max(1, args.browsers // 2))]
        live: dict[str, object] = {
            "folder": folder,
            "rows": rows,
            "hand_s": args.hand_s,
            "epoch": 0,
        }
        results = [
            phase(
                f"{args.tables} tables, real rate",
                browsers,
                listeners,
                server.pid,
                tables,
                args.seconds,
                live,
            ),
            phase(  # the peer: the same data, nobody pushing
                "idle (peer)", browsers, listeners, server.pid, tables, args.seconds / 5, None
            ),
        ]
        if args.faster > 1:
            fast = dict(live, hand_s=args.hand_s / args.faster, epoch=1)
            results.append(
                phase(
                    f"{args.tables} tables, {args.faster:g}x rate",
                    browsers,
                    listeners,
                    server.pid,
                    tables,
                    args.seconds / 2.5,
                    fast,
                )
            )
    finally:
        server.terminate()
        server.wait(10)
    print()
    print(
        f"{'phase':28} {'requests':>8} {'page p50/p99 ms':>18} {'api p50/p99 ms':>17} "
        f"{'alert push p50/p99 ms':>22} {'alerts':>8} {'CPU':>6}"
    )
    for r in results:
        print(
            f"{r['phase']:28} {r['requests']:>8} "
            f"{r['page_p50_ms']:>8.1f} /{r['page_p99_ms']:>7.1f} "
            f"{r['api_p50_ms']:>7.1f} /{r['api_p99_ms']:>7.1f} "
            f"{r['push_p50_ms']:>10.1f} /{r['push_p99_ms']:>8.1f} "
            f"{r['alerts_pushed']:>3}/{r['alerts_written']:<4} {r['dashboard_cpu_cores']:>6.2f}"
        )
    loaded, idle = results[0], results[1]
    print()
    print(
        f"p99 under {loaded['phase']} vs idle (peer): pages "
        f"{loaded['page_p99_ms'] / idle['page_p99_ms']:.2f}x, API "
        f"{loaded['api_p99_ms'] / idle['api_p99_ms']:.2f}x"
    )
    print("p99 by request, loaded:", json.dumps(loaded["by_kind_p99_ms"]))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
