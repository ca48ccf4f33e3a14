"""An output file's write errors name the file: a write the disk refuses (full, read-only)
raises an ``OSError`` without a file name, and the command line says in one line which output
it could not write (``feltwatch.cli.main``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def naming(path: Path | str) -> Iterator[None]:
    """Within it, an ``OSError`` that names no file names ``path``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise
