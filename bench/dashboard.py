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
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

sys.path.append(str(Path(__file__).parent))  # after the packages: bench's own helpers
from simtables import (  # noqa: E402
    PASSWORD,
    USER,
    Browser,
    cpu_s,
    listen,
    percentile,
    prepare,
    push,
)

# --- the dashboard process -------------------------------------------------------------------


def serve(folder: Path, port: int, tables: list[str]) -> None:
    import uvicorn

    from dashboard.app import create_app
    from dashboard.feed import Feed
    from dashboard.security import hash_password
    from dashboard.settings import Settings
    from dashboard.store import Role
    from dashboard.store.sqlite import SqliteStore
    from engine.table_files import TableFiles

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


# --- the browsers ----------------------------------------------------------------------------


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
