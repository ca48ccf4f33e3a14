"""The uplink process of ``feltwatch run`` (when the configuration has ``central``): the table's
rows to the broker, the central service's acknowledgements to the engine (the light).

    python -m feltwatch.appliance.uplink_main --config table.yaml
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from engine.inputs import AlertAcknowledged
from feltwatch.appliance import mqtt as wire
from feltwatch.appliance.config import Config, config_main, load
from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE
from feltwatch.appliance.files import table_files
from feltwatch.appliance.ipc import ObservationSender
from feltwatch.appliance.service import process_log, stop_on_signals
from feltwatch.appliance.uplink import Uplink

LOG = logging.getLogger("feltwatch.uplink")


def run(config: Config, config_path: Path) -> int:
    if config.central is None:
        print(f"{config_path}: no central section: nothing to publish to", file=sys.stderr)
        return EXIT_UNUSABLE
    section = config.central
    table = config.table.name
    files = table_files(config)
    process_log("uplink", files.log("uplink"))
    engine = ObservationSender(files.socket).start()
    health_file = files.health

    def health(status: str, message: str) -> None:
        LOG.log(
            logging.INFO if status == "connected" else logging.WARNING,
            f"[{table}] uplink: {message}",
        )
        row = {"table": table, "wall": time.time(), "source": "uplink", "status": status}
        with health_file.open("a", encoding="utf-8") as file:
            file.write(json.dumps({**row, "message": message}) + "\n")

    def command(message: dict[str, Any]) -> None:
        if message.get("type") == "acknowledge" and message.get("alert"):
            user = f"{message.get('user', '?')} (central)"
            engine.send(
                AlertAcknowledged(
                    ts_ns=time.monotonic_ns(), device="central", alert=str(message["alert"]),
                    user=user,
                )
            )  # fmt: skip

    try:
        client = wire.client(section.broker, f"feltwatch-table-{table}", config_path.parent)
    except OSError as exc:
        LOG.error(f"{config_path}: central.broker.password_file: {exc}")
        return EXIT_UNUSABLE
    uplink = Uplink(
        files,
        client,
        section.broker.host,
        section.broker.port,
        queue_bytes=int(section.queue_mb * 1e6),
        on_command=command,
        keepalive_s=section.broker.keepalive_s,
    ).start()
    said: tuple[bool | None, int] = (None, 0)
    with stop_on_signals() as stop:
        while not stop.wait(0.5):
            now = (uplink.connected, uplink.dropped)
            if now != said:
                where = f"{section.broker.host}:{section.broker.port}"
                if not uplink.connected:
                    health("disconnected", f"broker {where} unreachable: queueing on disk")
                else:
                    health("connected", f"publishing to {where}")
                if uplink.dropped > said[1]:
                    health(
                        "warning", f"{uplink.dropped} lines dropped: the queue was over its budget"
                    )
                said = now
    uplink.stop()
    engine.stop(drain_s=2.0)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    return config_main("feltwatch-uplink", argv, run, load)


if __name__ == "__main__":
    sys.exit(main())
