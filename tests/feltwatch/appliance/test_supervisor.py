"""The supervisor restarts what crashes (later and later, then no more), leaves alone what
finished, and stops the rest in reverse order. Real child processes; an injected clock."""

from __future__ import annotations

import sys
import time

from feltwatch.appliance.supervisor import Child, Supervisor


def child(name: str, code: str) -> Child:
    return Child(name, [sys.executable, "-c", code])


def wait_exit(supervisor: Supervisor, name: str) -> None:
    process = supervisor.child(name).process
    assert process is not None
    process.wait(10)


def test_a_crashed_child_is_restarted_with_a_growing_delay_then_given_up() -> None:
    now = [0.0]
    said: list[str] = []
    supervisor = Supervisor(
        [child("engine", "import sys; sys.exit(3)")],
        health=said.append,
        max_restarts=2,
        window_s=60,
        backoff_s=(0.5, 10),
        clock=lambda: now[0],
    )
    supervisor.start()
    for expected_delay in (0.5, 1.0):
        wait_exit(supervisor, "engine")
        supervisor.poll()
        assert said[-1] == f"engine exited with status 3; restarting in {expected_delay:.1f} s"
        now[0] += expected_delay / 2
        supervisor.poll()
        assert supervisor.child("engine").process is None  # not yet due
        now[0] += expected_delay / 2
        supervisor.poll()
        assert supervisor.child("engine").process is not None
    wait_exit(supervisor, "engine")
    supervisor.poll()
    assert said[-1].startswith("engine exited with status 3; not restarted: it failed 3 times")
    assert supervisor.child("engine").given_up


def test_a_finished_child_is_left_alone_and_the_others_are_stopped_last_first() -> None:
    said: list[str] = []
    supervisor = Supervisor(
        [
            child("engine", "import time; time.sleep(60)"),
            child("camera:a", "pass"),
            child("camera:b", "import time; time.sleep(60)"),
        ],
        health=said.append,
    )
    supervisor.start()
    wait_exit(supervisor, "camera:a")
    supervisor.poll()
    assert supervisor.child("camera:a").finished and said == []
    engine, camera_b = supervisor.child("engine").process, supervisor.child("camera:b").process
    assert engine is not None and camera_b is not None
    supervisor.stop(grace_s=5)
    assert engine.returncode == -15 and camera_b.returncode == -15


def test_a_killed_child_is_named_with_its_signal() -> None:
    said: list[str] = []
    supervisor = Supervisor(
        [child("engine", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")],
        health=said.append,
        clock=time.monotonic,
    )
    supervisor.start()
    wait_exit(supervisor, "engine")
    supervisor.poll()
    assert said == ["engine killed by signal 9; restarting in 0.5 s"]
    supervisor.stop()
