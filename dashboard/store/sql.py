"""The store in SQL, for any database with a DB-API connection: one connection per thread,
writes serialised by one lock (the live push reads ``changes`` by id: ids must become visible
in order), migrations applied at open. ``SqliteStore`` (embedded) and ``PostgresStore`` (the
central service) give the connection; the SQL is written once, with ``?`` parameters."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from dashboard.store import (
    QUARANTINE_LINE_CHARS,
    AlertRow,
    AlertStatus,
    AuditRow,
    Change,
    ClipRow,
    EventRow,
    HandQuery,
    HandRow,
    HealthRow,
    QuarantineRow,
    Role,
    SessionRow,
    StoreError,
    TableRow,
    UserRow,
    alert_json,
)
from dashboard.store.migrate import migrate


class Row(Protocol):
    def __getitem__(self, key: int | str, /) -> Any: ...


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Row | None: ...
    def fetchall(self) -> list[Row]: ...


class Connection(Protocol):
    def execute(self, sql: str, args: Sequence[object] = (), /) -> Cursor: ...
    def executescript(self, sql: str, /) -> object: ...
    def close(self) -> None: ...


KEEP_CHANGES = 20_000
"""The live push reads changes from an id on; older ones are pruned (a browser that was away
longer reloads the page)."""


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class SqlStore:
    dialect = ""
    """``sqlite`` or ``postgres``: which migrations apply."""
    begin = "BEGIN"

    def __init__(self) -> None:
        self._local = threading.local()
        self._write = threading.Lock()
        self._connections: dict[threading.Thread, Connection] = {}
        """Each thread's connection (the web server's worker threads come and go: a gone
        thread's connection is closed when another thread connects)."""
        self._connecting = threading.Lock()
        self._puts = 0
        with self._write:
            self.applied = migrate(self._db(), self.dialect)

    # --- plumbing ---

    def _connect(self) -> Connection:
        raise NotImplementedError

    def _db(self) -> Connection:
        db: Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._connect()
            self._local.db = db
            with self._connecting:
                for thread in [t for t in self._connections if not t.is_alive()]:
                    with contextlib.suppress(Exception):  # whatever state it was left in
                        self._connections.pop(thread).close()
                self._connections[threading.current_thread()] = db
        return db

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self._write:
            db = self._db()
            db.execute(self.begin)
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _rows(self, sql: str, args: Sequence[object] = ()) -> list[Row]:
        return self._db().execute(sql, tuple(args)).fetchall()

    @staticmethod
    def _one(db: Connection, sql: str, args: Sequence[object]) -> Row:
        """The one row ``sql`` selects (written in the same transaction: it is there)."""
        row = db.execute(sql, tuple(args)).fetchone()
        if row is None:
            raise LookupError(f"no row for {sql} {args}")
        return row

    def _change(self, db: Connection, kind: str, table: str, body: object, at: float) -> None:
        db.execute(
            "INSERT INTO changes (kind, table_name, body, at) VALUES (?, ?, ?, ?)",
            (kind, table, _json(body), at),
        )
        self._puts += 1
        if self._puts % 1000 == 0:
            db.execute(
                "DELETE FROM changes WHERE id <= (SELECT MAX(id) FROM changes) - ?", (KEEP_CHANGES,)
            )

    def close(self) -> None:
        with self._connecting:
            for db in self._connections.values():
                db.close()
            self._connections.clear()
        self._local = threading.local()

    # --- the appliance's output ---

    def put_events(self, table: str, rows: Sequence[Mapping[str, Any]], at: float) -> int:
        """Store event-log lines (copies by ``seq`` are ignored); returns how many were new."""
        if not rows:
            return 0
        new = 0
        with self._tx() as db:
            db.execute(
                "INSERT INTO poker_tables (name, updated_at) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at",
                (table, at),
            )
            current = db.execute(
                "SELECT hand FROM events WHERE table_name = ? AND type = 'hand_start'"
                " AND seq < ? ORDER BY seq DESC LIMIT 1",
                (table, rows[0]["seq"]),
            ).fetchone()
            hand: str | None = current[0] if current else None
            for row in rows:
                kind = str(row["type"])
                if kind == "hand_start":
                    hand = str(row["hand"])
                cursor = db.execute(
                    "INSERT INTO events (table_name, seq, hand, type, body) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (table, int(row["seq"]), hand if kind != "table" else None, kind, _json(row)),
                )
                if cursor.rowcount == 0:
                    continue
                new += 1
                if kind == "table":
                    db.execute(
                        "UPDATE poker_tables SET config = ? WHERE name = ?", (_json(row), table)
                    )
                elif kind == "hand_start":
                    self._hand_started(db, table, row, at)
                elif kind == "hand_end" and hand is not None:
                    db.execute(
                        "UPDATE hands SET ended_at = ?, complete = 1"
                        " WHERE table_name = ? AND hand = ?",
                        (at, table, hand),
                    )
                if kind in ("hand_start", "hand_end"):
                    self._change(db, "hand", table, {"hand": hand, "type": kind}, at)
            if new:
                self._change(db, "event", table, {"hand": hand, "seq": rows[-1]["seq"]}, at)
        return new

    def _hand_started(self, db: Connection, table: str, row: Mapping[str, Any], at: float) -> None:
        hand = str(row["hand"])
        db.execute(
            "INSERT INTO hands (table_name, hand, button, started_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (table, hand, row.get("button"), at),
        )
        for seat, stack in dict(row.get("stacks") or {}).items():
            db.execute(
                "INSERT INTO hand_seats (table_name, hand, seat, stack) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (table, hand, int(seat), int(stack)),
            )

    def put_alert(self, row: AlertRow) -> bool:
        """Store an alert; False when it was stored before (an alert replayed after a restart)."""
        with self._tx() as db:
            cursor = db.execute(
                "INSERT INTO alerts (id, table_name, hand, seq, rule, family, severity, seat,"
                " message, body, raised_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (
                    row.id,
                    row.table,
                    row.hand,
                    row.seq,
                    row.rule,
                    row.family,
                    row.severity,
                    row.seat,
                    row.message,
                    _json(dict(row.body)),
                    row.raised_at,
                    str(row.status),
                ),
            )
            if cursor.rowcount == 0:
                return False
            db.execute(
                "INSERT INTO hands (table_name, hand, started_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (row.table, row.hand, row.raised_at),
            )
            db.execute(
                "UPDATE hands SET alert_count = alert_count + 1 WHERE table_name = ? AND hand = ?",
                (row.table, row.hand),
            )
            self._change(db, "alert", row.table, alert_json(row), row.raised_at)
        return True

    def put_hand_summary(self, table: str, hand: str, summary: Mapping[str, Any]) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE hands SET summary = ?, started_at = COALESCE(?, started_at),"
                " ended_at = COALESCE(?, ended_at) WHERE table_name = ? AND hand = ?",
                (
                    _json(dict(summary)),
                    summary.get("started_wall"),
                    summary.get("wall"),
                    table,
                    hand,
                ),
            )

    def put_clip(self, row: ClipRow) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO clips (alert_id, camera, clip_path, keyframe_path, play_path,"
                " start_s, alert_s) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    row.alert_id,
                    row.camera,
                    row.clip_path,
                    row.keyframe_path,
                    row.play_path,
                    row.start_s,
                    row.alert_s,
                ),
            )

    def put_health(self, row: HealthRow) -> None:
        with self._tx() as db:
            before = db.execute(
                "SELECT status, message FROM health WHERE table_name = ? AND source = ?",
                (row.table, row.source),
            ).fetchone()
            db.execute(
                "INSERT INTO health (table_name, source, status, message, detail, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_name, source) DO UPDATE SET"
                " status = excluded.status, message = excluded.message,"
                " detail = excluded.detail, at = excluded.at",
                (row.table, row.source, row.status, row.message, _json(dict(row.detail)), row.at),
            )
            if before is None or (before[0], before[1]) != (row.status, row.message):
                body = {"source": row.source, "status": row.status, "message": row.message}
                self._change(db, "health", row.table, body, row.at)

    def put_light(self, table: str, light: str, at: float) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO poker_tables (name, light, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET light = excluded.light",
                (table, light, at),
            )
            self._change(db, "light", table, {"light": light}, at)

    def quarantine(self, row: QuarantineRow) -> int:
        with self._tx() as db:
            db.execute(
                "INSERT INTO quarantine (table_name, source, line, reason, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    row.table[:200],
                    row.source[:1000],
                    row.line[:QUARANTINE_LINE_CHARS],
                    row.reason[:1000],
                    row.at,
                ),
            )
            count = db.execute(
                "SELECT COUNT(*) FROM quarantine WHERE table_name = ?", (row.table[:200],)
            ).fetchone()
        return int(count[0]) if count is not None else 0

    def quarantined(self, table: str, limit: int = 100) -> list[QuarantineRow]:
        rows = self._rows(
            "SELECT * FROM quarantine WHERE table_name = ? ORDER BY id DESC LIMIT ?",
            (table, limit),
        )
        return [
            QuarantineRow(
                table=r["table_name"], source=r["source"], line=r["line"], reason=r["reason"],
                at=r["at"],
            )
            for r in rows
        ]  # fmt: skip

    def feed_offset(self, path: str) -> int:
        rows = self._rows("SELECT byte_offset FROM feed_offsets WHERE path = ?", (path,))
        return int(rows[0][0]) if rows else 0

    def set_feed_offset(self, path: str, offset: int) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO feed_offsets (path, byte_offset) VALUES (?, ?)"
                " ON CONFLICT (path) DO UPDATE SET byte_offset = excluded.byte_offset",
                (path, offset),
            )

    # --- reading ---

    _TABLES = (
        "SELECT t.*, (SELECT COUNT(*) FROM alerts a WHERE a.table_name = t.name"
        " AND a.status = 'open') AS open_alerts FROM poker_tables t"
    )

    def tables(self) -> list[TableRow]:
        return [_table(r) for r in self._rows(self._TABLES + " ORDER BY t.name")]

    def table(self, name: str) -> TableRow | None:
        rows = self._rows(self._TABLES + " WHERE t.name = ?", (name,))
        return _table(rows[0]) if rows else None

    def health(self, table: str) -> list[HealthRow]:
        rows = self._rows("SELECT * FROM health WHERE table_name = ? ORDER BY source", (table,))
        return [
            HealthRow(
                table=r["table_name"],
                source=r["source"],
                status=r["status"],
                message=r["message"],
                at=r["at"],
                detail=json.loads(r["detail"]),
            )
            for r in rows
        ]

    def alerts(
        self, *, table: str | None = None, status: str | None = None, limit: int = 200
    ) -> list[AlertRow]:
        where, args = [], []
        if table is not None:
            where.append("table_name = ?")
            args.append(table)
        if status is not None:
            where.append("status = ?")
            args.append(status)
        sql = "SELECT * FROM alerts" + (" WHERE " + " AND ".join(where) if where else "")
        rows = self._rows(sql + " ORDER BY raised_at DESC, seq DESC LIMIT ?", [*args, limit])
        return [_alert(r) for r in rows]

    def open_counts(self) -> dict[str, dict[str, int]]:
        counts: dict[str, dict[str, int]] = {}
        for r in self._rows(
            "SELECT table_name, severity, COUNT(*) AS n FROM alerts WHERE status = 'open'"
            " GROUP BY table_name, severity"
        ):
            counts.setdefault(r["table_name"], {})[r["severity"]] = int(r["n"])
        return counts

    def alert(self, alert_id: str) -> AlertRow | None:
        rows = self._rows("SELECT * FROM alerts WHERE id = ?", (alert_id,))
        return _alert(rows[0]) if rows else None

    def hand_alerts(self, table: str, hand: str) -> list[AlertRow]:
        rows = self._rows(
            "SELECT * FROM alerts WHERE table_name = ? AND hand = ? ORDER BY seq", (table, hand)
        )
        return [_alert(r) for r in rows]

    def hands(self, query: HandQuery) -> list[HandRow]:
        where: list[str] = ["1 = 1"]
        args: list[object] = []
        if query.table:
            where.append("h.table_name = ?")
            args.append(query.table)
        if query.since is not None:
            where.append("h.started_at >= ?")
            args.append(query.since)
        if query.until is not None:
            where.append("h.started_at < ?")
            args.append(query.until)
        if query.has_alert is not None:
            where.append("h.alert_count > 0" if query.has_alert else "h.alert_count = 0")
        if query.family:
            where.append(
                "EXISTS (SELECT 1 FROM alerts a WHERE a.table_name = h.table_name"
                " AND a.hand = h.hand AND a.family = ?)"
            )
            args.append(query.family)
        if query.seat is not None:
            where.append(
                "EXISTS (SELECT 1 FROM hand_seats s WHERE s.table_name = h.table_name"
                " AND s.hand = h.hand AND s.seat = ?)"
            )
            args.append(query.seat)
        rows = self._rows(
            "SELECT h.* FROM hands h WHERE "
            + " AND ".join(where)
            + " ORDER BY h.started_at DESC, h.table_name,"
            " LENGTH(h.hand) DESC, h.hand DESC LIMIT ?",
            [*args, query.limit],
        )
        return [self._hand(r) for r in rows]

    def _hand(self, r: Row) -> HandRow:
        seats = self._rows(
            "SELECT seat, stack FROM hand_seats WHERE table_name = ? AND hand = ? ORDER BY seat",
            (r["table_name"], r["hand"]),
        )
        return HandRow(
            table=r["table_name"],
            hand=r["hand"],
            button=r["button"],
            started_at=r["started_at"],
            ended_at=r["ended_at"],
            complete=bool(r["complete"]),
            alert_count=r["alert_count"],
            seats={s["seat"]: s["stack"] for s in seats},
            summary=json.loads(r["summary"]) if r["summary"] else None,
        )

    def hand(self, table: str, hand: str) -> HandRow | None:
        rows = self._rows("SELECT * FROM hands WHERE table_name = ? AND hand = ?", (table, hand))
        return self._hand(rows[0]) if rows else None

    def current_hand(self, table: str) -> HandRow | None:
        rows = self._rows(
            "SELECT h.* FROM hands h JOIN events e ON e.table_name = h.table_name"
            " AND e.hand = h.hand AND e.type = 'hand_start' WHERE h.table_name = ?"
            " ORDER BY e.seq DESC LIMIT 1",
            (table,),
        )
        return self._hand(rows[0]) if rows else None

    def events(self, table: str, hand: str) -> list[EventRow]:
        rows = self._rows(
            "SELECT * FROM events WHERE table_name = ? AND hand = ? ORDER BY seq", (table, hand)
        )
        return [
            EventRow(
                table=r["table_name"],
                seq=r["seq"],
                hand=r["hand"],
                type=r["type"],
                body=json.loads(r["body"]),
            )
            for r in rows
        ]

    def table_config_before(self, table: str, seq: int) -> Mapping[str, Any] | None:
        rows = self._rows(
            "SELECT body FROM events WHERE table_name = ? AND type = 'table' AND seq < ?"
            " ORDER BY seq DESC LIMIT 1",
            (table, seq),
        )
        return json.loads(rows[0][0]) if rows else None

    def clips(self, alert_id: str) -> list[ClipRow]:
        rows = self._rows("SELECT * FROM clips WHERE alert_id = ? ORDER BY camera", (alert_id,))
        return [
            ClipRow(
                alert_id=r["alert_id"],
                camera=r["camera"],
                clip_path=r["clip_path"],
                keyframe_path=r["keyframe_path"],
                play_path=r["play_path"],
                start_s=float(r["start_s"]),
                alert_s=float(r["alert_s"]),
            )
            for r in rows
        ]

    def changes(self, after_id: int, limit: int = 500) -> list[Change]:
        rows = self._rows(
            "SELECT * FROM changes WHERE id > ? ORDER BY id LIMIT ?", (after_id, limit)
        )
        return [
            Change(
                id=r["id"],
                kind=r["kind"],
                table=r["table_name"],
                body=json.loads(r["body"]),
                at=r["at"],
            )
            for r in rows
        ]

    def last_change_id(self) -> int:
        rows = self._rows("SELECT MAX(id) FROM changes")
        return int(rows[0][0] or 0)

    # --- what people do ---

    def acknowledge(self, alert_id: str, user: str, at: float) -> AlertRow:
        with self._tx() as db:
            row = db.execute("SELECT status FROM alerts WHERE id = ?", (alert_id,)).fetchone()
            if row is None:
                raise StoreError(f"no alert {alert_id}")
            if row[0] == AlertStatus.OPEN:
                db.execute(
                    "UPDATE alerts SET status = 'acknowledged', acknowledged_by = ?,"
                    " acknowledged_at = ? WHERE id = ?",
                    (user, at, alert_id),
                )
            alert = _alert(self._one(db, "SELECT * FROM alerts WHERE id = ?", (alert_id,)))
            self._change(db, "alert_status", alert.table, alert_json(alert), at)
        return alert

    def acknowledge_table(self, table: str, user: str, at: float) -> list[AlertRow]:
        """Every open alert of the table (the dealer pressed the light's button)."""
        with self._tx() as db:
            ids = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM alerts WHERE table_name = ? AND status = 'open'", (table,)
                ).fetchall()
            ]
        return [self.acknowledge(alert_id, user, at) for alert_id in ids]

    def resolve(self, alert_id: str, user: str, note: str, at: float) -> AlertRow:
        with self._tx() as db:
            row = db.execute("SELECT status FROM alerts WHERE id = ?", (alert_id,)).fetchone()
            if row is None:
                raise StoreError(f"no alert {alert_id}")
            if row[0] == AlertStatus.RESOLVED:
                raise StoreError(f"alert {alert_id} is resolved already")
            db.execute(
                "UPDATE alerts SET status = 'resolved', resolved_by = ?, resolved_at = ?,"
                " note = ?, acknowledged_by = COALESCE(acknowledged_by, ?),"
                " acknowledged_at = COALESCE(acknowledged_at, ?) WHERE id = ?",
                (user, at, note, user, at, alert_id),
            )
            alert = _alert(self._one(db, "SELECT * FROM alerts WHERE id = ?", (alert_id,)))
            self._change(db, "alert_status", alert.table, alert_json(alert), at)
        return alert

    # --- accounts, sessions, audit ---

    def add_user(self, name: str, password_hash: str, role: Role, at: float) -> None:
        with self._tx() as db:
            if db.execute("SELECT 1 FROM users WHERE name = ?", (name,)).fetchone():
                raise StoreError(f"user {name!r} exists already")
            db.execute(
                "INSERT INTO users (name, password_hash, role, created_at) VALUES (?, ?, ?, ?)",
                (name, password_hash, str(role), at),
            )

    def set_password(self, name: str, password_hash: str) -> None:
        with self._tx() as db:
            cursor = db.execute(
                "UPDATE users SET password_hash = ? WHERE name = ?", (password_hash, name)
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no user {name!r}")

    def user(self, name: str) -> UserRow | None:
        rows = self._rows("SELECT * FROM users WHERE name = ?", (name,))
        return _user(rows[0]) if rows else None

    def users(self) -> list[UserRow]:
        return [_user(r) for r in self._rows("SELECT * FROM users ORDER BY name")]

    def add_session(
        self, token_hash: str, user: str, csrf: str, at: float, expires_at: float
    ) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM sessions WHERE expires_at < ?", (at,))
            db.execute(
                "INSERT INTO sessions (token_hash, user_name, csrf, created_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (token_hash, user, csrf, at, expires_at),
            )

    def session(self, token_hash: str, now: float) -> SessionRow | None:
        rows = self._rows(
            "SELECT s.csrf, s.expires_at, u.* FROM sessions s JOIN users u ON u.name = s.user_name"
            " WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled = 0",
            (token_hash, now),
        )
        if not rows:
            return None
        return SessionRow(
            user=_user(rows[0]), csrf=rows[0]["csrf"], expires_at=rows[0]["expires_at"]
        )

    def drop_session(self, token_hash: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    def audit(
        self, user: str, action: str, target: str, detail: str, client: str, at: float
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO audit (at, user_name, action, target, detail, client)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (at, user, action, target, detail, client),
            )

    def audit_log(self, limit: int = 500) -> list[AuditRow]:
        rows = self._rows("SELECT * FROM audit ORDER BY id DESC LIMIT ?", (limit,))
        return [
            AuditRow(
                id=r["id"],
                at=r["at"],
                user=r["user_name"],
                action=r["action"],
                target=r["target"],
                detail=r["detail"],
                client=r["client"],
            )
            for r in rows
        ]


def _table(r: Row) -> TableRow:
    return TableRow(
        name=r["name"],
        config=json.loads(r["config"]),
        light=r["light"],
        updated_at=r["updated_at"],
        open_alerts=r["open_alerts"],
    )


def _alert(r: Row) -> AlertRow:
    return AlertRow(
        id=r["id"],
        table=r["table_name"],
        hand=r["hand"],
        seq=r["seq"],
        rule=r["rule"],
        family=r["family"],
        severity=r["severity"],
        seat=r["seat"],
        message=r["message"],
        raised_at=r["raised_at"],
        status=AlertStatus(r["status"]),
        acknowledged_by=r["acknowledged_by"],
        acknowledged_at=r["acknowledged_at"],
        resolved_by=r["resolved_by"],
        resolved_at=r["resolved_at"],
        note=r["note"],
        body=json.loads(r["body"]),
    )


def _user(r: Row) -> UserRow:
    return UserRow(
        name=r["name"],
        password_hash=r["password_hash"],
        role=Role(r["role"]),
        disabled=bool(r["disabled"]),
    )
