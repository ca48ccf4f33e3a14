"""The store's connections follow the threads that use them: the web server's worker threads come
and go (idle ones exit and new ones start), and a gone thread's connection is closed, not kept
open until the process runs out of file descriptors."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from dashboard.store.sqlite import SqliteStore


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_gone_threads_connection_is_closed(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "d.sqlite3")
    store.tables()

    def one_request() -> None:
        store.tables()

    def burst() -> None:
        for _ in range(50):
            thread = threading.Thread(target=one_request)
            thread.start()
            thread.join()

    burst()
    settled = open_files()
    burst()
    burst()
    assert open_files() <= settled + 3  # a connection (its file and WAL) at most, not 100
    assert len(store._connections) <= 2
    store.close()
