"""The dashboard's storage, behind one repository interface (``Store``): the routes and the feed
call its methods and never write SQL, so a PostgreSQL store can replace the SQLite one
(``dashboard.store.sqlite``) without touching them. Rows cross the boundary as frozen values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


class Role(StrEnum):
    VIEWER = "viewer"
    """Watches tables, alerts and hands."""
    SUPERVISOR = "supervisor"
    """And acknowledges and resolves alerts, and exports evidence."""
    ADMIN = "admin"
    """And manages accounts and reads the audit log."""

    @property
    def rank(self) -> int:
        return list(Role).index(self)

    def allows(self, needed: Role) -> bool:
        return self.rank >= needed.rank


class AlertStatus(StrEnum):
    OPEN = "open"
    ACKNOWLEDGED = "acknowledged"
    RESOLVED = "resolved"


class StoreError(ValueError):
    """A request the store refuses (unknown alert, a resolved alert acknowledged again...)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AlertRow:
    id: str
    table: str
    hand: str
    seq: int
    rule: str
    family: str
    severity: str
    seat: int | None
    message: str
    raised_at: float
    status: AlertStatus
    acknowledged_by: str | None = None
    acknowledged_at: float | None = None
    resolved_by: str | None = None
    resolved_at: float | None = None
    note: str | None = None
    body: Mapping[str, Any] = field(default_factory=dict)
    """The alert as the engine wrote it (seats, cards, amounts, evidence...)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRow:
    table: str
    hand: str
    button: int | None
    started_at: float
    ended_at: float | None
    complete: bool
    alert_count: int
    seats: Mapping[int, int]
    """Seat -> starting stack."""
    summary: Mapping[str, Any] | None
    """Computed vs observed (pots, awards, rake), once the hand closed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRow:
    table: str
    seq: int
    hand: str | None
    type: str
    body: Mapping[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class ClipRow:
    alert_id: str
    camera: str
    clip_path: str
    keyframe_path: str
    play_path: str = ""
    """The clip as H.264 MP4, for the browser ("": none)."""
    start_s: float = 0.0
    """The clip's first moment, in the camera's clock (the hand's events' ``ts_ms`` / 1000)."""
    alert_s: float = 0.0
    """The moment of the input that proved the alert, same clock."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthRow:
    table: str
    source: str
    """``shoe``, ``tray``, ``light``, ``camera:<name>``, ``engine``..."""
    status: str
    """``connected``, ``stale``, ``disconnected``, ``offline``, ``running``, ``down``..."""
    message: str
    at: float
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    name: str
    config: Mapping[str, Any]
    light: str
    updated_at: float
    open_alerts: int


@dataclass(frozen=True, slots=True, kw_only=True)
class UserRow:
    name: str
    password_hash: str
    role: Role
    disabled: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionRow:
    user: UserRow
    csrf: str
    expires_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditRow:
    id: int
    at: float
    user: str
    action: str
    target: str
    detail: str
    client: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """One step of the live push: ``kind`` is ``alert``, ``alert_status``, ``event``,
    ``hand``, ``health`` or ``light``."""

    id: int
    kind: str
    table: str
    body: Mapping[str, Any]
    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class QuarantineRow:
    """A row that could not be stored, kept with why."""

    table: str
    source: str
    """Where it came from: a file path and byte offset, or a broker topic."""
    line: str
    """The row as it came (cut to ``QUARANTINE_LINE_CHARS``)."""
    reason: str
    at: float


QUARANTINE_LINE_CHARS = 4000


@dataclass(frozen=True, slots=True, kw_only=True)
class HandQuery:
    table: str | None = None
    since: float | None = None
    until: float | None = None
    family: str | None = None
    seat: int | None = None
    has_alert: bool | None = None
    limit: int = 200


def alert_json(alert: AlertRow) -> dict[str, Any]:
    """An alert as the API and the live push give it."""
    return {
        "id": alert.id,
        "table": alert.table,
        "hand": alert.hand,
        "seq": alert.seq,
        "rule": alert.rule,
        "family": alert.family,
        "severity": alert.severity,
        "seat": alert.seat,
        "message": alert.message,
        "raised_at": alert.raised_at,
        "status": str(alert.status),
        "acknowledged_by": alert.acknowledged_by,
        "resolved_by": alert.resolved_by,
        "note": alert.note,
    }


class Store(Protocol):
    # --- the appliance's output (the feed writes, the pages read) ---
    def put_events(self, table: str, rows: Sequence[Mapping[str, Any]], at: float) -> int: ...
    def put_alert(self, row: AlertRow) -> bool: ...
    def put_hand_summary(self, table: str, hand: str, summary: Mapping[str, Any]) -> None: ...
    def put_clip(self, row: ClipRow) -> None: ...
    def put_health(self, row: HealthRow) -> None: ...
    def put_light(self, table: str, light: str, at: float) -> None: ...
    def feed_offset(self, path: str) -> int: ...
    def set_feed_offset(self, path: str, offset: int) -> None: ...
    def quarantine(self, row: QuarantineRow) -> int:
        """Keep a row that could not be stored; how many its table has now."""
        ...

    def quarantined(self, table: str, limit: int = 100) -> list[QuarantineRow]: ...

    def tables(self) -> list[TableRow]: ...
    def table(self, name: str) -> TableRow | None: ...
    def health(self, table: str) -> list[HealthRow]: ...
    def alerts(
        self, *, table: str | None = None, status: str | None = None, limit: int = 200
    ) -> list[AlertRow]: ...
    def open_counts(self) -> dict[str, dict[str, int]]:
        """Table -> severity -> how many of its alerts are open."""
        ...

    def alert(self, alert_id: str) -> AlertRow | None: ...
    def hand_alerts(self, table: str, hand: str) -> list[AlertRow]: ...
    def hands(self, query: HandQuery) -> list[HandRow]: ...
    def hand(self, table: str, hand: str) -> HandRow | None: ...
    def current_hand(self, table: str) -> HandRow | None: ...
    def events(self, table: str, hand: str) -> list[EventRow]: ...
    def table_config_before(self, table: str, seq: int) -> Mapping[str, Any] | None: ...
    def clips(self, alert_id: str) -> list[ClipRow]: ...
    def changes(self, after_id: int, limit: int = 500) -> list[Change]: ...
    def last_change_id(self) -> int: ...

    # --- what people do (each also written to the audit log by the caller) ---
    def acknowledge(self, alert_id: str, user: str, at: float) -> AlertRow: ...
    def acknowledge_table(self, table: str, user: str, at: float) -> list[AlertRow]: ...
    def resolve(self, alert_id: str, user: str, note: str, at: float) -> AlertRow: ...

    # --- accounts, sessions, audit ---
    def add_user(self, name: str, password_hash: str, role: Role, at: float) -> None: ...
    def set_password(self, name: str, password_hash: str) -> None: ...
    def user(self, name: str) -> UserRow | None: ...
    def users(self) -> list[UserRow]: ...
    def add_session(
        self, token_hash: str, user: str, csrf: str, at: float, expires_at: float
    ) -> None: ...
    def session(self, token_hash: str, now: float) -> SessionRow | None: ...
    def drop_session(self, token_hash: str) -> None: ...
    def audit(
        self, user: str, action: str, target: str, detail: str, client: str, at: float
    ) -> None: ...
    def audit_log(self, limit: int = 500) -> list[AuditRow]: ...

    def close(self) -> None: ...
