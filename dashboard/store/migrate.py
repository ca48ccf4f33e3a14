"""Schema migrations: ``migrations/NNNN_name.sql`` apply to every database,
``NNNN_name.<dialect>.sql`` to that dialect only (``sqlite``, ``postgres``), in number order,
each once; ``schema_migrations`` lists what was applied."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Protocol

MIGRATIONS = Path(__file__).parent / "migrations"
NAME = re.compile(r"^(\d{4})_[a-z0-9_]+(?:\.(sqlite|postgres))?\.sql$")


class _Rows(Protocol):
    def fetchall(self) -> list[Any]: ...


class _Connection(Protocol):
    def execute(self, sql: str, /) -> _Rows: ...
    def executescript(self, sql: str, /) -> object: ...


def pending(dialect: str, applied: set[str]) -> list[Path]:
    out = []
    for path in sorted(MIGRATIONS.glob("*.sql")):
        match = NAME.match(path.name)
        if match is None:
            raise ValueError(f"{path}: not a migration name (NNNN_name[.dialect].sql)")
        if match.group(2) not in (None, dialect) or path.name in applied:
            continue
        out.append(path)
    return out


def migrate(db: _Connection, dialect: str) -> list[str]:
    """Apply what is pending; returns the names applied now."""
    db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY)")
    rows = db.execute("SELECT name FROM schema_migrations").fetchall()
    done = []
    for path in pending(dialect, {r[0] for r in rows}):
        sql = path.read_text()
        name = path.name.replace("'", "''")
        db.executescript(
            f"BEGIN;\n{sql}\nINSERT INTO schema_migrations VALUES ('{name}');\nCOMMIT;"
        )
        done.append(path.name)
    return done
