"""Child processes of ``feltwatch run``: started in order, restarted when they crash (with a
growing delay, at most ``max_restarts`` in ``window_s``, then left down with a health alert),
stopped in the reverse order (SIGTERM, then SIGKILL after a grace period).

A child that exits with status 0 has finished its work (a demo camera at the end of the
session) and is not restarted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from feltwatch.appliance.service import STOP_GRACE_S

MAX_RESTARTS = 5
"""A child is restarted at most this many times within ``RESTART_WINDOW_S``."""
RESTART_WINDOW_S = 60.0


@dataclass(slots=True)
class Child:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    restarts: deque[float] = field(default_factory=deque)
    """When it was restarted, within the window."""
    due_s: float | None = None
    """When a crashed child is to be started again."""
    given_up: bool = False
    finished: bool = False
    stopped_with: int | None = None
    """The exit status it stopped with when told to (None: it was not running)."""


class Supervisor:
    def __init__(
        self,
        children: list[Child],
        *,
        health: Callable[[str], None],
        max_restarts: int = MAX_RESTARTS,
        window_s: float = RESTART_WINDOW_S,
        backoff_s: tuple[float, float] = (0.5, 10.0),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.children = children
        self.health = health
        self.max_restarts = max_restarts
        self.window_s = window_s
        self.backoff_s = backoff_s
        self.clock = clock

    def child(self, name: str) -> Child:
        return next(c for c in self.children if c.name == name)

    def start(self) -> None:
        for child in self.children:
            self._spawn(child)

    def _spawn(self, child: Child) -> None:
        env = {**os.environ, **child.env}
        child.process = subprocess.Popen(child.argv, env=env)
        child.due_s = None

    def poll(self) -> None:
        """Notice crashed children and restart those that are due; call it often."""
        now = self.clock()
        for child in self.children:
            if child.given_up or child.finished:
                continue
            if child.process is None:
                if child.due_s is not None and now >= child.due_s:
                    self._spawn(child)
                continue
            code = child.process.poll()
            if code is None:
                continue
            child.process = None
            if code == 0:
                child.finished = True
                continue
            while child.restarts and now - child.restarts[0] > self.window_s:
                child.restarts.popleft()
            how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
            if len(child.restarts) >= self.max_restarts:
                child.given_up = True
                self.health(
                    f"{child.name} {how}; not restarted: it failed {len(child.restarts) + 1} "
                    f"times in {self.window_s:.0f} s (see its messages above)"
                )
                continue
            delay = min(self.backoff_s[1], self.backoff_s[0] * 2 ** len(child.restarts))
            child.restarts.append(now)
            child.due_s = now + delay
            self.health(f"{child.name} {how}; restarting in {delay:.1f} s")

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """Stop every child, the last started first."""
        for child in reversed(self.children):
            process = child.process
            child.finished = True
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)
            try:
                child.stopped_with = process.wait(grace_s)
            except subprocess.TimeoutExpired:
                self.health(f"{child.name} did not stop within {grace_s:.0f} s: killed")
                process.kill()
                child.stopped_with = process.wait()
