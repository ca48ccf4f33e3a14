"""Camera processes -> the engine: observations over a Unix socket, each acknowledged once the
engine has journalled it, kept by the camera until then and sent again after a reconnection
(the engine restarted). Nothing the camera saw is lost while the engine is down, within the
camera's outbox (bounded, the oldest dropped first and counted); copies are dropped by the
engine (``engine.core``).

On the wire, one line per message: ``<n> <journal line>`` from the camera (``n`` counts up
from 1 for the camera process's life), ``<n>`` back from the engine for each line it took.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from engine.observations import EngineInput
from feltwatch.appliance.journal_codec import JournalError, decode, encode


class ObservationSender:
    def __init__(self, path: Path, *, max_pending: int = 20_000) -> None:
        self.path = path
        self.max_pending = max_pending
        self.dropped = 0
        """Observations lost because the engine stayed away longer than the outbox holds."""
        self.connected = False
        self._outbox: deque[tuple[int, bytes]] = deque()
        self._sent = 0
        """How many of the outbox's first entries went out on this connection."""
        self._n = 0
        self._wake = threading.Condition()
        self._stop = False
        self._sock: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, name="to-engine", daemon=True)

    def start(self) -> ObservationSender:
        self._thread.start()
        return self

    def stop(self, drain_s: float = 2.0) -> int:
        """Stop once everything is acknowledged (or ``drain_s`` passed: an engine restarting
        meanwhile is waited for); the observations never acknowledged."""
        deadline = time.monotonic() + drain_s
        while self._outbox and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join(2.0)
        return len(self._outbox)

    @property
    def pending(self) -> int:
        return len(self._outbox)

    def send(self, item: EngineInput) -> None:
        with self._wake:
            self._n += 1
            if len(self._outbox) >= self.max_pending:
                self._outbox.popleft()
                self._sent = max(0, self._sent - 1)
                self.dropped += 1
            self._outbox.append((self._n, b"%d " % self._n + encode(item)))
            self._wake.notify()

    def _connect(self) -> bool:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(self.path))
        except OSError:
            sock.close()
            return False
        self._sock = sock
        self._sent = 0  # everything not acknowledged goes again
        self.connected = True
        return True

    def _drop_connection(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
        self._sock = None
        self.connected = False

    def _run(self) -> None:
        buffer = b""
        delay = 0.05
        while True:
            with self._wake:
                if self._stop:
                    break
                if self._sock is not None and self._sent >= len(self._outbox):
                    self._wake.wait(0.05)
                batch = [line for _, line in list(self._outbox)[self._sent :]]
            if self._sock is None:
                if not self._connect():
                    time.sleep(delay)
                    delay = min(1.0, delay * 2)
                    continue
                delay = 0.05
                buffer = b""
                continue
            try:
                if batch:
                    self._sock.sendall(b"".join(batch))
                    with self._wake:
                        self._sent += len(batch)
                ready, _, _ = select.select([self._sock], [], [], 0)
                if ready:
                    data = self._sock.recv(65536)
                    if not data:
                        raise ConnectionError("engine closed the connection")
                    buffer += data
                    *acks, buffer = buffer.split(b"\n")
                    if acks:
                        self._acknowledged(int(acks[-1]))
            except (OSError, ValueError, ConnectionError):
                self._drop_connection()
        self._drop_connection()

    def _acknowledged(self, n: int) -> None:
        with self._wake:
            while self._outbox and self._outbox[0][0] <= n:
                self._outbox.popleft()
                self._sent = max(0, self._sent - 1)


class ObservationServer:
    """The engine's side: ``submit(item)`` journals and queues an input (``EngineService``)."""

    def __init__(
        self, path: Path, submit: Callable[[EngineInput], object], error: Callable[[str], None]
    ) -> None:
        self.path = path
        self.submit = submit
        self.error = error
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(str(path))
        self._sock.listen(16)
        self._thread = threading.Thread(target=self._accept, name="cameras", daemon=True)
        self._connections: set[socket.socket] = set()

    def start(self) -> ObservationServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()
        for conn in list(self._connections):
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        buffer = b""
        self._connections.add(conn)
        with conn:
            while True:
                try:
                    data = conn.recv(65536)
                except OSError:
                    break
                if not data:
                    break
                buffer += data
                *lines, buffer = buffer.split(b"\n")
                last = None
                for line in lines:
                    number, _, body = line.partition(b" ")
                    try:
                        last = int(number)
                    except ValueError:
                        self.error(f"camera connection: not a numbered line: {line[:60]!r}")
                        continue
                    try:
                        item = decode(body)
                    except JournalError as exc:
                        self.error(f"camera connection: observation {last} dropped: {exc}")
                        continue
                    self.submit(item)
                if last is not None:
                    try:
                        conn.sendall(b"%d\n" % last)
                    except OSError:
                        break
        self._connections.discard(conn)
