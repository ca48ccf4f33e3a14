"""Following an append-only JSONL file: the complete lines added since a byte offset."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_READ_BYTES = 4 << 20
"""At most this much per call: a long backlog is taken in steps."""


@dataclass(frozen=True, slots=True)
class Line:
    row: dict[str, Any] | None
    """None: not a JSON object (``error`` says why)."""
    start: int
    end: int
    """Byte offsets of the line in the file (``end``: after its newline)."""
    error: str = ""
    text: str = ""
    """The line as it came, for a line that is not a JSON object (at most 4,000 characters)."""


def new_lines(path: Path, offset: int, max_bytes: int = MAX_READ_BYTES) -> Iterator[Line]:
    """The complete lines from ``offset`` on (a line still being written is left for later); a
    file shorter than ``offset`` (replaced) is read from its start."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if size < offset:
        offset = 0
    if size == offset:
        return
    with path.open("rb") as file:
        file.seek(offset)
        data = file.read(min(size - offset, max_bytes))
    position = offset
    if len(data) == max_bytes and b"\n" not in data:  # one line longer than a whole read
        yield Line(None, offset, offset + len(data), "line too long", _text(data))
        return
    for raw in data.splitlines(keepends=True):
        if not raw.endswith(b"\n"):
            return
        start, position = position, position + len(raw)
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            yield Line(None, start, position, f"not JSON: {str(exc)[:200]}", _text(raw))
            continue
        if not isinstance(row, dict):
            yield Line(None, start, position, "not a JSON object", _text(raw))
            continue
        yield Line(row, start, position)


def _text(raw: bytes) -> str:
    return raw[:4000].decode("utf-8", "replace").rstrip("\n")
