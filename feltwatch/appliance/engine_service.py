"""The running engine: inputs from every thread (device links, camera connections) are written
to the journal and queued under one lock, so the journal's order is the order the engine
thread processes them in; a restart replays the journal through the same ``EngineCore`` and
carries on where the engine stopped.

What the engine produces goes to ``Outputs`` from the engine thread: hand events, alerts (the
dealer light is set from there, a direct call), finished hands and errors.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from engine.core import EngineCore, Proved, Step
from engine.events import Event, HandEnd, TableConfig
from engine.hand import HandReport
from engine.observations import EngineInput
from feltwatch.appliance.exits import EXIT_ENGINE_FAILED
from feltwatch.appliance.journal import BadLine, JournalWriter, Mark, TableLine, read

LOG = logging.getLogger("feltwatch.engine")


class Outputs(Protocol):
    def event(self, event: Event) -> None: ...
    def alert(self, proved: Proved, *, replayed: bool) -> None: ...
    def hand(self, report: HandReport) -> None: ...
    def error(self, message: str) -> None: ...
    def health(self, source: str, status: str, message: str) -> None: ...


def same_table(a: TableConfig, b: TableConfig) -> bool:
    return replace(a, seq=0, ts_ms=0) == replace(b, seq=0, ts_ms=0)


def replay_journal(
    path: Path, outputs: Outputs | None = None, *, table: TableConfig | None = None
) -> tuple[EngineCore | None, int]:
    """Run a journal through a new engine (``outputs`` hears everything it produces, as the live
    engine did); returns the engine, as it stands after the last line, and the lines read."""
    core: EngineCore | None = None
    lines = 0
    if not path.exists():
        return None, 0
    for item in read(path):
        lines += 1
        if isinstance(item, TableLine):
            if core is None or not same_table(core.table, item.table) or core.camera != item.camera:
                core = EngineCore(item.table, button=item.button, camera=item.camera)
        elif isinstance(item, BadLine):
            if outputs is not None:
                outputs.error(f"journal: {item}")
        elif isinstance(item, Mark):
            continue
        else:
            if core is None:
                if table is None:
                    if outputs is not None:
                        outputs.error(f"journal {path}: an input before any table line")
                    continue
                core = EngineCore(table)
            step = core.feed(item)
            if outputs is not None:
                deliver(step, outputs, replayed=False)
    return core, lines


def deliver(step: Step, outputs: Outputs, *, replayed: bool) -> None:
    for event in step.events:
        outputs.event(event)
    for proved in step.alerts:
        outputs.alert(proved, replayed=replayed)
    for report in step.reports:
        outputs.hand(report)
    for message in step.errors:
        outputs.error(message)
    for source, status, message in step.health:
        outputs.health(source, status, message)


class EngineService:
    def __init__(
        self,
        table: TableConfig,
        journal_path: Path,
        outputs: Outputs,
        *,
        button: int = 1,
        fsync: bool = True,
        resume_after_seq: int = 0,
        camera: str | None = None,
    ) -> None:
        """``resume_after_seq``: the last event the outputs already hold (from before a
        restart); the events and alerts the journal's replay rebuilds after it are told."""
        self.table = table
        self.button = button
        self.camera = camera
        self.outputs = outputs
        self.journal_path = journal_path
        self._fsync = fsync
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[EngineInput, int] | None] = queue.SimpleQueue()
        """Inputs and when each reached the engine; None: stop."""
        self._thread = threading.Thread(target=self._run, name="engine", daemon=True)
        self.core: EngineCore | None = None
        self.journal: JournalWriter | None = None
        self.restored_lines = 0
        self.resume_after_seq = resume_after_seq
        self.received_ns = 0
        """When the input the engine thread is on reached the engine (monotonic ns)."""

    def start(self) -> EngineService:
        """Replay the journal (what it rebuilds is not told again, except the alerts of the hand
        still open, marked replayed), then take new inputs."""
        self.journal_path.parent.mkdir(parents=True, exist_ok=True)
        self.journal = JournalWriter(self.journal_path, fsync=self._fsync)
        if self.journal.repaired:
            self.outputs.error(self.journal.repaired)
        resume = _Resume(self.outputs, self.resume_after_seq)
        core, self.restored_lines = replay_journal(self.journal_path, resume)
        if core is None or not same_table(core.table, self.table) or core.camera != self.camera:
            core = EngineCore(self.table, button=self.button, camera=self.camera)
            self.journal.table(TableLine(self.table, self.button, self.camera))
        self.core = core
        for alert in core.open_alerts():
            if alert.seq > self.resume_after_seq:
                continue  # told above, as new
            self.outputs.alert(
                Proved(alert=alert, table=self.table.table, input_ts_ns=0), replayed=True
            )
        self._thread.start()
        return self

    def submit(self, item: EngineInput) -> bool:
        """Journal an input and queue it for the engine (any thread). False: the disk did not
        take it (it waits in memory, in order, and the engine still gets it)."""
        assert self.journal is not None
        received_ns = time.monotonic_ns()
        with self._lock:
            written = self.journal.append(item)
            self._queue.put((item, received_ns))
        return written

    def stop(self, timeout_s: float = 5.0) -> int:
        """Stop the engine thread and close the journal; the inputs the journal could not keep
        (a disk that stayed full)."""
        self._queue.put(None)
        self._thread.join(timeout_s)
        if self.journal is None:
            return 0
        with self._lock:
            return self.journal.close()

    def _run(self) -> None:
        """The engine thread. An exception here is a fault of the engine itself: the process
        says it and exits non-zero, so the supervisor restarts it (the restart replays the
        journal), rather than living on with no engine."""
        try:
            self._loop()
        except Exception:
            LOG.exception("engine: the engine thread failed: exiting for a restart")
            for handler in LOG.handlers:
                handler.flush()
            os._exit(EXIT_ENGINE_FAILED)

    def _loop(self) -> None:
        assert self.core is not None and self.journal is not None
        while True:
            queued = self._queue.get()
            if queued is None:
                return
            item, self.received_ns = queued
            step = self.core.feed(item)
            deliver(step, self.outputs, replayed=False)
            for event in step.events:
                if isinstance(event, HandEnd):
                    with self._lock:
                        ts_ns = item.ts_ns
                        self.journal.mark(Mark(ts_ns, event.hand, "closed"))


class _Resume:
    """A restart rebuilds from the journal what was announced before: only what comes after
    event ``after_seq`` (the last one the outputs kept) is told again, and errors."""

    def __init__(self, outputs: Outputs, after_seq: int) -> None:
        self.outputs = outputs
        self.after_seq = after_seq
        self._ended_after: set[str] = set()
        """Hands whose end was not told before the restart: their report is told now."""

    def event(self, event: Event) -> None:
        if event.seq > self.after_seq:
            self.outputs.event(event)
            if isinstance(event, HandEnd):
                self._ended_after.add(event.hand)

    def alert(self, proved: Proved, *, replayed: bool) -> None:
        if proved.alert.seq > self.after_seq:
            self.outputs.alert(proved, replayed=replayed)

    def hand(self, report: HandReport) -> None:
        if report.hand in self._ended_after:
            self.outputs.hand(report)

    def error(self, message: str) -> None:
        self.outputs.error(message)

    def health(self, source: str, status: str, message: str) -> None:
        """Told when it happened; the journal's replay does not tell it twice."""
