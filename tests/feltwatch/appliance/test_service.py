"""Every appliance process's log (levels, the console and its file) and stop (the signals)."""

from __future__ import annotations

import os
import resource
import signal
from pathlib import Path

import pytest

from engine.table_files import TableFiles
from feltwatch.appliance.service import process_log, stop_on_signals


def test_the_log_says_info_on_stdout_warnings_on_stderr_and_keeps_both_with_levels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = TableFiles(table="T1", journal_dir=tmp_path).log("engine")
    log = process_log("test-levels", file)
    log.info("[T1] hand 3 closed: 0 alert(s)")
    log.warning("[T1] overhead: view degraded")
    said = capsys.readouterr()
    assert said.out == "[T1] hand 3 closed: 0 alert(s)\n"
    assert said.err == "[T1] overhead: view degraded\n"
    kept = file.read_text().splitlines()
    assert [line.split(" ", 3)[2:] for line in kept] == [
        ["INFO", "[T1] hand 3 closed: 0 alert(s)"],
        ["WARNING", "[T1] overhead: view degraded"],
    ]
    assert file == tmp_path / "logs" / "T1.engine.log"


def test_a_log_file_the_disk_refuses_is_said_once_and_the_process_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "logs" / "T1.engine.log"
    log = process_log("test-full", file)
    log.info("first")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (file.stat().st_size, hard))
    try:
        for n in range(5):
            log.info(f"refused {n}")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    log.info("room again")
    said = capsys.readouterr()
    assert said.err.count("log: cannot write") == 1 and "Traceback" not in said.err
    assert "log: writing" in said.err
    assert said.out.splitlines() == ["first", *(f"refused {n}" for n in range(5)), "room again"]
    assert file.read_text().splitlines()[-1].endswith("INFO room again")


def test_sigterm_sets_the_stop_and_the_handler_before_comes_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with stop_on_signals() as stop:
        assert not stop.is_set()
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.wait(5)
    assert signal.getsignal(signal.SIGTERM) == before
