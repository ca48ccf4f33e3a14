"""The engine process of ``feltwatch run``: device links, the camera socket, the engine, the
journal and the alert fan-out (console, the dealer light, the files the dashboard reads).

    python -m feltwatch.appliance.engine_main --config table.yaml

Files, in the journal directory, per table: ``<table>.jsonl`` (the journal), ``<table>.events
.jsonl`` (the hand events, the table event log v1), ``<table>.alerts.jsonl`` (the alerts, one JSON
object per line as ``feltwatch check --json`` prints them, with ``table``, ``input_ts_ns`` and
``replayed``), ``<table>.hands.jsonl`` (each closed hand: computed vs observed pots, awards and
rake), ``<table>.light.jsonl`` (each light command and why: an alert, the dealer's button, an
acknowledgement on the dashboard), ``engine.sock`` (where cameras and the dashboard connect).
Wall-clock times (``wall``) are for people; the engine itself reads no clock.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Protocol

from devices.host import HostSession
from devices.link import DeviceLink
from devices.messages import DeviceKind
from engine.alerts import alert_id
from engine.codec import event_to_json
from engine.core import Proved
from engine.events import Event, HandStart
from engine.hand import HandReport
from engine.inputs import (
    AlertAcknowledged,
    DeviceHealth,
    DeviceInput,
    LightAcknowledged,
    LightState,
)
from engine.observations import EngineInput
from engine.report import alert_line
from engine.table_files import TableFiles
from feltwatch.appliance.clips import ClipMaker
from feltwatch.appliance.config import Config, ConfigError, config_main, load
from feltwatch.appliance.console import tolerate_full_disks
from feltwatch.appliance.engine_service import EngineService
from feltwatch.appliance.exits import EXIT_LINES_LOST, EXIT_OK
from feltwatch.appliance.files import last_event_seq, table_files
from feltwatch.appliance.ipc import ObservationServer
from feltwatch.appliance.journal import LineWriter, repair_last_line
from feltwatch.appliance.open_alerts import (
    CAUSE_ALERT,
    CAUSE_BUTTON,
    CAUSE_DASHBOARD,
    CAUSE_FAULT,
    Look,
    OpenAlerts,
)
from feltwatch.appliance.service import STOP_BUDGET_S, process_log, stop_on_signals

LOG = logging.getLogger("feltwatch.engine")

SOURCE_OUTPUT = "engine output"
"""The health source of the engine's writing: the journal and its output files."""


class Light(Protocol):
    """The table's light (its device link)."""

    def set_light(self, colour: str, pattern: str) -> None: ...


KINDS = {"shoe": DeviceKind.SHOE, "tray": DeviceKind.TRAY, "light": DeviceKind.LIGHT}


class FanOut:
    """Where the engine's output goes: the console, the light, and the files."""

    def __init__(self, config: Config, files: TableFiles) -> None:
        self.table = config.table.name
        self.light: Light | None = None
        self.clips: ClipMaker | None = None
        self.service: EngineService | None = None
        self._events = LineWriter(files.events, fsync=False)
        self._alerts = LineWriter(files.alerts, fsync=False)
        self._hands = LineWriter(files.hands, fsync=False)
        self._light = LineWriter(files.light, fsync=False)
        self._health = LineWriter(files.health, fsync=False)
        self._files = (self._events, self._alerts, self._hands, self._light, self._health)
        self._lock = threading.Lock()
        self._disk_error = ""
        """Why lines wait in memory (told once, and once more when they are written)."""
        self._started_wall: dict[str, float] = {}
        self.open_alerts = OpenAlerts.from_file(files.light)
        """Alerts not yet acknowledged: the light shows the worst of them."""
        self._light_lock = threading.RLock()
        """Held from a change of the open alerts to the light's command that shows it
        (re-entrant: the command's own line may find the disk full, and show the fault)."""

    def _row(self, file: LineWriter, row: dict[str, object]) -> None:
        self._line(file, json.dumps(row))

    def _line(self, file: LineWriter, text: str) -> None:
        """Append a line; lines the disk does not take wait in memory in order and are written
        when there is room again (the fault is told when that starts and ends)."""
        with self._lock:
            if file.write_line(text.encode() + b"\n"):
                for waiting in self._files:
                    if waiting.pending:
                        waiting.flush()
        self.check_disk()

    @property
    def disk_error(self) -> str:
        """Why lines wait in memory (empty: none does)."""
        return self._disk_error

    @property
    def look(self) -> Look:
        """What the light shows: the open alerts, or the fault while the appliance cannot
        record."""
        return self.open_alerts.look_with(bool(self._disk_error))

    def _writers(self) -> list[LineWriter]:
        journal = self.service.journal if self.service is not None else None
        return [*self._files, *([journal] if journal is not None else [])]

    def check_disk(self) -> None:
        """Tell when the journal or an output file starts or stops being written (after each
        line and each journalled input): the console, the light (``FAULT``) and the health file
        (its row waits with the rest, for the review)."""
        error = next((w.error for w in self._writers() if w.error), "")
        with self._lock:
            if bool(error) == bool(self._disk_error):
                return
            self._disk_error = error
        if error:
            message = f"cannot write: {error}; the engine goes on, its lines wait in memory"
        else:
            message = "every waiting line written"
        LOG.warning(f"[{self.table}] {SOURCE_OUTPUT}: {message}")
        with self._light_lock:  # (its own line, and the health row's, tell nothing new)
            self.set_light(self.look, CAUSE_FAULT, message=message)
        row = {"table": self.table, "wall": time.time(), "source": SOURCE_OUTPUT}
        status = "error" if error else "ok"
        self._row(self._health, {**row, "status": status, "message": message})

    def set_light(self, look: Look, cause: str, **why: object) -> int | None:
        """Command the light; the time the command was given (None: no light)."""
        if self.light is None:
            return None
        light_ns = time.monotonic_ns()  # when the command is given (it is written at once)
        self.light.set_light(*look)
        row = {"table": self.table, "wall": time.time(), "colour": look[0], "pattern": look[1]}
        self._row(self._light, {**row, "cause": cause, **why})
        return light_ns

    def event(self, event: Event) -> None:
        self._line(self._events, json.dumps(event_to_json(event), separators=(",", ":")))
        if isinstance(event, HandStart):
            self._started_wall[event.hand] = time.time()

    def alert(self, proved: Proved, *, replayed: bool) -> None:
        alert = proved.alert.to_json()
        key = alert_id(proved.table, alert)
        light_ns = None
        severity = proved.alert.severity
        with self._light_lock:  # first: the dealer must see it now
            if self.open_alerts.raised(key, severity):
                light_ns = self.set_light(
                    self.look,
                    CAUSE_ALERT,
                    hand=proved.alert.hand,
                    rule=proved.alert.rule,
                    alert=key,
                    severity=str(severity),
                )
        if self.clips is not None and not replayed:
            self.clips.add(proved)
        row = {
            "table": proved.table,
            "id": key,
            **alert,
            "input_ts_ns": proved.input_ts_ns,
            "received_ns": self.service.received_ns if self.service is not None else None,
            "light_ns": light_ns,
            "replayed": replayed,
            "wall": time.time(),
        }
        self._row(self._alerts, row)
        again = " (again, after a restart)" if replayed else ""
        LOG.info(f"[{proved.table}] {alert_line(proved.alert)}{again}")

    def hand(self, report: HandReport) -> None:
        count = len(report.alerts)
        self._row(self._hands, hand_row(report, self._started_wall.pop(report.hand, None)))
        LOG.info(f"[{self.table}] hand {report.hand} closed: {count} alert(s)")

    def health(self, source: str, status: str, message: str) -> None:
        """A condition of the inputs (a camera's view degraded, clear again) for the console
        and the dashboard's health view."""
        level = logging.INFO if status == "ok" else logging.WARNING
        LOG.log(level, f"[{self.table}] {source}: {message}")
        row = {"table": self.table, "wall": time.time(), "source": source}
        self._row(self._health, {**row, "status": status, "message": message})

    def error(self, message: str) -> None:
        LOG.error(f"[{self.table}] error: {message}")

    def device(self, item: DeviceInput) -> None:
        """Device conditions for the console (they are journalled like every input)."""
        if isinstance(item, DeviceHealth):
            level = logging.INFO if item.status == "ok" else logging.WARNING
            LOG.log(level, f"[{self.table}] {item.device}: {item.status}: {item.message}")
            row = {"table": self.table, "wall": time.time(), "source": item.device}
            self._row(self._health, {**row, "status": str(item.status), "message": item.message})
        elif isinstance(item, LightAcknowledged):
            with self._light_lock:
                self.open_alerts.button()
                self.set_light(self.look, CAUSE_BUTTON)
            LOG.info(f"[{self.table}] light: every alert acknowledged by the dealer")
        elif isinstance(item, AlertAcknowledged):
            with self._light_lock:
                self.open_alerts.acknowledged(item.alert)
                look, still = self.look, len(self.open_alerts)
                self.set_light(look, CAUSE_DASHBOARD, user=item.user, alert=item.alert)
            LOG.info(
                f"[{self.table}] light: alert {item.alert} acknowledged by {item.user}; "
                f"{still} still open, light {' '.join(look)}"
            )
        elif isinstance(item, LightState) and item.offline:
            LOG.warning(f"[{self.table}] light: shows monitor offline")

    def close(self) -> int:
        """Close the files; the lines that could not be written (lost)."""
        return sum(file.close() for file in self._files)


def hand_row(report: HandReport, started_wall: float | None) -> dict[str, object]:
    """A closed hand for the review: what the engine computed beside what the table did."""
    settlement = report.settlement
    return {
        "table": report.table,
        "hand": report.hand,
        "complete": report.complete,
        "cut": report.cut,
        "started_wall": started_wall,
        "wall": time.time(),
        "board": list(report.board),
        "shown": {str(seat): list(cards) for seat, cards in report.shown.items()},
        "starting_stacks": {str(k): v for k, v in report.starting_stacks.items()},
        "computed": {
            "pots": [
                {"name": p.name, "amount": p.amount, "eligible": list(p.eligible)}
                for p in settlement.pots
            ],
            "shares": {
                pot: {str(k): v for k, v in shares.items()}
                for pot, shares in settlement.shares.items()
            },
            "undecided": dict(settlement.undecided),
            "returned": {str(k): v for k, v in settlement.returned.items()},
            "rake": settlement.rake,
            "awards": {str(k): v for k, v in settlement.awards.items()},
        },
        "observed": {
            "awards": None
            if report.observed_awards is None
            else {str(k): v for k, v in report.observed_awards.items()},
            "rake": report.observed_rake,
        },
        "alerts": len(report.alerts),
    }


def clip_maker(config: Config, config_path: Path) -> ClipMaker:
    from feltwatch.appliance.zones import zone_config
    from vision.zones import ZoneError, ZoneMap

    cameras: dict[str, ZoneMap | None] = {}
    for camera in config.cameras:
        try:
            cameras[camera.name] = ZoneMap.from_config(zone_config(config, camera, config_path))
        except (OSError, ZoneError, ConfigError):
            cameras[camera.name] = None  # the camera process says why; clips without zones
    section = config.recording
    return ClipMaker(
        table_files(config),
        cameras,
        before_s=section.clip_before_s,
        after_s=section.clip_after_s,
        wait_s=2 * section.segment_s + 5,
    )


def run(config: Config, config_path: Path) -> int:
    files = table_files(config)
    config.journal.dir.mkdir(parents=True, exist_ok=True)
    process_log("engine", files.log("engine"))
    for record in (files.events, files.alerts):  # a line the power cut short
        repaired = repair_last_line(record)
        if repaired:
            LOG.warning(f"[{config.table.name}] {repaired}")
    outputs = FanOut(config, files)
    if config.recording.enabled and config.cameras:
        outputs.clips = clip_maker(config, config_path).start()
    service = EngineService(
        config.table.event(),
        files.journal,
        outputs,
        resume_after_seq=last_event_seq(files.events),
        camera=config.cameras[0].name if config.cameras else None,
    )
    outputs.service = service
    links: list[DeviceLink] = []

    def sink(item: DeviceInput) -> None:
        service.submit(item)
        outputs.check_disk()
        outputs.device(item)

    for name in ("light", "shoe", "tray"):  # the light first: alerts of a replayed hand
        section = getattr(config.devices, name)
        if section is None:
            continue
        link = DeviceLink(
            section.port, HostSession(name, KINDS[name]), sink, baudrate=section.baudrate
        )
        links.append(link)
        if name == "light":
            outputs.light = link
    outputs.set_light(outputs.look, "start", open_alerts=len(outputs.open_alerts))
    service.start()  # the journal replayed before new inputs come in
    for link in links:
        link.start()
    if service.restored_lines:
        LOG.info(f"[{config.table.name}] engine: replayed {service.restored_lines} journal lines")

    def from_socket(item: EngineInput) -> None:  # cameras' observations, the dashboard's inputs
        service.submit(item)
        outputs.check_disk()
        if isinstance(item, DeviceInput):
            outputs.device(item)

    server = ObservationServer(files.socket, from_socket, outputs.error).start()
    with stop_on_signals() as stop:
        LOG.info(f"[{config.table.name}] engine: ready")
        stop.wait()
    until_s = time.monotonic() + STOP_BUDGET_S  # within the supervisor's grace, however busy
    server.stop()
    for link in links:  # before the journal closes: they journal their last inputs
        link.stop()
    lost_inputs = service.stop(timeout_s=STOP_BUDGET_S / 2)  # the journal holds every input
    if outputs.clips is not None:
        uncut = outputs.clips.stop(until_s)
        if uncut:
            LOG.warning(
                f"[{config.table.name}] engine: stopped before cutting the clips of {uncut}"
                " alerts (clips.jsonl says which; the recordings keep the moments)"
            )
    lost_lines = outputs.close()
    if lost_inputs or lost_lines:
        LOG.error(
            f"[{config.table.name}] {SOURCE_OUTPUT}: stopped with {lost_inputs} journal lines "
            f"and {lost_lines} output lines never written: {outputs.disk_error}"
        )
        return EXIT_LINES_LOST
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    tolerate_full_disks()
    return config_main("feltwatch-engine", argv, run, load)


if __name__ == "__main__":
    sys.exit(main())
