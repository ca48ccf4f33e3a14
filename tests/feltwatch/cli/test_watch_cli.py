"""``feltwatch watch``: the vision worker on a video file (and the rendered demo table)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from feltwatch.cli.main import main
from models.synth.video import Deal, HandVideo, Layout, Pause


def test_watch_prints_the_observations_of_a_video_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The card's name is the classifier's: its accuracy is measured by ``models/eval`` (a
    rendered black queen 60 px wide on the felt can be read with the other black suit:
    models/README.md, Limits); here a red card, named in every style."""
    layout = Layout(seats=3)
    video = HandVideo(layout, [Deal("7c", "seat:1"), Deal("Qh", "board", "up"), Pause(0.5)])
    path = tmp_path / "hand.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, layout.frame)
    for frame in video.frames():
        writer.write(frame.image)
    writer.release()
    zones = tmp_path / "zones.yaml"
    zones.write_text(yaml.safe_dump(layout.zone_config()))
    assert main(["watch", str(path), "--zones", str(zones), "--json"]) == 0
    captured = capsys.readouterr()
    cards = [json.loads(line) for line in captured.out.splitlines()]
    cards = [(c["zone"], c["face"], c["card"]) for c in cards if c["type"] == "CardAppeared"]
    assert cards == [("seat:1", "down", None), ("board", "up", "Qh")]
    assert "frames" in captured.err and "detection passes" in captured.err


def test_watch_names_what_it_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "usb:0"]) == 2
    assert "--zones: needed for a camera or a file" in capsys.readouterr().err
    bad = tmp_path / "zones.yaml"
    bad.write_text("corners_px: [[0, 0]]\nwidth_mm: 1\nheight_mm: 1\nzones: {}\n")
    assert main(["watch", str(bad), "--zones", str(bad)]) == 2
    assert "corners_px: expected 4 points" in capsys.readouterr().err


def test_watch_fails_at_once_on_a_file_it_cannot_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a live source (a USB camera, a stream) is waited for; a missing file, a folder, a file
    that is not a video or zones that are not zones are said in one line, exit 2."""
    zones = tmp_path / "zones.yaml"
    zones.write_text(yaml.safe_dump(Layout().zone_config()))
    not_video = tmp_path / "x.avi"
    not_video.write_text("not a video")
    image = tmp_path / "still.png"
    cv2.imwrite(str(image), np.zeros((8, 8, 3), np.uint8))
    cases = [
        ([str(tmp_path / "nope.avi"), "--zones", str(zones)], "no such file"),
        ([str(tmp_path), "--zones", str(zones)], "a folder, not a video file"),
        ([str(not_video), "--zones", str(zones)], "cannot be opened"),
        ([str(not_video), "--zones", str(image)], "not a zone configuration"),
        ([str(not_video), "--zones", str(not_video)], "not a zone configuration"),
    ]
    for argv, said in cases:
        assert main(["watch", *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], (argv, err)


def test_a_live_source_that_cannot_be_opened_is_said_once_without_opencv_noise(
    tmp_path: Path,
) -> None:
    """A stream nobody serves is retried for as long as asked; the console says so once, not
    OpenCV's and FFmpeg's own lines at every retry."""
    zones = tmp_path / "zones.yaml"
    zones.write_text(yaml.safe_dump(Layout().zone_config()))
    done = subprocess.run(
        [sys.executable, "-m", "feltwatch", "watch", "rtsp://127.0.0.1:9/none", "--zones",
         str(zones), "--seconds", "3"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    lines = done.stderr.strip().splitlines()
    assert lines[0] == "camera: offline: stream 'rtsp://127.0.0.1:9/none': cannot be opened"
    assert len(lines) == 2 and lines[1].startswith("0 frames"), lines
