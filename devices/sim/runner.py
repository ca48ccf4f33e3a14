"""Run a simulated device on a pseudo-terminal (or a given port), with faults on the line.

The simulator opens a pty, prints its path (or keeps a stable symlink pointing at it), and
speaks the device side of the protocol. Faults apply to the bytes it writes: line noise between
frames, dropped bytes, a corrupted byte inside a frame (bad CRC), frames sent twice, a pause,
and a disconnect (the pty goes away and, after a while, comes back at the same symlink).
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import select
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from devices.framing import Decoder
from devices.messages import Message
from devices.sim.device import DeviceSession


class Simulated(Protocol):
    kind: int

    def handle(self, command: Message, now_ns: int) -> list[Message]: ...
    def tick(self, now_ns: int, host_heard_ns: int) -> list[Message]: ...


@dataclass(slots=True)
class Faults:
    noise: float = 0.0
    """Chance, per frame, of 1 to 16 random bytes written before it."""
    drop: float = 0.0
    """Chance, per byte, that it is lost."""
    bad_crc: float = 0.0
    """Chance, per frame, that one byte inside it is changed."""
    duplicate: float = 0.0
    """Chance, per frame, that it is written twice."""
    reorder: float = 0.0
    """Chance, per frame, that it is held back and written after the next one."""
    byte_at_a_time: bool = False
    """Write one byte per system call (the host's reads see single bytes)."""
    pause_after: int | None = None
    """After this many frames, stop writing for ``pause_s``."""
    pause_s: float = 0.0
    disconnect_after: int | None = None
    """After this many frames, close the port; open a new one ``down_s`` later."""
    down_s: float = 0.5
    seed: int = 0


Action = Callable[[int], list[Message]]


class PtyDevice:
    def __init__(
        self,
        device: Simulated,
        session: DeviceSession,
        *,
        faults: Faults | None = None,
        link: Path | None = None,
        port: str | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.device = device
        self.session = session
        self.faults = faults or Faults()
        self.link = link
        self.fixed_port = port
        """A serial device to speak on instead of a new pty."""
        self.clock = clock
        self.rng = random.Random(self.faults.seed)
        self.actions: queue.SimpleQueue[Action] = queue.SimpleQueue()
        self.frames_written = 0
        self.decoder = Decoder()
        self.path = ""
        self._master = -1
        self._slave = -1
        self._stop = threading.Event()
        self._paused_until = 0
        self._held: bytes | None = None
        self._thread = threading.Thread(target=self._run, name="sim", daemon=True)
        self._open()

    # --- control ----------------------------------------------------------------------------

    @property
    def port(self) -> str:
        """The path a host opens: the stable symlink if there is one."""
        return str(self.link) if self.link is not None else self.path

    def start(self) -> PtyDevice:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self._close()

    def act(self, action: Action) -> None:
        """Run ``action`` in the simulator's thread; the messages it returns are sent."""
        self.actions.put(action)

    def disconnect(self, down_s: float) -> None:
        """Take the port away now and bring it back after ``down_s``."""
        self.act(lambda now: self._go_down(now, down_s))

    # --- the pty ----------------------------------------------------------------------------

    def _open(self) -> None:
        if self.fixed_port is not None:
            self._master = os.open(self.fixed_port, os.O_RDWR | os.O_NOCTTY)
            tty.setraw(self._master)
            self.path = self.fixed_port
            self.decoder = Decoder()
            return
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.decoder = Decoder()
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.path)
            tmp.replace(self.link)

    def _close(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1

    def _go_down(self, now_ns: int, down_s: float) -> list[Message]:
        self._close()
        self._stop.wait(down_s)
        if not self._stop.is_set():
            self._open()
        return []

    def _write(self, data: bytes) -> None:
        """Write frames to the line, with the configured faults."""
        if not data or self._master < 0:
            return
        f = self.faults
        out = bytearray()
        frames = [token for token in data.split(b"\x7e") if token]
        if f.reorder:
            for i in range(len(frames) - 1):
                if self.rng.random() < f.reorder:
                    frames[i], frames[i + 1] = frames[i + 1], frames[i]
        if f.reorder and self._held is not None:
            frames.append(self._held)
            self._held = None
        if f.reorder and len(frames) == 1 and self.rng.random() < f.reorder:
            self._held = frames.pop()  # written after the next frame
        for token in frames:
            if f.noise and self.rng.random() < f.noise:
                out += bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 16)))
            body = bytearray(token)
            if f.bad_crc and self.rng.random() < f.bad_crc:
                i = self.rng.randrange(len(body))
                body[i] = body[i] ^ (1 + self.rng.randrange(0x7D))  # never yields a new flag
                if body[i] in (0x7D, 0x7E):
                    body[i] ^= 0x01
            frame = b"\x7e" + bytes(body) + b"\x7e"
            if f.drop:
                frame = bytes(b for b in frame if self.rng.random() >= f.drop)
            out += frame
            if f.duplicate and self.rng.random() < f.duplicate:
                out += frame
        try:
            if f.byte_at_a_time:
                for i in range(len(out)):
                    os.write(self._master, out[i : i + 1])
            else:
                os.write(self._master, bytes(out))
        except OSError:
            return
        self.frames_written += len(frames)
        if f.pause_after is not None and self.frames_written >= f.pause_after:
            f.pause_after = None
            self._paused_until = self.clock() + int(f.pause_s * 1e9)
        if f.disconnect_after is not None and self.frames_written >= f.disconnect_after:
            f.disconnect_after = None
            self.disconnect(f.down_s)

    def _send(self, messages: list[Message], now_ns: int) -> None:
        for message in messages:
            self._write(self.session.send(message, now_ns))

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            if self._master < 0 or now < self._paused_until:
                self._stop.wait(0.01)
                continue
            try:
                ready, _, _ = select.select([self._master], [], [], 0.005)
            except (OSError, ValueError):
                ready = []
            if ready:
                try:
                    data = os.read(self._master, 4096)
                except OSError:
                    data = b""
                frames = self.decoder.feed(data)
                if frames:
                    self._write(self.session.receive(frames, now))
                    commands, self.session.commands = self.session.commands, []
                    for command in commands:
                        self._send(self.device.handle(command, now), now)
            while not self.actions.empty():
                self._send(self.actions.get_nowait()(now), now)
            self._send(self.device.tick(now, self.session.last_host_heard_ns), now)
            self._write(self.session.tick(now))
