"""``feltwatch run``, ``replay`` and ``demo`` on bad input: a clear message, a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltwatch.cli.main import main


def test_replay_says_what_is_wrong_with_its_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert "no such journal" in capsys.readouterr().err
    stray = tmp_path / "stray.jsonl"
    stray.write_text('{"v": 1, "type": "Nonsense"}\nnot json\n')
    assert main(["replay", str(stray)]) == 1
    err = capsys.readouterr().err
    assert "no table line: not a Feltwatch journal" in err


def test_run_refuses_a_broken_configuration_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.yaml"
    config.write_text("table: {name: t1, sb: 50, bb: -1}\ncameras: [{name: a, source: usb:0}]\n")
    assert main(["run", "--config", str(config)]) == 2  # the appliance cannot start on it
    err = capsys.readouterr().err
    assert f"{config}: table.bb:" in err


def test_demo_refuses_impossible_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--hands", "0"]) == 1
    assert "--hands: at least 1" in capsys.readouterr().err


def test_a_dashboard_that_cannot_open_its_store_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from feltwatch.appliance.dashboard_main import main as dashboard_main

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the store's folder should be")
    config = tmp_path / "table.yaml"
    config.write_text(
        f"table: {{name: T, sb: 5, bb: 10}}\njournal: {{dir: {tmp_path}/j}}\n"
        f"dashboard: {{store: {blocker}/d.sqlite3}}\n"
    )
    assert dashboard_main(["--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"cannot open its store {blocker}/d.sqlite3" in err
