"""Camera -> engine over a Unix socket: every observation reaches the engine, in order, even when
the engine goes away and comes back; what was not acknowledged is sent again."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from engine.core import EngineCore
from engine.observations import ChipsInZone, EngineInput
from engine.simulate import demo_table
from feltwatch.appliance.ipc import ObservationSender, ObservationServer


def chips(n: int) -> ChipsInZone:
    return ChipsInZone(ts_ns=n * 1000, camera="overhead", zone="pot", counts={25: n})


def until(predicate: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_observations_survive_an_engine_restart_and_copies_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "engine.sock"
    got: list[EngineInput] = []
    errors: list[str] = []
    server = ObservationServer(path, got.append, errors.append).start()
    sender = ObservationSender(path).start()
    for n in range(1, 6):
        sender.send(chips(n))
    assert until(lambda: len(got) == 5 and sender.pending == 0)
    server.stop()  # the engine dies
    for n in range(6, 11):
        sender.send(chips(n))  # seen meanwhile: kept in the outbox
    assert until(lambda: not sender.connected)
    assert sender.pending == 5
    server = ObservationServer(path, got.append, errors.append).start()  # it comes back
    assert until(lambda: sender.pending == 0)
    sender.stop()
    server.stop()
    core = EngineCore(demo_table())
    kept = [item for item in got if not core.is_duplicate(item)]
    assert kept == [chips(n) for n in range(1, 11)]
    assert errors == []


def test_a_line_that_is_not_an_observation_is_reported_and_skipped(tmp_path: Path) -> None:
    import socket

    path = tmp_path / "engine.sock"
    got: list[EngineInput] = []
    errors: list[str] = []
    server = ObservationServer(path, got.append, errors.append).start()
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(str(path))
    client.sendall(b'1 {"v": 1, "type": "Nonsense"}\nnoise\n')
    assert client.recv(100) == b"1\n"  # acknowledged: it will not come again
    assert until(lambda: len(errors) == 2)
    assert "observation 1 dropped" in errors[0] and "Nonsense" in errors[0]
    assert "not a numbered line" in errors[1]
    assert got == []
    client.close()
    server.stop()
