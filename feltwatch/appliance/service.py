"""What every appliance process shares: its log, and its stop.

The log has levels. On the console each line reads as written (it names its table): INFO to the
standard output, WARNING and above to the standard error. Every line also goes, with its time and
level, to the process's log file in the table's journal folder (``TableFiles.log``), kept to a
few files of 10 MB; a disk that refuses the file is said once on the console, and the process
goes on. The stop is an event that SIGTERM and Ctrl-C set.
"""

from __future__ import annotations

import logging
import logging.handlers
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOG_BYTES = 10_000_000
LOG_FILES = 4
"""Old log files kept beside the one written."""
SIGNALS = (signal.SIGTERM, signal.SIGINT)
STOP_GRACE_S = 10.0
"""How long the supervisor waits for a process to stop after SIGTERM before it kills it."""
STOP_BUDGET_S = STOP_GRACE_S - 2.0
"""What a process gives its own stop (the rest: the interpreter's exit, a starved CPU)."""


class _LogFile(logging.handlers.RotatingFileHandler):
    """A log file that says once on the console when it cannot be written (not a traceback
    per line), and again once it can."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, maxBytes=LOG_BYTES, backupCount=LOG_FILES, delay=True)
        self.failing = False

    def emit(self, record: logging.LogRecord) -> None:
        super().emit(record)
        if self.failing and self.stream is not None:
            self.failing = False
            print(f"log: writing {self.baseFilename} again", file=sys.stderr, flush=True)

    def handleError(self, record: logging.LogRecord) -> None:
        if not self.failing:
            self.failing = True
            error = sys.exc_info()[1]
            print(f"log: cannot write {self.baseFilename}: {error}", file=sys.stderr, flush=True)
        if self.stream is not None:  # open it anew next time (the disk may have room again)
            self.stream.close()
            self.stream = None  # logging reopens the file at the next line


def _below_warning(record: logging.LogRecord) -> bool:
    return record.levelno < logging.WARNING


def process_log(process: str, file: Path | None) -> logging.Logger:
    """The logger ``feltwatch.<process>`` set up for this process: the console, and ``file``
    (None: the console alone). Modules of the process log to it by that name."""
    logger = logging.getLogger(f"feltwatch.{process}")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    logger.setLevel(logging.INFO)
    logger.propagate = False
    plain = logging.Formatter("%(message)s")
    out = logging.StreamHandler(sys.stdout)
    out.addFilter(_below_warning)
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(logging.WARNING)
    for handler in (out, err):
        handler.setFormatter(plain)
        logger.addHandler(handler)
    if file is not None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            logger.warning(f"log: cannot make {file.parent}: {exc.strerror or exc}")
        else:
            written = _LogFile(file)
            written.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
            logger.addHandler(written)
    return logger


@contextmanager
def stop_on_signals() -> Iterator[threading.Event]:
    """An event SIGTERM and Ctrl-C set while the block runs (the handlers before it are put
    back after)."""
    stop = threading.Event()
    previous = [signal.signal(s, lambda *_: stop.set()) for s in SIGNALS]
    try:
        yield stop
    finally:
        for s, handler in zip(SIGNALS, previous, strict=True):
            signal.signal(s, handler)
