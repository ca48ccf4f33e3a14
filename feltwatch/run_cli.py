"""``feltwatch run``, ``feltwatch replay`` and ``feltwatch demo``."""

from __future__ import annotations

import argparse
import errno
import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.alerts import Alert, alert_id
from engine.codec import event_to_json
from engine.events import Event
from engine.hand import HandReport
from feltwatch.config import Config, ConfigError, load
from feltwatch.engine_core import Proved
from feltwatch.engine_service import replay_journal
from feltwatch.output_errors import naming
from feltwatch.report import alert_line
from feltwatch.supervisor import Child, Supervisor

EXIT_OK, EXIT_BAD_INPUT, EXIT_UNUSABLE = 0, 1, 2


def children(config_path: Path, config: Config, env: dict[str, str] | None = None) -> list[Child]:
    """The dashboard (it only reads what the others write, and stops last, once it has read
    all of it), the engine (it owns the journal and the devices), one process per camera."""
    py = sys.executable
    out = []
    if config.dashboard.enabled:
        argv = [py, "-m", "feltwatch.dashboard_main", "--config", str(config_path)]
        out.append(Child("dashboard", argv, env or {}))
    out.append(Child("engine", [py, "-m", "feltwatch.engine_main", "--config", str(config_path)]))
    for camera in config.cameras:
        argv = [py, "-m", "feltwatch.camera_main", "--config", str(config_path)]
        out.append(Child(f"camera:{camera.name}", [*argv, "--camera", camera.name], env or {}))
    if config.central is not None:
        argv = [py, "-m", "feltwatch.uplink_main", "--config", str(config_path)]
        out.insert(0, Child("uplink", argv, env or {}))  # stops last: publishes what is left
    return out


def supervise(
    config_path: Path,
    config: Config,
    *,
    env: dict[str, str] | None = None,
    until: Callable[[Supervisor], bool] = lambda s: False,
) -> Supervisor:
    """Run the appliance's processes until ``until`` says so, SIGTERM or Ctrl-C."""
    table = config.table.name
    health_log = config.journal.dir / f"{table}.health.jsonl"

    def health(message: str) -> None:
        """Say it, and keep it for the dashboard (``<table>.health.jsonl``)."""
        print(f"[{table}] health: {message}", flush=True)
        row = {"table": table, "ts_ns": time.monotonic_ns(), "wall": time.time()}
        row.update(source="processes", status="notice", message=message)
        try:
            health_log.parent.mkdir(parents=True, exist_ok=True)
            line = json.dumps(row).encode() + b"\n"
            with health_log.open("ab", buffering=0) as file:
                start = file.tell()
                try:
                    if file.write(line) != len(line):
                        raise OSError(errno.ENOSPC, "No space left on device")
                except OSError:
                    file.truncate(start)  # a whole line or none: the engine appends here too
                    raise
        except OSError as exc:
            print(f"[{table}] health: cannot write {health_log}: {exc.strerror}", flush=True)

    supervisor = Supervisor(children(config_path, config, env), health=health)
    stop = threading.Event()
    previous = [signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)]
    supervisor.start()
    try:
        while not stop.is_set() and not until(supervisor):
            supervisor.poll()
            stop.wait(0.1)
    finally:
        supervisor.stop()
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])
    return supervisor


def _load(path: Path) -> Config | None:
    try:
        return load(path)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return None


def cmd_run(args: argparse.Namespace) -> int:
    config = _load(args.config)
    if config is None:
        return EXIT_BAD_INPUT
    print(f"[{config.table.name}] feltwatch run: journal in {config.journal.dir}", flush=True)
    supervise(args.config, config)
    return EXIT_OK


# --- replay -----------------------------------------------------------------------------------


class _Collect:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.alerts: list[Proved] = []
        self.hands: list[HandReport] = []
        self.errors: list[str] = []
        self.health_notes: list[str] = []

    def event(self, event: Event) -> None:
        self.events.append(event)

    def alert(self, proved: Proved, *, replayed: bool) -> None:
        self.alerts.append(proved)

    def hand(self, report: HandReport) -> None:
        self.hands.append(report)

    def error(self, message: str) -> None:
        self.errors.append(message)

    def health(self, source: str, status: str, message: str) -> None:
        self.health_notes.append(f"{source}: {status}: {message}")


def cmd_replay(args: argparse.Namespace) -> int:
    path: Path = args.journal
    if not path.is_file():
        print(f"{path}: no such journal", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = _Collect()
    core, lines = replay_journal(path, out)
    if core is None:
        print(f"{path}: no table line: not a Feltwatch journal", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.events:
        with naming(args.events), Path(args.events).open("w", encoding="utf-8") as file:
            for event in out.events:
                file.write(json.dumps(event_to_json(event), separators=(",", ":")) + "\n")
    for proved in out.alerts:
        alert: Alert = proved.alert
        print(
            json.dumps(
                {
                    "table": proved.table,
                    "id": alert_id(proved.table, alert.to_json()),
                    **alert.to_json(),
                }
            )
            if args.json
            else alert_line(alert)
        )
    for message in out.errors:
        print(f"error: {message}", file=sys.stderr)
    for note in out.health_notes:
        print(f"health: {note}", file=sys.stderr)
    print(
        f"{lines} journal lines, {core.inputs} inputs, {len(out.events)} events, "
        f"{len(out.hands)} hands closed, {len(out.alerts)} alerts"
        + (f", hand {core.open_hand} still open" if core.open_hand else ""),
        file=sys.stderr,
    )
    return EXIT_OK


def add_run_parsers(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = commands.add_parser("run", help="run the appliance: cameras, devices, engine, alerts")
    p.add_argument("--config", type=Path, required=True, help="the table's configuration (YAML)")
    p.set_defaults(run=cmd_run)
    p = commands.add_parser("replay", help="re-run a journal: the same hand events and alerts")
    p.add_argument("journal", type=Path, metavar="JOURNAL")
    p.add_argument("--json", action="store_true", help="one JSON alert per line")
    p.add_argument("--events", metavar="FILE", help="write the hand events (event log v1) here")
    p.set_defaults(run=cmd_replay)
    from feltwatch.demo_cli import add_demo_parser

    add_demo_parser(commands)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
