"""The demo with its journal on a small disk of its own (a tmpfs) that fills up mid-session: the
light shows the fault and the dashboard's health says the journal disk is full while it lasts;
once there is room again every line waiting in memory is written, in order, and the session is
judged as without the fault. A disk that never gets room again: the demo exits non-zero.

Mounting needs root (the appliance's test machines run as root); elsewhere these are skipped."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from devices.messages import COLOURS, PATTERNS
from engine.mutate import Expected
from feltwatch.appliance.journal import BadLine, read
from models.synth.session import DemoSession
from tests.e2e.demo_process import truth_demo

T = TypeVar("T")

SEED = 7
HANDS = 4
FULL_IN_HAND = "2"
"""The disk fills once this hand has begun, and gets room again once it closed."""


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """``<tmp>/demo/journal`` on a 4 MiB tmpfs of its own."""
    mount = tmp_path / "demo" / "journal"
    mount.mkdir(parents=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte with a ballast file."""
    ballast = disk / "ballast"
    with ballast.open("wb", buffering=0) as out:
        block = b"\0" * 4096
        while True:
            try:
                out.write(block)
            except OSError:
                break
        while True:
            try:
                out.write(b"\0")
            except OSError:
                return ballast


def health(folder: Path, source: str) -> tuple[str, str] | None:
    try:
        with sqlite3.connect(folder / "dashboard.sqlite3", timeout=5) as db:
            row = db.execute(
                "SELECT status, message FROM health WHERE source = ?", (source,)
            ).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else (str(row[0]), str(row[1]))


def lights(folder: Path) -> list[str]:
    """What the light simulator was told to show, in order."""
    path = folder / "light.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [f"{COLOURS[r['colour']]} {PATTERNS[r['pattern']]}" for r in rows]


def wait_for(
    what: str, check: Callable[[], T], demo: subprocess.Popen[bytes], timeout_s: float = 300
) -> T:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if demo.poll() is not None:
            raise AssertionError(f"the demo ended before {what}")
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def begun(disk: Path, hand: str) -> bool:
    path = disk / "demo.events.jsonl"
    if not path.exists():
        return False
    return any(
        json.loads(line).get("type") == "hand_start" and json.loads(line).get("hand") == hand
        for line in path.read_text().splitlines()
    )


def test_a_full_journal_disk_is_shown_and_nothing_is_lost_once_there_is_room(
    small_disk: Path,
) -> None:
    folder = small_disk.parent
    with truth_demo(folder, HANDS, SEED) as demo:
        wait_for(f"hand {FULL_IN_HAND} began", lambda: begun(small_disk, FULL_IN_HAND), demo)
        ballast = fill(small_disk)
        filled_at = time.time()
        full = wait_for(
            "the dashboard's health said the journal disk is full",
            lambda: (h := health(folder, "journal disk")) and h[0] == "error" and h,
            demo,
        )
        assert full and "journal disk full" in full[1]
        with sqlite3.connect(folder / "dashboard.sqlite3", timeout=5) as db:
            (at,) = db.execute("SELECT at FROM health WHERE source = 'journal disk'").fetchone()
        print(f"the dashboard said the journal disk is full {at - filled_at:.2f} s after it was")
        wait_for("the light showed the fault", lambda: "blue double" in lights(folder), demo)
        console = folder / "console.log"
        wait_for(
            f"hand {FULL_IN_HAND} closed",
            lambda: f"hand {FULL_IN_HAND} closed" in console.read_text(),
            demo,
        )
        assert "engine output: cannot write" in console.read_text()
        ballast.unlink()
        demo.wait(timeout=600)
    output = (folder / "console.log").read_text()
    assert demo.returncode == 0, output[-3000:]
    assert "every waiting line written" in output
    room = health(folder, "journal disk")
    assert room is not None and room[0] != "error"
    # Nothing lost or out of order: every hand judged, as the session's injected irregularities
    # say; the journal whole and replayed to exactly the events written.
    hands = [
        json.loads(line) for line in (small_disk / "demo.hands.jsonl").read_text().splitlines()
    ]
    assert [h["hand"] for h in hands] == [str(n) for n in range(1, HANDS + 1)]
    rows = [
        json.loads(line) for line in (small_disk / "demo.alerts.jsonl").read_text().splitlines()
    ]
    expected: tuple[Expected, ...] = DemoSession(seed=SEED, hands=HANDS).expected
    assert {(r["hand"], r["family"]) for r in rows} == {(e.hand, e.family) for e in expected}
    assert {(e.hand, e.rule) for e in expected} <= {(r["hand"], r["rule"]) for r in rows}
    assert not [i for i in read(small_disk / "demo.jsonl") if isinstance(i, BadLine)]
    events = folder / "replayed.events.jsonl"
    subprocess.run(
        [sys.executable, "-m", "feltwatch", "replay", str(small_disk / "demo.jsonl"), "--events",
         str(events)],
        capture_output=True,
        check=True,
    )  # fmt: skip
    assert events.read_bytes() == (small_disk / "demo.events.jsonl").read_bytes()
    seqs = [json.loads(line)["seq"] for line in events.read_text().splitlines()]
    assert seqs == list(range(1, len(seqs) + 1))
    health_rows = [
        json.loads(line) for line in (small_disk / "demo.health.jsonl").read_text().splitlines()
    ]
    said = [(h["status"], h["message"]) for h in health_rows if h["source"] == "engine output"]
    assert [status for status, _ in said] == ["error", "ok"]
    assert "No space left on device" in said[0][1] or "disk full" in said[0][1]


def test_a_journal_disk_that_stays_full_ends_the_demo_non_zero(small_disk: Path) -> None:
    folder = small_disk.parent
    with truth_demo(folder, HANDS, SEED) as demo:
        wait_for(f"hand {FULL_IN_HAND} began", lambda: begun(small_disk, FULL_IN_HAND), demo)
        fill(small_disk)
        demo.wait(timeout=600)
    output = (folder / "console.log").read_text()
    assert demo.returncode == 2, output[-3000:]
    assert "never written" in output and "the engine stopped with status 74" in output
