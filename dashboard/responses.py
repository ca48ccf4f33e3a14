"""What each route of the JSON API answers, typed: FastAPI checks every answer against its
model and documents it (``/docs``). The rows of the store cross into them here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from pydantic import BaseModel

from dashboard.store import AlertRow, AuditRow, ClipRow, HandRow, HealthRow, TableRow, alert_json


class Me(BaseModel):
    name: str
    role: str
    csrf: str


class Table(BaseModel):
    name: str
    config: dict[str, Any]
    light: str
    updated_at: float
    open_alerts: int

    @classmethod
    def of(cls, row: TableRow) -> Table:
        return cls(**asdict(row))


class Health(BaseModel):
    table: str
    source: str
    status: str
    message: str
    at: float
    detail: dict[str, Any]

    @classmethod
    def of(cls, row: HealthRow) -> Health:
        return cls(**asdict(row))


class Alert(BaseModel):
    """An alert as the lists and the live push give it (``store.alert_json``)."""

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
    status: str
    acknowledged_by: str | None
    resolved_by: str | None
    note: str | None

    @classmethod
    def of(cls, row: AlertRow) -> Alert:
        return cls(**alert_json(row))


class Clip(BaseModel):
    alert_id: str
    camera: str
    clip_path: str
    keyframe_path: str
    play_path: str
    start_s: float
    alert_s: float

    @classmethod
    def of(cls, row: ClipRow) -> Clip:
        return cls(**asdict(row))


class AlertWithBody(Alert):
    body: dict[str, Any]
    """The alert as the engine wrote it (its evidence, amounts, cards)."""

    @classmethod
    def of(cls, row: AlertRow) -> AlertWithBody:
        return cls(**alert_json(row), body=dict(row.body))


class AlertDetail(AlertWithBody):
    clips: list[Clip]


class Acknowledged(Alert):
    light: str
    """What the table's light was told."""


class Skipped(BaseModel):
    id: str
    why: str


class SeveralDone(BaseModel):
    done: list[Alert]
    skipped: list[Skipped]


class TableState(BaseModel):
    table: Table
    hand: dict[str, Any] | None
    """The hand in play as the live table draws it (``dashboard.handview``)."""
    health: list[Health]
    cameras: list[str]
    alerts: list[Alert]


class Hand(BaseModel):
    table: str
    hand: str
    button: int | None
    started_at: float
    ended_at: float | None
    complete: bool
    alert_count: int
    seats: dict[str, int]
    """Seat (as text, JSON's keys) -> its chips at the start."""
    summary: dict[str, Any] | None

    @classmethod
    def of(cls, row: HandRow) -> Hand:
        fields = asdict(row)
        fields["seats"] = {str(k): v for k, v in row.seats.items()}
        return cls(**fields)


class HandReview(BaseModel):
    hand: Hand
    table_config: Mapping[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    alerts: list[AlertWithBody]
    clips: list[Clip]


class User(BaseModel):
    name: str
    role: str
    disabled: bool = False


class Audit(BaseModel):
    id: int
    at: float
    user: str
    action: str
    target: str
    detail: str
    client: str

    @classmethod
    def of(cls, row: AuditRow) -> Audit:
        return cls(**asdict(row))
