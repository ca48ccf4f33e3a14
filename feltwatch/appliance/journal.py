"""The journal: every engine input appended to disk (JSONL, ``feltwatch.appliance.journal_codec``)
before the engine processes it, so a crash or a power cut loses nothing already written.

Each line is flushed and fsync'd. A line cut short by a power cut is the only damage a crash can
do; reopening the journal cuts it off (and says so) before appending. When the disk is full or
failing, lines wait in memory (bounded, counted) and are written, in order, as soon as the disk
takes them again; the appliance keeps running and the writer reports its state.

Besides inputs, the engine writes a ``table`` line when it starts with a configuration the
journal does not already hold (``{"v": 1, "type": "table", "config": <the event log's table
line>, "button": 3, "camera": "overhead"}``), so a journal replays on its own, and a ``mark``
line when a hand closes (``{"v": 1, "type": "mark", "ts_ns": ..., "hand": "...", "state":
"closed"}``).
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from engine.codec import event_to_json, parse_event
from engine.errors import EventError
from engine.events import TableConfig
from engine.observations import EngineInput
from feltwatch.appliance.journal_codec import SCHEMA, JournalError, decode, encode


@dataclass(frozen=True, slots=True)
class Mark:
    """A point the engine reached: ``state`` ``closed`` after a hand ended."""

    ts_ns: int
    hand: str
    state: str


def encode_mark(mark: Mark) -> bytes:
    row = {"v": SCHEMA, "type": "mark", "ts_ns": mark.ts_ns, "hand": mark.hand, "state": mark.state}
    return orjson.dumps(row) + b"\n"


@dataclass(frozen=True, slots=True)
class TableLine:
    """The table the engine ran with from this point on (written when an engine starts and the
    journal does not already say so): a journal replays on its own."""

    table: TableConfig
    button: int
    camera: str | None = None
    """The camera whose observations the fusion reads (the others are journalled only)."""


def encode_table(line: TableLine) -> bytes:
    row = {
        "v": SCHEMA,
        "type": "table",
        "config": event_to_json(line.table),
        "button": line.button,
        "camera": line.camera,
    }
    return orjson.dumps(row) + b"\n"


def _decode_table(row: dict[str, object]) -> TableLine:
    table = parse_event(row["config"])
    if not isinstance(table, TableConfig):
        raise ValueError("config: not a table line")
    button = row["button"]
    if not isinstance(button, int):
        raise ValueError("button: not an integer")
    camera = row.get("camera")
    if camera is not None and not isinstance(camera, str):
        raise ValueError("camera: not a string")
    return TableLine(table, button, camera)


@dataclass(frozen=True, slots=True)
class BadLine:
    path: Path
    line: int
    error: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.error}"


def read(path: Path) -> Iterator[EngineInput | Mark | TableLine | BadLine]:
    """Every input and mark of a journal in order; a line that cannot be read is a ``BadLine``
    (named by file and line) and the reading goes on."""
    with open(path, "rb") as file:
        for number, line in enumerate(file, start=1):
            if not line.strip():
                continue
            if not line.endswith(b"\n"):
                yield BadLine(path, number, "cut short (the power went while it was written)")
                return
            try:
                row = orjson.loads(line)
                if isinstance(row, dict) and row.get("type") == "mark":
                    yield Mark(int(row["ts_ns"]), str(row["hand"]), str(row["state"]))
                elif isinstance(row, dict) and row.get("type") == "table":
                    yield _decode_table(row)
                else:
                    yield decode(line)
            except (
                JournalError,
                EventError,
                orjson.JSONDecodeError,
                KeyError,
                TypeError,
                ValueError,
            ) as exc:
                yield BadLine(path, number, str(exc))


def since_last_close(path: Path) -> list[object]:
    """The inputs after the last closed hand: what a restarted engine must replay."""
    pending: list[object] = []
    for item in read(path):
        if isinstance(item, Mark) and item.state == "closed":
            pending.clear()
        elif not isinstance(item, Mark | TableLine | BadLine):
            pending.append(item)
    return pending


class LineWriter:
    """An append-only file of lines that outlives a full disk: a line the disk does not take
    waits in memory, in order, and is written with the next one once there is room (the part of
    it that reached the file is cut off first: no line is left torn)."""

    def __init__(self, path: Path, *, max_pending: int = 100_000, fsync: bool = True) -> None:
        self.path = path
        self.max_pending = max_pending
        self.fsync = fsync
        self.pending: deque[bytes] = deque()
        self.dropped = 0
        """Lines lost because the disk stayed unwritable longer than ``max_pending`` lines."""
        self.error = ""
        """Why lines are waiting (empty when the file is up to date)."""
        self.repaired = repair_last_line(path)
        self._file = open(path, "ab")  # noqa: SIM115 (held open for the writer's life)

    def write_line(self, line: bytes) -> bool:
        """Append ``line`` (ending with a newline); True once it is on disk (False: it waits in
        memory)."""
        return self._write(line)

    def _write(self, line: bytes) -> bool:
        if len(self.pending) >= self.max_pending:
            self.pending.popleft()
            self.dropped += 1
        self.pending.append(line)
        return self.flush()

    def flush(self) -> bool:
        """Write what waits; True when nothing waits any more."""
        while self.pending:
            line = self.pending[0]
            try:
                self._file.write(line)
                self._file.flush()
                if self.fsync:
                    os.fsync(self._file.fileno())
            except OSError as exc:
                self._recover()
                reason = "disk full" if exc.errno == errno.ENOSPC else exc.strerror or str(exc)
                self.error = f"{self.path}: {reason}: {len(self.pending)} lines wait in memory"
                return False
            self.pending.popleft()
        self.error = ""
        return True

    def _recover(self) -> None:
        """After a failed write, cut off whatever part of the line reached the file."""
        with contextlib.suppress(OSError):
            self._file.close()
        repair_last_line(self.path)
        self._file = open(self.path, "ab")  # noqa: SIM115

    def close(self) -> int:
        """Write what waits and close; the lines that could not be written (lost)."""
        self.flush()
        self._file.close()
        return len(self.pending) + self.dropped


class JournalWriter(LineWriter):
    def append(self, item: EngineInput) -> bool:
        """Journal an engine input; True once it is on disk (False: it waits in memory)."""
        return self._write(encode(item))

    def mark(self, mark: Mark) -> bool:
        return self._write(encode_mark(mark))

    def table(self, line: TableLine) -> bool:
        return self._write(encode_table(line))


def repair_last_line(path: Path) -> str:
    """Cut a last line that has no newline (a write the power cut short); say what was cut."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return ""
    if size == 0 or not path.is_file():
        return ""
    with open(path, "rb+") as file:
        file.seek(max(0, size - 65536))
        tail = file.read()
        if tail.endswith(b"\n"):
            return ""
        cut = tail.rfind(b"\n") + 1
        keep = size - len(tail) + cut
        file.truncate(keep)
    return f"{path}: cut {size - keep} bytes of a line written when the power went"
