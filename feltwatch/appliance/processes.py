"""The appliance's processes at a table (dashboard, engine, one per camera, uplink) and the loop
that runs them under the supervisor until told to stop."""

from __future__ import annotations

import errno
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from feltwatch.appliance.config import Config
from feltwatch.appliance.files import table_files
from feltwatch.appliance.service import process_log, stop_on_signals
from feltwatch.appliance.supervisor import Child, Supervisor


def children(config_path: Path, config: Config, env: dict[str, str] | None = None) -> list[Child]:
    """The dashboard (it only reads what the others write, and stops last, once it has read
    all of it), the engine (it owns the journal and the devices), one process per camera."""
    py = sys.executable
    out = []
    if config.dashboard.enabled:
        argv = [py, "-m", "feltwatch.appliance.dashboard_main", "--config", str(config_path)]
        out.append(Child("dashboard", argv, env or {}))
    out.append(
        Child("engine", [py, "-m", "feltwatch.appliance.engine_main", "--config", str(config_path)])
    )
    for camera in config.cameras:
        process = (
            "feltwatch.demo.camera_main"
            if camera.source.startswith("demo")
            else ("feltwatch.appliance.camera_main")
        )
        argv = [py, "-m", process, "--config", str(config_path)]
        out.append(Child(f"camera:{camera.name}", [*argv, "--camera", camera.name], env or {}))
    if config.central is not None:
        argv = [py, "-m", "feltwatch.appliance.uplink_main", "--config", str(config_path)]
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
    files = table_files(config)
    health_log = files.health
    log = process_log("processes", files.log("processes"))

    def health(message: str) -> None:
        """Say it, and keep it for the dashboard (``<table>.health.jsonl``)."""
        log.info(f"[{table}] health: {message}")
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
            log.warning(f"[{table}] health: cannot write {health_log}: {exc.strerror}")

    supervisor = Supervisor(children(config_path, config, env), health=health)
    with stop_on_signals() as stop:
        supervisor.start()
        try:
            while not stop.is_set() and not until(supervisor):
                supervisor.poll()
                stop.wait(0.1)
        finally:
            supervisor.stop()
    return supervisor
