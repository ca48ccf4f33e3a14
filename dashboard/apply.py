"""The appliance's output rows -> the store. One place says what each kind of row means, for
the dashboard's feed (rows read from the appliance's files) and for the central service's ingest
(the same rows received over MQTT). Every row has an id or a key that makes a copy harmless.

Kinds: ``events`` (the table event log v1), ``alerts``, ``hands`` (a closed hand's summary),
``light`` (each light command and why), ``health`` (device links, processes), ``clips``,
``camera`` (a camera's figures, once a second).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dashboard.store import AlertRow, AlertStatus, ClipRow, HealthRow, Store, StoreError
from engine.alerts import alert_id

DEALER = "dealer (light button)"
STALE_CAMERA_S = 5.0
"""A camera that wrote no figures for this long is shown stale."""
KINDS = ("events", "alerts", "hands", "light", "health", "clips", "camera")


class RowError(ValueError):
    """A row that cannot be stored (the message names the field)."""


class Applier:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def events(self, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        """Store event-log lines; how many were new. Lines without ``seq`` or ``type`` are not
        stored (``RowError`` after the good ones are)."""
        good = [r for r in rows if isinstance(r.get("seq"), int) and isinstance(r.get("type"), str)]
        new = self.store.put_events(table, good, self.clock()) if good else 0
        if len(good) != len(rows):
            raise RowError(f"{len(rows) - len(good)} event line(s) without seq or type")
        return new

    def row(self, table: str, kind: str, row: Mapping[str, Any]) -> None:
        if kind == "events":
            self.events(table, [row])
            return
        handler = getattr(self, f"_{kind}", None) if kind in KINDS else None
        if handler is None:
            raise RowError(f"unknown kind {kind!r}")
        try:
            handler(table, row)
        except (KeyError, TypeError, ValueError) as exc:
            raise RowError(f"bad {kind} row: {type(exc).__name__}: {exc}") from None

    def health(self, table: str, source: str, status: str, message: str, **detail: Any) -> None:
        self.store.put_health(
            HealthRow(
                table=table,
                source=source,
                status=status,
                message=message,
                at=self.clock(),
                detail=detail,
            )
        )

    def _alerts(self, table: str, row: Mapping[str, Any]) -> None:
        self.store.put_alert(
            AlertRow(
                id=str(row.get("id") or alert_id(table, row)),
                table=table,
                hand=str(row["hand"]),
                seq=int(row["seq"]),
                rule=str(row["rule"]),
                family=str(row["family"]),
                severity=str(row["severity"]),
                seat=row.get("seat"),
                message=str(row["message"]),
                raised_at=float(row.get("wall") or self.clock()),
                status=AlertStatus.OPEN,
                body=row,
            )
        )

    def _hands(self, table: str, row: Mapping[str, Any]) -> None:
        self.store.put_hand_summary(table, str(row["hand"]), row)

    def _light(self, table: str, row: Mapping[str, Any]) -> None:
        at = float(row.get("wall") or self.clock())
        look = f"{row.get('colour', '?')} {row.get('pattern', '')}".strip()
        self.store.put_light(table, look, at)
        if row.get("cause") == "light button":
            self.store.acknowledge_table(table, DEALER, at)
        elif row.get("cause") == "dashboard" and row.get("alert"):
            # acknowledged on another dashboard (the table's own, or the floor's): the same here
            with contextlib.suppress(StoreError):  # an alert this store does not have (yet)
                alert = self.store.alert(str(row["alert"]))
                if alert is not None and alert.status == AlertStatus.OPEN:
                    self.store.acknowledge(alert.id, str(row.get("user") or "?"), at)

    def _health(self, table: str, row: Mapping[str, Any]) -> None:
        self.store.put_health(
            HealthRow(
                table=table,
                source=str(row.get("source") or "processes"),
                status=str(row.get("status") or "notice"),
                message=str(row.get("message", "")),
                at=float(row.get("wall") or self.clock()),
            )
        )

    def _clips(self, table: str, row: Mapping[str, Any]) -> None:
        if not row.get("alert"):
            return  # a clip of an alert from before alerts had ids
        self.store.put_clip(
            ClipRow(
                alert_id=str(row["alert"]),
                camera=str(row.get("camera", "")),
                clip_path=str(row.get("clip") or ""),
                keyframe_path=str(row.get("key_frame") or ""),
            )
        )

    def _camera(self, table: str, row: Mapping[str, Any]) -> None:
        figures = dict(row)
        camera = str(figures.pop("camera"))
        age_s = self.clock() - float(figures.pop("wall", 0) or 0)
        fps, detector = figures.get("fps", 0), figures.get("detector_fps", 0)
        status, message = "running", f"{fps} fps, detector {detector}/s"
        if figures.get("view_degraded"):
            status, message = "degraded", f"{message}; view degraded: {figures['view_degraded']}"
        if age_s > STALE_CAMERA_S:
            status, message = "stale", f"no frame for {age_s:.0f} s"
        self.health(table, f"camera:{camera}", status, message, **figures)
