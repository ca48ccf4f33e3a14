"""The appliance's files -> the dashboard's store: a thread follows each table's output files
(written by the engine and camera processes, see ``feltwatch.appliance.engine_main``) and stores
what is new (``dashboard.apply``), so the dashboard can restart, or start late, and lose nothing:
each file's read position is kept in the store, and every row has an id that makes a second copy
harmless.

A line that is not JSON, or a row the store cannot take (a field of the wrong type, a number out
of range), is quarantined in the store with why (``Store.quarantined``), counted on the health
view (source ``feed``, naming the file and byte offset), and the rows after it are stored: one bad
row never stops the feed. A file that shrank (replaced) is read again from its start.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dashboard import disk
from dashboard.apply import Applier
from dashboard.rows import DATA_ERRORS, RowError
from dashboard.store import QuarantineRow, Store
from dashboard.tail import new_lines
from engine.table_files import TableFiles


def camera_rows(files: TableFiles) -> list[dict[str, object]]:
    """Each camera's latest figures (``<camera>.json``, replaced whole once a second)."""
    rows = []
    if files.cameras_dir.is_dir():
        for path in sorted(files.cameras_dir.glob("*.json")):
            try:
                rows.append({"camera": path.stem, **json.loads(path.read_text())})
            except (OSError, ValueError):
                continue  # being replaced: next time
    return rows


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
        self.apply = Applier(store, clock)
        self.bad_lines = 0
        self._offsets: dict[str, int] = {}
        """Read positions, as kept in the store (read from it once a file: only this feed
        writes them)."""
        self._cameras_due = 0.0
        self._disks: dict[str, tuple[str, str]] = {}
        """The journal disk's health last stored, by table."""
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
                    self.apply.health(name, "feed", "error", f"{type(exc).__name__}: {exc}")
            self._stop.wait(self.every_s)

    def poll(self) -> None:
        """Store whatever the files gained since the last call (and, once a second, the
        cameras' figures and the room on the journal disk)."""
        now = self.clock()
        each_second = now >= self._cameras_due
        if each_second:
            self._cameras_due = now + 1.0
        for files in self.tables.values():
            if each_second:
                self._disk(files)
            for kind, path in files.records():
                self._follow(files.table, kind, path)
            if each_second:
                for row in camera_rows(files):
                    self.apply.row(files.table, "camera", row)

    def _disk(self, files: TableFiles) -> None:
        health = disk.disk_health(files.journal_dir)
        if self._disks.get(files.table) != health:
            self.apply.health(files.table, disk.SOURCE, *health)
            self._disks[files.table] = health

    def _follow(self, table: str, kind: str, path: Path) -> None:
        key = str(path)
        if key not in self._offsets:
            self._offsets[key] = self.store.feed_offset(key)
        offset = self._offsets[key]
        end = offset
        events: list[tuple[int, dict[str, Any]]] = []
        for line in new_lines(path, offset):
            end = line.end
            if line.row is None:
                self._bad(table, path, line.start, line.text, line.error)
            elif kind == "events":
                events.append((line.start, line.row))
            else:
                try:
                    self.apply.row(table, kind, line.row)
                except DATA_ERRORS as exc:  # whatever the row holds, the feed goes on
                    self._bad(table, path, line.start, line.row, _why(exc))
        if events:
            try:
                for i, why in self.apply.events(table, [row for _, row in events]):
                    self._bad(table, path, events[i][0], events[i][1], why)
            except DATA_ERRORS:  # one at a time: the good ones stored, the bad kept
                for start, row in events:
                    try:
                        self.apply.row(table, "events", row)
                    except DATA_ERRORS as exc:
                        self._bad(table, path, start, row, _why(exc))
        if end != offset:
            self.store.set_feed_offset(key, end)  # after the rows: each is stored at least once
            self._offsets[key] = end

    def _bad(self, table: str, path: Path, at: int, line: object, why: str) -> None:
        self.bad_lines += 1
        text = line if isinstance(line, str) else json.dumps(line, default=repr)
        where = f"{path} at byte {at}"
        kept = self.store.quarantine(
            QuarantineRow(table=table, source=where, line=text, reason=why, at=self.clock())
        )
        self.apply.health(
            table, "feed", "warning", f"{where}: line quarantined: {why} ({kept} quarantined)"
        )


def _why(exc: Exception) -> str:
    return str(exc) if isinstance(exc, RowError) else f"{type(exc).__name__}: {exc}"[:300]
