"""The demo table deals only once the engine listens and every camera reads: it never starts
without them, and says what it waits for."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.table_files import TableFiles
from feltwatch.appliance.config import load
from feltwatch.appliance.files import table_files
from feltwatch.demo.timeline import WAITING_NOTICE_S, Timeline

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"


def test_the_table_waits_for_the_engine_and_every_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load(DEPLOY / "demo.yaml")
    config = config.model_copy(
        update={"journal": config.journal.model_copy(update={"dir": tmp_path})}
    )
    timeline = Timeline(tmp_path / "t0", config)
    clock = [timeline.since]
    monkeypatch.setattr("feltwatch.demo.timeline.time.monotonic", lambda: clock[0])
    clock[0] += 10 * WAITING_NOTICE_S  # long past any fixed start
    assert not timeline.ready()
    assert "the table waits for the engine, overhead to be ready" in capsys.readouterr().out
    socket = table_files(config).socket
    socket.parent.mkdir(parents=True, exist_ok=True)
    socket.touch()
    assert not timeline.ready()  # the camera still loads
    views = TableFiles(table=config.table.name, journal_dir=tmp_path).cameras_dir
    views.mkdir(parents=True, exist_ok=True)
    for camera in config.cameras:
        (views / f"{camera.name}.ready").touch()
    assert timeline.ready()
