"""Faults in the engine process are loud and recoverable: on a full disk the engine goes on, the
console says so once, the light shows the fault, the output lines wait in memory in order and
are written when there is room, none left torn, the health file keeps when it could not write;
a failed engine thread ends the process for the supervisor to restart."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.alerts import Alert, Severity
from engine.core import Proved
from engine.events import Action, ActionKind
from feltwatch.appliance.exits import EXIT_ENGINE_FAILED
from tests.feltwatch.appliance.test_open_alerts import Light, fanout, table_files


def _alert(seq: int) -> Proved:
    alert = Alert(hand="1", seq=seq, rule="R-POT-5", family="chip_miscount",
                  severity=Severity.WARNING, seat=1, message="m")  # fmt: skip
    return Proved(alert=alert, table="T1", input_ts_ns=0)


def test_a_full_disk_holds_the_output_lines_and_writes_them_in_order_once_there_is_room(
    tmp_path: Path, file_size_limit: None, capsys: pytest.CaptureFixture[str]
) -> None:
    light = Light()
    out = fanout(tmp_path, light)
    files = table_files(tmp_path)
    actions = [Action(seq=n, ts_ms=n, seat=1, action=ActionKind.CHECK) for n in range(1, 7)]
    out.event(actions[0])
    size = files.events.stat().st_size
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 20, hard))  # room for part of a line
    for action in actions[1:4]:
        out.event(action)  # the engine goes on
    out.alert(_alert(3), replayed=False)
    assert files.events.stat().st_size == size  # no half line left behind
    said = capsys.readouterr().err
    assert said.count("engine output:") == 1 and "File too large" in said  # the limit: EFBIG
    # the fault shows on the light at once; the warning raised meanwhile does not hide it
    assert light.shown == ["blue double", "blue double"]
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    for action in actions[4:]:
        out.event(action)
    assert light.shown[-1] == "amber slow"  # the fault over: the open warning
    out.close()
    assert "every waiting line written" in capsys.readouterr().err
    seqs = [json.loads(line)["seq"] for line in files.events.read_text().splitlines()]
    assert seqs == [1, 2, 3, 4, 5, 6]
    assert [json.loads(line)["seq"] for line in files.alerts.read_text().splitlines()] == [3]
    health = [json.loads(line) for line in files.health.read_text().splitlines()]
    assert [(h["source"], h["status"]) for h in health] == [
        ("engine output", "error"),
        ("engine output", "ok"),
    ]
    assert "File too large" in health[0]["message"]


def test_an_alert_that_meets_the_full_disk_first_shows_it_on_the_light(
    tmp_path: Path, file_size_limit: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The alert's own light line is the first the disk refuses: the fault is shown from within
    the alert's command (it waited on itself before), then the alert's look once there is room."""
    light = Light()
    out = fanout(tmp_path, light)
    files = table_files(tmp_path)
    out.event(Action(seq=1, ts_ms=1, seat=1, action=ActionKind.CHECK))
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (files.events.stat().st_size, hard))
    raising = threading.Thread(target=out.alert, args=(_alert(2),), kwargs={"replayed": False})
    raising.start()
    raising.join(10)
    assert not raising.is_alive(), "the alert waited on itself"
    assert light.shown == ["amber slow", "blue double"]
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    out.event(Action(seq=3, ts_ms=3, seat=1, action=ActionKind.CHECK))
    assert light.shown[-1] == "amber slow"
    out.close()
    assert "every waiting line written" in capsys.readouterr().err


def test_a_failed_engine_thread_ends_the_process_non_zero_for_the_supervisor(
    tmp_path: Path,
) -> None:
    """Not a process living on with no engine: it exits 70, and the supervisor restarts it."""
    script = f"""
import time
from engine.inputs import CardDrawn
from engine.simulate import demo_table
from feltwatch.appliance.engine_service import EngineService
from feltwatch.cli.run import _Collect
service = EngineService(demo_table(), __import__("pathlib").Path({str(tmp_path / "j.jsonl")!r}),
                        _Collect(), fsync=False).start()
def broken(item):
    raise RuntimeError("a bug in the engine")
service.core.feed = broken
service.submit(CardDrawn(ts_ns=1, device="shoe", card="As", tag_id=1, shoe_seq=1, deck_id=1))
time.sleep(30)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == EXIT_ENGINE_FAILED
    assert "a bug in the engine" in done.stderr and "exiting for a restart" in done.stderr
