"""``feltwatch run``, ``feltwatch replay`` and ``feltwatch demo``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.alerts import Alert, alert_id
from engine.codec import event_to_json
from engine.core import Proved
from engine.events import Event
from engine.hand import HandReport
from engine.report import alert_line
from feltwatch.appliance.config import Config, ConfigError, load
from feltwatch.appliance.engine_service import replay_journal
from feltwatch.appliance.exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNUSABLE
from feltwatch.appliance.processes import supervise
from feltwatch.cli.common import naming


def _load(path: Path) -> Config | None:
    try:
        return load(path)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return None


def cmd_run(args: argparse.Namespace) -> int:
    config = _load(args.config)
    if config is None:  # the appliance cannot start on it
        return EXIT_UNUSABLE
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
        return EXIT_UNUSABLE
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


def add_run_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("run", help="run the appliance: cameras, devices, engine, alerts")
    p.add_argument("--config", type=Path, required=True, help="the table's configuration (YAML)")
    p.set_defaults(run=cmd_run)
    p = commands.add_parser("replay", help="re-run a journal: the same hand events and alerts")
    p.add_argument("journal", type=Path, metavar="JOURNAL")
    p.add_argument("--json", action="store_true", help="one JSON alert per line")
    p.add_argument("--events", metavar="FILE", help="write the hand events (event log v1) here")
    p.set_defaults(run=cmd_replay)
    from feltwatch.cli.demo import add_demo_parser

    add_demo_parser(commands)
