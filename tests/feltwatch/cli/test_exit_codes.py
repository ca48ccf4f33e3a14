"""Every command follows the README's exit-code table: a missing input is unusable input (2),
said in one line that names it, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from feltwatch.appliance.exits import EXIT_UNUSABLE

MISSING = [
    ["check", "{missing}.jsonl"],
    ["phh", "replay", "{missing}.phh"],
    ["phh", "export", "{missing}.jsonl"],
    ["phh", "mutate", "{missing}.phh", "--seed", "1"],
    ["replay", "{missing}.jsonl"],
    ["serial", "replay", "--device", "shoe", "{missing}.jsonl"],
    ["detect", "{missing}.jpg"],
    ["calibrate", "{missing}.jpg"],
    ["watch", "{missing}.mp4"],
    ["config", "validate", "{missing}.yaml"],
    ["config", "validate", "--central", "{missing}.yaml"],
    ["run", "--config", "{missing}.yaml"],
    ["users", "list", "--config", "{missing}.yaml"],
    ["central", "--config", "{missing}.yaml"],
]


@pytest.mark.parametrize("argv", MISSING, ids=lambda argv: " ".join(argv[:2]))
def test_a_missing_input_is_unusable_input_named_in_one_line(
    argv: list[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "nosuch")
    done = subprocess.run(
        [sys.executable, "-m", "feltwatch", *(a.format(missing=missing) for a in argv)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == EXIT_UNUSABLE, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    said = done.stderr.strip().splitlines()
    assert len(said) == 1 and missing in said[0], done.stderr
