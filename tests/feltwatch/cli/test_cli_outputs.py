"""Every command that writes, writing to a full disk (``/dev/full``: standard output or the
output file) or a read-only one: one line names the output and why, the exit code says it
(74), no traceback."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import cv2
import pytest

from engine.inputs import CardDrawn
from engine.observations import CardAppeared, ChipsInZone, Face
from engine.simulate import demo_table
from feltwatch.appliance.exits import EXIT_CANNOT_WRITE
from feltwatch.appliance.journal import JournalWriter, TableLine
from models.synth.scene import render
from models.synth.video import Layout
from tests.fuzzing import serial_seeds
from vision.zones import ZoneMap

ROOT = Path(__file__).resolve().parents[3]
EVENT_LOG = ROOT / "examples" / "irregular-hands.jsonl"
PHH = sorted((ROOT.parent / "shared" / "data" / "phh").rglob("*.phh"))[0]
FULL = "/dev/full"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("inputs")
    journal = folder / "table.jsonl"
    writer = JournalWriter(journal, fsync=False)
    writer.table(TableLine(demo_table(), 1, "overhead"))
    for seat in range(1, 4):
        writer.append(ChipsInZone(ts_ns=seat, camera="overhead", zone=f"stack:{seat}",
                                  counts={100: 10}))  # fmt: skip
    writer.append(CardDrawn(ts_ns=1000, device="shoe", card="As", tag_id=1, shoe_seq=1,
                            deck_id=2))  # fmt: skip
    writer.append(
        CardAppeared(
            ts_ns=5000, camera="overhead", track=1, zone="seat:2", face=Face.UP, card="As", conf=0.9
        )
    )  # an exposed card: an alert
    writer.close()
    still = folder / "still.png"
    cv2.imwrite(str(still), render(random.Random(1), 1920, 1080).image)
    marked = ZoneMap.from_config(Layout().zone_config()).calibration.corners_px
    corners = " ".join(f"{x:g},{y:g}" for x, y in marked)
    capture = folder / "shoe.capture.jsonl"
    capture.write_bytes(serial_seeds()[0])
    return {"log": str(EVENT_LOG), "phh": str(PHH), "journal": str(journal),
            "capture": str(capture), "still": str(still), "corners": corners,
            "config": str(ROOT / "deploy" / "demo.yaml")}  # fmt: skip


TO_STDOUT = [
    ["check", "{log}"],
    ["check", "--json", "{log}"],
    ["eventlog"],
    ["rules", "list"],
    ["rules", "list", "--markdown"],
    ["gen", "clean", "--hands", "3", "--seed", "1"],
    ["phh", "replay", "{phh}"],
    ["phh", "export", "{log}"],
    ["replay", "{journal}"],
    ["replay", "--json", "{journal}"],
    ["serial", "replay", "--device", "shoe", "{capture}"],
    ["config", "validate", "{config}"],
]
TO_FILE = [
    ["phh", "export", "{log}", "--output", "{out}"],
    ["replay", "{journal}", "--events", "{out}"],
    ["gen", "clean", "--hands", "3", "--seed", "1", "--output", "{out}"],
    ["calibrate", "{still}", "--corners", "{corners}", "-o", "{out}"],
]
TO_FOLDER = [
    ["calibrate", "{still}", "--preview", "{out}.png"],
    ["calibrate", "{still}", "--corners", "{corners}", "-o", "/dev/null", "--preview", "{out}.png"],
    ["phh", "mutate", "{phh}", "--out", "{out}"],
    ["gen", "irregular", "--hands", "3", "--seed", "1", "--out", "{out}"],
]


def feltwatch(
    argv: list[str], stdout: int | IO[str] = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "feltwatch", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        timeout=120,
    )


def said_once(done: subprocess.CompletedProcess[str], where: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr, done.stderr
    assert lines and where in lines[-1], done.stderr
    assert done.returncode in (EXIT_CANNOT_WRITE, 2), done.returncode  # 2: a command's own words


@pytest.mark.parametrize("argv", TO_STDOUT, ids=" ".join)
def test_standard_output_on_a_full_disk_is_one_line(
    argv: list[str], inputs: dict[str, str]
) -> None:
    args = [a.format(**inputs) for a in argv]
    assert feltwatch(args).returncode in (0, 1)  # the command works (1: the inputs' alerts)
    with open(FULL, "w") as full:
        done = feltwatch(args, stdout=full)
    said_once(done, "No space left on device")
    assert done.returncode == EXIT_CANNOT_WRITE


@pytest.mark.parametrize("argv", TO_FILE, ids=" ".join)
def test_an_output_file_on_a_full_disk_is_one_line(argv: list[str], inputs: dict[str, str]) -> None:
    done = feltwatch([a.format(**inputs, out=FULL) for a in argv])
    said_once(done, FULL)


@pytest.fixture(scope="module")
def read_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A read-only tmpfs (mounting needs root, as on the appliance's test machines)."""
    mount = tmp_path_factory.mktemp("read-only")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.parametrize("argv", TO_FILE + TO_FOLDER, ids=" ".join)
def test_an_output_on_a_read_only_disk_is_one_line(
    argv: list[str], inputs: dict[str, str], read_only: Path
) -> None:
    out = read_only / "out"
    done = feltwatch([a.format(**inputs, out=out) for a in argv])
    said_once(done, str(out))
