"""``feltwatch central --config central.yaml``: the floor's central service. It subscribes to
every table's topics on the broker, stores what they publish in PostgreSQL (the dashboard's
repository, the same migrations as the appliance's SQLite store) and serves the dashboard for
the whole floor: every table's state and open alerts, and everything of the single-table
dashboard per table. An acknowledgement there goes to the table (its light) over the broker.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from dashboard.app import create_app
from dashboard.settings import Settings
from dashboard.store.postgres import PostgresStore
from feltwatch.appliance import mqtt as wire
from feltwatch.appliance.config import config_main
from feltwatch.appliance.dashboard_main import serve
from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE
from feltwatch.appliance.service import process_log
from feltwatch.central.config import CentralConfig, load_central
from feltwatch.central.ingest import Ingest

CLIENT_ID = "feltwatch-central"
"""One central service per broker: its persistent session keeps what arrives while it is down."""


def run(config: CentralConfig, config_path: Path) -> int:
    import psycopg

    with contextlib.suppress(OSError):
        os.nice(5)
    log = process_log("central", None)  # the console: the service manager keeps it
    try:
        store = PostgresStore(config.dsn(config_path.parent))
    except (psycopg.Error, OSError) as exc:
        log.error(f"{config_path}: store: cannot open {config.store.dsn}: {exc}")
        return EXIT_UNUSABLE
    client = wire.client(config.broker, CLIENT_ID, config_path.parent, manual_ack=True)
    broker = config.broker
    ingest = Ingest(store, client, broker.host, broker.port, broker.keepalive_s).start()
    section = config.dashboard
    app = create_app(
        store,
        Settings(
            acknowledge=ingest.acknowledge,
            secure_cookies=section.secure_cookies,
            trusted_proxies=frozenset(section.trusted_proxies),
            timezone=section.timezone,
        ),
    )
    try:
        serve(app, section, config_path, f"central: broker {broker.host}:{broker.port};", log)
    finally:
        ingest.stop()
        store.close()
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    return config_main("feltwatch-central", argv, run, load_central)


if __name__ == "__main__":
    sys.exit(main())
