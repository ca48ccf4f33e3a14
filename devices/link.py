"""A device on a serial port: one thread that opens the pyserial URL, reads, feeds the decoder
and the host session, writes the replies, and reconnects with backoff when the port goes away.

Engine inputs go to ``sink`` (called from the link's thread; keep it quick: hand them to a
queue). A port that cannot be opened (no such port, busy, permission denied) marks the device
``offline`` with a message naming the port and why, and the link keeps trying in the
background; nothing else stops.
"""

from __future__ import annotations

import contextlib
import errno
import queue
import threading
import time
from collections.abc import Callable

import serial

from devices.framing import Decoder
from devices.host import HostSession, Output
from engine.inputs import DeviceHealth, DeviceInput, LinkStatus

Clock = Callable[[], int]


def describe_open_error(url: str, exc: BaseException) -> str:
    """A one-line reason a port cannot be opened, naming the port."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code == errno.ENOENT or "No such file" in text:
        return f"{url}: no such port (check the device path in the configuration)"
    if code in (errno.EACCES, errno.EPERM) or "Permission denied" in text:
        return f"{url}: permission denied (add the service user to the dialout group)"
    if code == errno.EBUSY or "busy" in text.lower() or "Could not exclusively lock" in text:
        return f"{url}: port busy (another program has it open)"
    return f"{url}: cannot open: {text}"


class DeviceLink:
    def __init__(
        self,
        url: str,
        session: HostSession,
        sink: Callable[[DeviceInput], None],
        *,
        baudrate: int = 115200,
        read_timeout_s: float = 0.02,
        backoff_s: tuple[float, float] = (0.1, 5.0),
        clock: Clock = time.monotonic_ns,
    ) -> None:
        self.url = url
        self.session = session
        self.sink = sink
        self.baudrate = baudrate
        self.read_timeout_s = read_timeout_s
        self.backoff_s = backoff_s
        self.clock = clock
        self.decoder = Decoder()
        self.commands: queue.SimpleQueue[Callable[[int], bytes]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"link-{session.device}", daemon=True
        )
        self._port: serial.Serial | None = None
        self.open_error: str | None = None
        self._io = threading.RLock()
        """Held while the session is used and the port written (the link's thread and
        ``send``, which the sink may call back from the link's own thread); never during the
        blocking read."""

    # --- control ----------------------------------------------------------------------------

    def start(self) -> DeviceLink:
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 2.0) -> None:
        self._stop.set()
        self._thread.join(timeout_s)

    def send(self, command: Callable[[int], bytes]) -> None:
        """Frame and write a command now, from the calling thread (the dealer light must not
        wait for the link's next read timeout); queued for the link's thread while the port is
        closed. Reliable commands the write loses are resent by the session."""
        with self._io:
            port = self._port
            if port is None:
                self.commands.put(command)
                return
            data = command(self.clock())
            # A broken port: the link's thread finds it on its next read and reconnects.
            with contextlib.suppress(serial.SerialException, OSError):
                port.write(data)

    def set_light(self, colour: str, pattern: str) -> None:
        self.send(lambda now: self.session.set_light(colour, pattern, now))

    def request_inventory(self) -> None:
        self.send(self.session.request_inventory)

    # --- the thread -------------------------------------------------------------------------

    def _emit(self, out: Output) -> None:
        """The inputs to the sink, then the bytes to the device: the acknowledgement of a
        reading goes out once the sink (the engine's journal) has it; a process killed in
        between leaves it unacknowledged, and the device resends it."""
        for item in out.inputs:
            self.sink(item)
        if out.data and self._port is not None:
            try:
                self._port.write(bytes(out.data))
            except (serial.SerialException, OSError):
                self._close("write failed")

    def _open(self) -> bool:
        try:
            self._port = serial.serial_for_url(
                self.url, baudrate=self.baudrate, timeout=self.read_timeout_s, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            message = describe_open_error(self.url, exc)
            if message != self.open_error:
                self.open_error = message
                self.sink(
                    DeviceHealth(
                        ts_ns=self.clock(),
                        device=self.session.device,
                        status=LinkStatus.OFFLINE,
                        message=message,
                    )
                )
            return False
        self.open_error = None
        self.decoder = Decoder()
        self._emit(self.session.connected(self.clock()))
        return True

    def _close(self, why: str) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
            self._emit(self.session.disconnected(self.clock(), f"{self.url}: {why}"))

    def _run(self) -> None:
        delay = self.backoff_s[0]
        while not self._stop.is_set():
            if self._port is None:
                with self._io:
                    opened = self._open()
                if not opened:
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff_s[1])
                    continue
                delay = self.backoff_s[0]
            port = self._port
            assert port is not None
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError) as exc:
                with self._io:
                    self._close(f"read failed: {exc}")
                continue
            with self._io:
                now = self.clock()
                if data:
                    frames = self.decoder.feed(data)
                    if frames:
                        self._emit(self.session.receive(frames, now))
                while not self.commands.empty():
                    data_out = self.commands.get_nowait()(now)
                    if self._port is not None:
                        try:
                            self._port.write(data_out)
                        except (serial.SerialException, OSError):
                            self._close("write failed")
                self._emit(self.session.tick(now))
        with self._io:
            self._close("stopped")
