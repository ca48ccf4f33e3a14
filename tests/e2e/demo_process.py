"""``feltwatch demo`` as the end-to-end tests and ``bench/crash.py`` run it: in its own process,
the renderer's ground truth in place of the models, at 4x; its engine process SIGKILLed at
random moments (the supervisor restarts it)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from feltwatch.appliance.supervisor import MAX_RESTARTS, RESTART_WINDOW_S
from tests.services.servers import free_port


@contextmanager
def truth_demo(folder: Path, hands: int, seed: int) -> Iterator[subprocess.Popen[bytes]]:
    """The demo running, its console in ``folder/console.log``; killed on leaving if it still
    runs."""
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "feltwatch", "demo", "--dir", str(folder), "--hands", str(hands),
        "--seed", str(seed), "--speed", "4", "--vision", "truth", "--port", str(free_port()),
    ]  # fmt: skip
    with (folder / "console.log").open("wb") as log:
        demo = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        yield demo
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()


def engine_pid(folder: Path) -> int | None:
    """The running engine process of the demo in ``folder`` (None: none is, as it restarts)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state == "Z":
            continue
        if b"feltwatch.appliance.engine_main" in argv and any(
            str(folder).encode() in a for a in argv
        ):
            return int(entry.name)
    return None


def kill_at_random(
    demo: subprocess.Popen[bytes], folder: Path, rng: random.Random, every_s: float, budget: int
) -> list[float]:
    """SIGKILL the engine at moments drawn from ``rng`` until the demo ends or ``budget`` kills
    are done; for each kill done, how long after its engine was up it came (seconds). Each comes
    0 to ``2 * every_s`` seconds after the engine is up (its first second included: killed
    before it journalled anything the camera saw), but no more often than the supervisor
    restarts a child (a kill that would exhaust its restarts waits until the oldest leaves its
    window)."""
    kills: list[float] = []
    after_up_s: list[float] = []
    while demo.poll() is None and len(kills) < budget:
        pid = engine_pid(folder)
        if pid is None:
            time.sleep(0.02)
            continue
        up = time.monotonic()
        due = up + rng.uniform(0.0, 2.0 * every_s)
        recent = [at for at in kills if at > time.monotonic() - RESTART_WINDOW_S]
        if len(recent) >= MAX_RESTARTS - 1:
            due = max(due, recent[0] + RESTART_WINDOW_S + 1.0)
        while demo.poll() is None and time.monotonic() < due:
            time.sleep(0.02)
        if demo.poll() is not None or engine_pid(folder) != pid:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
        kills.append(time.monotonic())
        after_up_s.append(kills[-1] - up)
        while demo.poll() is None and engine_pid(folder) == pid:
            time.sleep(0.02)
    return after_up_s
