"""The files of a table in its journal folder, named in one place: the journal (the engine's
inputs), the events, alerts, hands, light and health it writes, and the camera link's socket."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from feltwatch.appliance.config import Config


def paths(config: Config) -> dict[str, Path]:
    """Each of the table's files by what it holds."""
    base = config.journal.dir
    name = config.table.name
    return {
        "journal": base / f"{name}.jsonl",
        "events": base / f"{name}.events.jsonl",
        "alerts": base / f"{name}.alerts.jsonl",
        "hands": base / f"{name}.hands.jsonl",
        "light": base / f"{name}.light.jsonl",
        "health": base / f"{name}.health.jsonl",
        "socket": base / "engine.sock",
    }


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
