"""The embedded store: SQLite in WAL mode (readers never wait for the feed's writes)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import cast

from dashboard.store.sql import Connection, SqlStore


class SqliteStore(SqlStore):
    dialect = "sqlite"
    begin = "BEGIN IMMEDIATE"

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        super().__init__()

    def _connect(self) -> Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        return cast(Connection, db)
