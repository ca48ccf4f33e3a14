"""The table's files (``engine.table_files``) as its configuration places them, and the reading
of the records the engine wrote there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.table_files import TableFiles
from feltwatch.appliance.config import Config


def table_files(config: Config) -> TableFiles:
    """The table's files (its clips' only where it records video)."""
    media = config.recording.dir if config.recording.enabled else None
    return TableFiles(table=config.table.name, journal_dir=config.journal.dir, media_root=media)


def last_event_seq(path: Path) -> int:
    """The ``seq`` of the last complete line of an events file (0: none)."""
    if not path.exists():
        return 0
    last = 0
    with path.open("rb") as file:
        for line in file:
            if line.endswith(b"\n"):
                try:
                    last = int(json.loads(line)["seq"])
                except (ValueError, KeyError, TypeError):
                    continue
    return last


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
