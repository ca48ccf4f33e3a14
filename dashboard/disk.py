"""The room left on the disk an appliance's journal is on, as a health row: the engine keeps
what it cannot write in memory, so a full disk puts everything after it at risk of a power cut
(the engine's own row, source ``engine output``, says when its writes fail; this one says it
before, and while the engine's rows cannot reach the disk)."""

from __future__ import annotations

import shutil
from pathlib import Path

SOURCE = "journal disk"
FULL_BELOW_BYTES = 1 << 20
"""Under this the disk is full: an hour of a busy table's journal and files."""
LOW_BELOW_BYTES = 100 << 20
"""Under this the disk is low: days of them."""


def disk_health(folder: Path) -> tuple[str, str]:
    """(status, message) of the disk ``folder`` is on (or will be: the nearest folder above it
    that exists): ``error`` full, ``warning`` low, ``ok``."""
    existing = next((p for p in (folder, *folder.parents) if p.exists()), folder)
    try:
        free = shutil.disk_usage(existing).free
    except OSError as exc:
        return "error", f"{folder}: cannot read the disk's room: {exc.strerror or exc}"
    if free < FULL_BELOW_BYTES:
        return "error", f"journal disk full: {free >> 10} KiB free in {folder}"
    if free < LOW_BELOW_BYTES:
        return "warning", f"journal disk low: {free >> 20} MiB free in {folder}"
    return "ok", f"{free / (1 << 30):.0f} GiB free"
