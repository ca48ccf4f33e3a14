"""The appliance's files -> the dashboard's store: a thread follows each table's output files
(written by the engine and camera processes, see ``feltwatch.engine_main``) and stores what is
new, so the dashboard can restart, or start late, and lose nothing: each file's read position is
kept in the store, and every row has an id that makes a second copy harmless.

A bad line is skipped and counted (health source ``feed``, naming the file and line); a file
that shrank (replaced) is read again from its start.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboard.store import AlertRow, AlertStatus, ClipRow, HealthRow, Store
from engine.alerts import alert_id

DEALER = "dealer (light button)"
STALE_CAMERA_S = 5.0
"""A camera that wrote no figures for this long is shown stale."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableFiles:
    table: str
    journal_dir: Path
    """Where ``<table>.events.jsonl``, ``.alerts.jsonl``, ``.hands.jsonl``, ``.light.jsonl``,
    ``.health.jsonl`` and ``<table>.cameras/`` are."""
    media_root: Path | None = None
    """The recording directory: clip paths in ``clips.jsonl`` are relative to it."""

    @property
    def clips_dir(self) -> Path | None:
        """``<recording dir>/clips/<table>`` (``clips.jsonl``)."""
        return None if self.media_root is None else self.media_root / "clips" / self.table

    def file(self, kind: str) -> Path:
        return self.journal_dir / f"{self.table}.{kind}.jsonl"

    @property
    def cameras_dir(self) -> Path:
        return self.journal_dir / f"{self.table}.cameras"


class Feed:
    def __init__(
        self,
        store: Store,
        tables: list[TableFiles],
        *,
        every_s: float = 0.1,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.tables = {t.table: t for t in tables}
        self.every_s = every_s
        self.clock = clock
        self.bad_lines = 0
        self._cameras_due = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="feed", daemon=True)

    def start(self) -> Feed:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll()
            except Exception as exc:  # keep following: say it where the room sees it
                for name in self.tables:
                    self._health(name, "feed", "error", f"{type(exc).__name__}: {exc}")
            self._stop.wait(self.every_s)

    def poll(self) -> None:
        """Store whatever the files gained since the last call."""
        now = self.clock()
        cameras = now >= self._cameras_due  # their figures change once a second
        if cameras:
            self._cameras_due = now + 1.0
        for files in self.tables.values():
            self._events(files)
            self._alerts(files)
            self._hands(files)
            self._light(files)
            self._health_file(files)
            self._clips(files)
            if cameras:
                self._cameras(files)

    # --- reading new lines ---

    def _new_rows(self, path: Path, table: str) -> Iterator[dict[str, Any]]:
        """The complete lines added to ``path`` since the last call, parsed; then the new read
        position is kept (a row is applied before its position is saved: at least once)."""
        key = str(path)
        offset = self.store.feed_offset(key)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return
        if size < offset:  # replaced by a shorter file
            offset = 0
        if size == offset:
            return
        with path.open("rb") as file:
            file.seek(offset)
            data = file.read(size - offset)
        end = data.rfind(b"\n") + 1
        for number, line in enumerate(data[:end].splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise ValueError("not a JSON object")
            except ValueError as exc:
                self.bad_lines += 1
                where = f"{path} at byte {offset} (+{number - 1} lines)"
                self._health(table, "feed", "warning", f"{where}: line skipped: {exc}")
                continue
            yield row
        self.store.set_feed_offset(key, offset + end)

    def _health(self, table: str, source: str, status: str, message: str, **detail: Any) -> None:
        row = HealthRow(
            table=table,
            source=source,
            status=status,
            message=message,
            at=self.clock(),
            detail=detail,
        )
        self.store.put_health(row)

    # --- each file ---

    def _events(self, files: TableFiles) -> None:
        rows = []
        for row in self._new_rows(files.file("events"), files.table):
            if isinstance(row.get("seq"), int) and isinstance(row.get("type"), str):
                rows.append(row)
            else:
                self.bad_lines += 1
        for start in range(0, len(rows), 500):
            self.store.put_events(files.table, rows[start : start + 500], self.clock())

    def _alerts(self, files: TableFiles) -> None:
        for row in self._new_rows(files.file("alerts"), files.table):
            try:
                alert = AlertRow(
                    id=str(row.get("id") or alert_id(files.table, row)),
                    table=files.table,
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
            except (KeyError, TypeError, ValueError) as exc:
                self.bad_lines += 1
                self._health(
                    files.table, "feed", "warning", f"{files.file('alerts')}: bad alert: {exc}"
                )
                continue
            self.store.put_alert(alert)

    def _hands(self, files: TableFiles) -> None:
        for row in self._new_rows(files.file("hands"), files.table):
            if "hand" in row:
                self.store.put_hand_summary(files.table, str(row["hand"]), row)

    def _light(self, files: TableFiles) -> None:
        for row in self._new_rows(files.file("light"), files.table):
            at = float(row.get("wall") or self.clock())
            look = f"{row.get('colour', '?')} {row.get('pattern', '')}".strip()
            self.store.put_light(files.table, look, at)
            if row.get("cause") == "light button":
                self.store.acknowledge_table(files.table, DEALER, at)

    def _health_file(self, files: TableFiles) -> None:
        for row in self._new_rows(files.file("health"), files.table):
            source = str(row.get("source") or "processes")
            status = str(row.get("status") or "notice")
            self.store.put_health(
                HealthRow(
                    table=files.table,
                    source=source,
                    status=status,
                    message=str(row.get("message", "")),
                    at=float(row.get("wall") or self.clock()),
                )
            )

    def _clips(self, files: TableFiles) -> None:
        if files.clips_dir is None:
            return
        for row in self._new_rows(files.clips_dir / "clips.jsonl", files.table):
            if not row.get("alert"):
                continue
            self.store.put_clip(
                ClipRow(
                    alert_id=str(row["alert"]),
                    camera=str(row.get("camera", "")),
                    clip_path=str(row.get("clip") or ""),
                    keyframe_path=str(row.get("key_frame") or ""),
                )
            )

    def _cameras(self, files: TableFiles) -> None:
        folder = files.cameras_dir
        if not folder.is_dir():
            return
        now = self.clock()
        for path in sorted(folder.glob("*.json")):
            try:
                figures = json.loads(path.read_text())
            except (OSError, ValueError):
                continue  # being replaced: next time
            age_s = now - float(figures.get("wall") or 0)
            stale = age_s > STALE_CAMERA_S
            status = "stale" if stale else "running"
            fps, detector = figures.get("fps", 0), figures.get("detector_fps", 0)
            message = f"{fps} fps, detector {detector}/s"
            if stale:
                message = f"no frame for {age_s:.0f} s"
            figures.pop("wall", None)
            self._health(files.table, f"camera:{path.stem}", status, message, **figures)
