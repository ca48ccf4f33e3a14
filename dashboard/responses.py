"""What each route of the JSON API answers, typed: FastAPI checks every answer against its
model and documents it (``/docs``). Where a row of the store is the answer as it is (a table,
its health, a hand, a clip, an audit entry), the route answers the row itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from dashboard.store import AlertRow, ClipRow, HandRow, HealthRow, TableRow, alert_json


class Me(BaseModel):
    name: str
    role: str
    csrf: str


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


class AlertWithBody(Alert):
    body: dict[str, Any]
    """The alert as the engine wrote it (its evidence, amounts, cards)."""

    @classmethod
    def of(cls, row: AlertRow) -> AlertWithBody:
        return cls(**alert_json(row), body=dict(row.body))


class AlertDetail(AlertWithBody):
    clips: list[ClipRow]


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
    table: TableRow
    hand: dict[str, Any] | None
    """The hand in play as the live table draws it (``dashboard.handview``)."""
    health: list[HealthRow]
    cameras: list[str]
    alerts: list[Alert]


class HandReview(BaseModel):
    hand: HandRow
    table_config: Mapping[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    alerts: list[AlertWithBody]
    clips: list[ClipRow]


class User(BaseModel):
    name: str
    role: str
    disabled: bool = False
