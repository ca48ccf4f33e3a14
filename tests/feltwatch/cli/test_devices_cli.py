"""``feltwatch sim`` and ``feltwatch serial``, run as a user runs them."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devices.host import HostSession
from devices.link import DeviceLink
from devices.messages import DeviceKind
from engine.inputs import CardDrawn, DeviceInput

ROOT = Path(__file__).resolve().parents[3]


def _start_sim(*args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltwatch", "sim", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert " simulator on " in first, first
    return proc, first.rsplit(" ", 1)[-1].strip()


def test_sim_shoe_deals_the_given_cards_to_a_real_link(tmp_path: Path) -> None:
    proc, port = _start_sim("shoe", "--cards", "AsKdQh", "--link", str(tmp_path / "shoe"))
    assert port == str(tmp_path / "shoe")
    got: queue.SimpleQueue[DeviceInput] = queue.SimpleQueue()
    link = DeviceLink(port, HostSession("shoe", DeviceKind.SHOE), got.put).start()
    try:
        assert proc.stdin is not None
        proc.stdin.write("draw 3\n")
        proc.stdin.flush()
        cards: list[CardDrawn] = []
        deadline = time.monotonic() + 15
        while len(cards) < 3 and time.monotonic() < deadline:
            try:
                item = got.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(item, CardDrawn):
                cards.append(item)
        assert [c.card for c in cards] == ["As", "Kd", "Qh"]
    finally:
        link.stop()
        proc.communicate("quit\n", timeout=10)
    assert proc.returncode == 0


def test_capture_then_replay(tmp_path: Path) -> None:
    proc, port = _start_sim("tray", "--float", "25:10,100:5", "--link", str(tmp_path / "tray"))
    capture_file = tmp_path / "tray.jsonl"
    capture = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "feltwatch",
            "serial",
            "capture",
            port,
            str(capture_file),
            "--seconds",
            "3",
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdin is not None and capture.stderr is not None
        assert capture.stderr.readline().startswith(f"capturing {port}")  # the port is open
        proc.stdin.write("move +100x2\nlid open\n")
        proc.stdin.flush()
        capture.wait(timeout=20)
    finally:
        proc.communicate("quit\n", timeout=10)
    assert capture.returncode == 0, capture.stderr.read() if capture.stderr else ""
    lines = capture_file.read_text().splitlines()
    assert all({"t_ns", "data"} == set(json.loads(line)) for line in lines)
    replay = subprocess.run(
        [
            sys.executable,
            "-m",
            "feltwatch",
            "serial",
            "replay",
            str(capture_file),
            "--device",
            "tray",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert replay.returncode == 0, replay.stderr
    events = replay.stdout.splitlines()
    assert any("TrayCounted counts={25: 10, 100: 7}" in e for e in events), events
    assert any("TrayLid state=open" in e for e in events), events
    assert "0 bad CRC" in replay.stderr


def test_sim_with_a_port_that_does_not_exist_is_a_clear_error() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "feltwatch", "sim", "light", "--port", "/dev/no-such-tty"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2
    assert run.stderr == "error: cannot open /dev/no-such-tty: No such file or directory\n"


def test_a_capture_record_whose_time_is_not_a_whole_number_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The time of each record is a whole number of nanoseconds: a float, infinity, text or a
    flag is named with its line, and the records after it are still replayed."""
    from feltwatch.cli.main import main
    from tests.fuzzing import serial_seeds

    good = serial_seeds()[0].decode().splitlines()
    capture = tmp_path / "shoe.jsonl"
    bad = ['{"t_ns": 1e400, "data": "7e"}', '{"t_ns": 2.5, "data": "7e"}',
           '{"t_ns": "5", "data": "7e"}', '{"t_ns": true, "data": "7e"}']  # fmt: skip
    capture.write_text("\n".join([*bad, *good]) + "\n")
    assert main(["serial", "replay", "--device", "shoe", str(capture)]) == 1
    err = capsys.readouterr()
    assert [line.split(": ", 2)[1] for line in err.err.splitlines()[:4]] == [
        f"{capture}:{n}" for n in range(1, 5)
    ]
    assert "t_ns: a whole number of nanoseconds" in err.err
    assert "CardDrawn" in err.out  # the good records after them
