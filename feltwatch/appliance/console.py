"""The console of a long-running process (the engine, a camera) that a full or failing disk
cannot stop: when standard output or error go to a file on a disk that fills, what does not fit
is dropped (and counted), and the process goes on judging hands rather than dying on a message
it could not print."""

from __future__ import annotations

import io
import sys
from typing import TextIO


class TolerantStream(io.TextIOBase):
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.dropped = 0
        """Characters that could not be written."""

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError:
            self.dropped += len(text)
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError:
            return

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()


def tolerate_full_disks() -> None:
    """Standard output and error of this process become tolerant of write errors."""
    if not isinstance(sys.stdout, TolerantStream):
        sys.stdout = TolerantStream(sys.stdout)
    if not isinstance(sys.stderr, TolerantStream):
        sys.stderr = TolerantStream(sys.stderr)
