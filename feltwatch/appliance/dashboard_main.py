"""The dashboard process of ``feltwatch run``: the store, the feed that follows the engine's and
cameras' files into it, and the web app (uvicorn, niced below the engine and cameras).

    python -m feltwatch.appliance.dashboard_main --config table.yaml

An acknowledgement on the dashboard goes to the engine over its socket (``engine.sock``), as an
``AlertAcknowledged`` input: journalled, and the light goes back to normal. While the engine is
down it waits in the sender's outbox and goes when the engine is back.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import sys
import time
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from dashboard.app import create_app
from dashboard.feed import Feed
from dashboard.security import hash_password
from dashboard.settings import Settings
from dashboard.store import Role
from dashboard.store.sqlite import SqliteStore
from engine.inputs import AlertAcknowledged
from feltwatch.appliance.config import Config, DashboardSection, config_main, load
from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE
from feltwatch.appliance.files import table_files
from feltwatch.appliance.ipc import ObservationSender
from feltwatch.appliance.service import process_log

LOG = logging.getLogger("feltwatch.dashboard")
NICE = 5
"""Below the engine and the cameras: a busy page must never delay an alert."""


class LightLink:
    """Acknowledgements to the engine of this table."""

    def __init__(self, socket: Path) -> None:
        self.sender = ObservationSender(socket).start()

    def __call__(self, table: str, alert_id: str, user: str) -> str:
        ack = AlertAcknowledged(
            ts_ns=time.monotonic_ns(), device="dashboard", alert=alert_id, user=user
        )
        self.sender.send(ack)
        if self.sender.connected:
            return "sent to the table: its light goes back to normal"
        return "the table's engine is not reachable: the light is told when it is back"


def open_store(config: Config) -> SqliteStore:
    store = SqliteStore(config.dashboard.store)
    if config.dashboard.demo_account and store.user("demo") is None:
        store.add_user("demo", hash_password("demo", demo=True), Role.ADMIN, time.time())
    return store


def resolve(config_path: Path, file: Path | None) -> str | None:
    if file is None:
        return None
    return str(file if file.is_absolute() else config_path.parent / file)


def serve(
    app: FastAPI, section: DashboardSection, config_path: Path, who: str, log: logging.Logger
) -> None:
    """Serve ``app`` as ``section`` says (HTTPS with its certificate) until SIGTERM/SIGINT."""
    scheme = "https" if section.tls_cert else "http"
    log.info(f"{who} dashboard: {scheme}://{section.host}:{section.port}")
    uvicorn.run(
        app,
        host=section.host,
        port=section.port,
        log_level="warning",
        access_log=False,
        proxy_headers=False,  # the app believes X-Forwarded-For from the trusted proxies only
        ssl_certfile=resolve(config_path, section.tls_cert),
        ssl_keyfile=resolve(config_path, section.tls_key),
    )


def run(config: Config, config_path: Path) -> int:
    with contextlib.suppress(OSError):
        os.nice(NICE)
    files = table_files(config)
    process_log("dashboard", files.log("dashboard"))
    try:
        store = open_store(config)
    except (OSError, sqlite3.Error) as exc:  # a folder it may not write, a broken file...
        where = config.dashboard.store
        LOG.error(f"[{config.table.name}] dashboard: cannot open its store {where}: {exc}")
        return EXIT_UNUSABLE
    feed = Feed(store, [files]).start()
    light = LightLink(files.socket)
    settings = Settings(
        tables={files.table: files},
        acknowledge=light,
        secure_cookies=config.dashboard.secure_cookies,
        demo=config.dashboard.demo_account,
        trusted_proxies=frozenset(config.dashboard.trusted_proxies),
        timezone=config.dashboard.timezone,
    )
    try:
        serve(
            create_app(store, settings),
            config.dashboard,
            config_path,
            f"[{config.table.name}]",
            LOG,
        )
    finally:
        feed.stop()
        feed.poll()  # what the engine wrote as it stopped (the dashboard stops last)
        light.sender.stop(drain_s=2.0)
        store.close()
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    return config_main("feltwatch-dashboard", argv, run, load)


if __name__ == "__main__":
    sys.exit(main())
