"""Files the dashboard serves from a folder (camera frames, clips, key frames): only a regular
file inside that folder, reached without a symbolic link."""

from __future__ import annotations

from pathlib import Path, PurePath


def file_inside(root: Path, relative: str | PurePath) -> Path | None:
    """The regular file ``relative`` names under ``root``; None when there is none, when the
    path or a folder on the way is a symbolic link, or when it leads out of ``root``."""
    base = root.resolve()
    parts = PurePath(relative).parts
    if not parts or PurePath(relative).is_absolute() or ".." in parts:
        return None
    path = base
    for part in parts:
        path = path / part
        if path.is_symlink():
            return None
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not resolved.is_relative_to(base) or not resolved.is_file():
        return None
    return resolved
