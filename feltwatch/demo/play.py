"""``feltwatch demo`` played: the simulated table's devices and timeline, the appliance's processes
under the supervisor, and what the session came to (alerts, hands judged, what failed)."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from feltwatch.appliance.config import load
from feltwatch.appliance.exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNUSABLE
from feltwatch.appliance.files import read_jsonl, table_files
from feltwatch.appliance.processes import supervise
from feltwatch.appliance.supervisor import Supervisor
from feltwatch.demo.camera import T0_FILE_ENV
from feltwatch.demo.prerender import prerender
from feltwatch.demo.timeline import TableSimulator, Timeline, central_broker, demo_config


def play(args: argparse.Namespace) -> int:
    from models.synth.session import DemoSession
    from models.synth.video import FPS

    folder: Path = args.dir
    if args.hands < 1 or not 0.25 <= args.speed <= 16:
        print("--hands: at least 1; --speed: from 0.25 to 16", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.central:
        try:
            central_broker(args.central)
        except ValueError:
            print(f"--central: HOST:PORT, not {args.central!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if not args.keep:  # a new session: a new journal, recording and light log (``--keep``: resume)
        for old in ("journal", "recordings"):
            shutil.rmtree(folder / old, ignore_errors=True)
        for name in (
            "light.jsonl",
            "dashboard.sqlite3",
            "dashboard.sqlite3-wal",
            "dashboard.sqlite3-shm",
        ):
            (folder / name).unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    session = DemoSession(seed=args.seed, hands=args.hands)
    args.video = prerender(session, folder) if args.prerender else None
    table = TableSimulator(session, folder, args.speed)
    table.start()
    config_path = demo_config(folder, table, args)
    config = load(config_path)
    length_s = session.frames / FPS / args.speed
    print(
        f"[demo] {args.hands} hands, seed {args.seed}, {length_s:.0f} s at {args.speed}x, vision: "
        f"{args.vision}; injected: "
        + (", ".join(f"hand {e.hand} {e.family}" for e in session.expected) or "none"),
        flush=True,
    )
    if config.dashboard.enabled:
        print(
            f"[demo] dashboard: http://127.0.0.1:{config.dashboard.port} (name demo, password "
            "demo: this account exists in the demo only)",
            flush=True,
        )
    timeline = Timeline(folder / "t0", config)
    said: list[bool] = []

    failed: list[str] = []

    def done(supervisor: Supervisor) -> bool:
        if not timeline.begun():
            down = [c.name for c in supervisor.children if c.given_up or c.finished]
            if down:
                failed.append(f"{', '.join(down)} never became ready: no hand was dealt")
                return True
            if not timeline.ready():
                return False
            table.play(timeline.begin())
        cameras = [c for c in supervisor.children if c.name.startswith("camera:")]
        finished = all(c.finished for c in cameras)
        over = finished or time.monotonic_ns() > timeline.t0_ns + length_s * 1e9 + 60e9
        if over and args.stay and config.dashboard.enabled:
            if not said:
                said.append(True)
                print("[demo] the hands are over; the dashboard stays up: Ctrl-C ends", flush=True)
            return False
        return over

    try:
        supervisor = supervise(
            config_path,
            config,
            env={T0_FILE_ENV: str(timeline.path)},
            until=done,
        )
    finally:
        table.stop()
    engine = supervisor.child("engine")
    if engine.stopped_with:  # its own messages say why
        failed.append(f"the engine stopped with status {engine.stopped_with}")
    files = table_files(config)
    alerts = read_jsonl(files.alerts)
    print(f"[demo] {len(alerts)} alerts in {files.alerts}", flush=True)
    closed = {str(row.get("hand")) for row in read_jsonl(files.hands)}
    if timeline.begun() and not failed and len(closed) < args.hands:
        failed.append(  # a part failed on the way (the engine, a camera, the disk)
            f"{len(closed)} of {args.hands} hands were judged: the session could not finish"
        )
    for reason in failed:
        print(f"[demo] error: {reason}", file=sys.stderr, flush=True)
    return EXIT_UNUSABLE if failed else EXIT_OK
