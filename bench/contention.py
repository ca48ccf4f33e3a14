"""The demo table under CPU contention: busy processes beside the appliance (twice as many as
the cores, by default), the models reading the frames. What a surveillance room would see: each
injected irregularity raised (verified or not, with its reason) or missed, every other alert by
severity (the target: no false critical), and the degraded camera as the dashboard showed it.

The session is rendered to a video first (``feltwatch demo --prerender``; not counted, and
without the busy processes): the cameras play it on the timeline and drop the frames they are too
late for, as live cameras do. In the same run, the peer: the same session's injected list, and
the load average the busy processes made.

    .venv/bin/python bench/contention.py [--hands 12] [--seed 13] [--busy N] [--dir FOLDER]

Exit status 1 when a false critical alert was raised, an injected irregularity was neither
raised nor reported unverified, or the dashboard never showed a degraded camera.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

SHOWN = ("degraded", "warning", "stale")
"""Health statuses of a camera the dashboard shows as not clear."""


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def camera_health(store: Path) -> list[tuple[str, str, str]]:
    """The dashboard's health rows of the cameras and their views, as it shows them now."""
    if not store.exists():
        return []
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=1.0) as db:
            rows = db.execute(
                "SELECT source, status, message FROM health "
                "WHERE source LIKE 'camera:%' OR source LIKE 'vision:%'"
            ).fetchall()
    except sqlite3.Error:
        return []  # being created, or busy: the next look sees it
    return [(str(s), str(t), str(m)) for s, t, m in rows]


def run_demo(
    args: argparse.Namespace, folder: Path
) -> tuple[list[dict[str, object]], list[str], float]:
    """The demo with ``args.busy`` busy processes beside it: its alerts, the degraded camera
    rows the dashboard showed, and the mean one-minute load average."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    shown: list[str] = []
    loads: list[float] = []
    try:
        demo = subprocess.Popen(
            [
                sys.executable, "-m", "feltwatch", "demo", "--dir", str(folder),
                "--hands", str(args.hands), "--seed", str(args.seed), "--vision", "models",
                "--prerender", "--port", str(free_port()),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "ORT_DISABLE_TELEMETRY": "1"},
        )  # fmt: skip
        while demo.poll() is None:
            time.sleep(1.0)
            loads.append(os.getloadavg()[0])
            for source, status, message in camera_health(folder / "dashboard.sqlite3"):
                line = f"{source} {status}: {message}"
                if status in SHOWN and line not in shown:
                    shown.append(line)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    if demo.returncode != 0:
        raise SystemExit(f"feltwatch demo exited with {demo.returncode}")
    alerts = [json.loads(line) for line in (folder / "journal/demo.alerts.jsonl").open()]
    return alerts, shown, sum(loads) / max(len(loads), 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--busy", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--dir", type=Path, help="working folder (keeps the rendered session)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the busy processes go with it
    from feltwatch.demo.prerender import prerender
    from models.synth.session import DemoSession

    session = DemoSession(seed=args.seed, hands=args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        prerender(session, folder)  # not counted, not under contention
        alerts, shown, load = run_demo(args, folder)
    print(
        f"seed {args.seed}, {args.hands} hands, {args.busy} busy processes on "
        f"{os.cpu_count()} cores (load average {load:.1f}): {len(alerts)} alerts"
    )
    injected = {e.hand: e for e in session.expected}
    failed = False
    for hand, expected in sorted(injected.items(), key=lambda kv: int(kv[0])):
        raised = [a for a in alerts if a["hand"] == hand and a["rule"] == expected.rule]
        if not raised:
            failed = True
            print(f"  hand {hand}: {expected.kind} ({expected.rule}) MISSED")
            continue
        alert = raised[0]
        how = f"unverified: {alert['unverified']}" if alert.get("unverified") else "verified"
        print(f"  hand {hand}: {expected.kind} ({expected.rule}) raised {alert['severity']}, {how}")
    false = [
        a for a in alerts if a["hand"] not in injected or a["rule"] != injected[a["hand"]].rule
    ]
    critical = [a for a in false if a["severity"] == "critical"]
    failed = failed or bool(critical) or not shown
    print(f"  other alerts: {len(false)} ({len(critical)} critical)")
    for a in false:
        why = f" (unverified: {a['unverified']})" if a.get("unverified") else ""
        print(f"    hand {a['hand']} {a['severity']} {a['rule']}: {a['message'][:120]}{why}")
    print(f"  the dashboard showed {len(shown)} degraded camera row(s)")
    for line in shown[:10]:
        print(f"    {line[:160]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
