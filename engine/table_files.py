"""Where a table's records lie, named in one place: in its journal folder the engine's inputs
(the journal), the table event log and what the engine makes of it, the camera link's socket
and each camera's live view; in its recording folder the clips cut for its alerts.

    <journal dir>/<table>.jsonl                  the engine's inputs, in the order it took them
    <journal dir>/<table>.<kind>.jsonl           kind: events, alerts, hands, light, health
    <journal dir>/engine.sock                    the camera link (observations, acknowledgements)
    <journal dir>/<table>.cameras/<camera>.*     each camera's live view (.jpg, .json, .ready)
    <journal dir>/logs/<table>.<process>.log      each process's log
    <recording dir>/clips/<table>/clips.jsonl    the clips cut around alerts
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RECORD_KINDS = ("events", "alerts", "hands", "light", "health")
"""The JSONL records the engine writes beside its journal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableFiles:
    table: str
    journal_dir: Path
    media_root: Path | None = None
    """The recording folder (None: the table records no video)."""

    def file(self, kind: str) -> Path:
        """``<journal dir>/<table>.<kind>.jsonl`` (``kind`` one of ``RECORD_KINDS``)."""
        return self.journal_dir / f"{self.table}.{kind}.jsonl"

    @property
    def journal(self) -> Path:
        return self.journal_dir / f"{self.table}.jsonl"

    @property
    def events(self) -> Path:
        return self.file("events")

    @property
    def alerts(self) -> Path:
        return self.file("alerts")

    @property
    def hands(self) -> Path:
        return self.file("hands")

    @property
    def light(self) -> Path:
        return self.file("light")

    @property
    def health(self) -> Path:
        return self.file("health")

    @property
    def socket(self) -> Path:
        return self.journal_dir / "engine.sock"

    def log(self, process: str) -> Path:
        """The log file of one of the table's processes (``engine``, ``camera-overhead``)."""
        return self.journal_dir / "logs" / f"{self.table}.{process}.log"

    @property
    def cameras_dir(self) -> Path:
        return self.journal_dir / f"{self.table}.cameras"

    @property
    def clips_dir(self) -> Path | None:
        return None if self.media_root is None else self.media_root / "clips" / self.table

    def records(self) -> list[tuple[str, Path]]:
        """(kind, file) of every JSONL record of the table (the clips' when it records)."""
        out = [(kind, self.file(kind)) for kind in RECORD_KINDS]
        if self.clips_dir is not None:
            out.append(("clips", self.clips_dir / "clips.jsonl"))
        return out
