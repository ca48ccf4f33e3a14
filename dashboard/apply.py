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

from dashboard import rows
from dashboard.rows import RowError
from dashboard.store import AlertRow, AlertStatus, ClipRow, HealthRow, Store, StoreError
from engine.alerts import alert_id

DEALER = "dealer (light button)"
STALE_CAMERA_S = 5.0
"""A camera that wrote no figures for this long is shown stale."""
KINDS = ("events", "alerts", "hands", "light", "health", "clips", "camera")


class Applier:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def events(self, table: str, events: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
        """Store the good event-log lines in one go; the bad ones are not stored: (index, why)
        of each."""
        good, bad = [], []
        for i, row in enumerate(events):
            try:
                rows.event(row)
            except RowError as exc:
                bad.append((i, str(exc)))
                continue
            good.append(row)
        if good:
            self.store.put_events(table, good, self.clock())
        return bad

    def row(self, table: str, kind: str, row: Mapping[str, Any]) -> None:
        if kind == "events":
            for _, why in self.events(table, [row]):
                raise RowError(why)
            return
        handler = getattr(self, f"_{kind}", None) if kind in KINDS else None
        if handler is None:
            raise RowError(f"unknown kind {kind!r}")
        rows.check_values(row, kind)
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
                id=rows.text(row, "id") if row.get("id") else alert_id(table, row),
                table=table,
                hand=rows.text(row, "hand"),
                seq=rows.integer(row, "seq"),
                rule=rows.text(row, "rule"),
                family=rows.text(row, "family"),
                severity=rows.text(row, "severity"),
                seat=rows.optional_integer(row, "seat"),
                message=rows.text(row, "message"),
                raised_at=rows.seconds(row, "wall", self.clock()),
                status=AlertStatus.OPEN,
                body=row,
            )
        )

    def _hands(self, table: str, row: Mapping[str, Any]) -> None:
        self.store.put_hand_summary(table, rows.text(row, "hand"), row)

    def _light(self, table: str, row: Mapping[str, Any]) -> None:
        at = rows.seconds(row, "wall", self.clock())
        look = f"{rows.text(row, 'colour', '?')} {rows.text(row, 'pattern', '')}".strip()
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
                source=rows.text(row, "source") if row.get("source") else "processes",
                status=rows.text(row, "status") if row.get("status") else "notice",
                message=rows.text(row, "message", ""),
                at=rows.seconds(row, "wall", self.clock()),
            )
        )

    def _clips(self, table: str, row: Mapping[str, Any]) -> None:
        if not row.get("alert"):
            return  # a clip of an alert from before alerts had ids
        self.store.put_clip(
            ClipRow(
                alert_id=rows.text(row, "alert"),
                camera=rows.text(row, "camera", ""),
                clip_path=rows.text(row, "clip") if row.get("clip") else "",
                keyframe_path=rows.text(row, "key_frame") if row.get("key_frame") else "",
                play_path=rows.text(row, "play") if row.get("play") else "",
                start_s=(rows.optional_integer(row, "from_ns") or 0) / 1e9,
                alert_s=(rows.optional_integer(row, "proved_ns") or 0) / 1e9,
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
