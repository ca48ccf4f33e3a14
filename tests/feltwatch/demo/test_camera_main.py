"""A pre-rendered demo session played as a camera delivers it: on the timeline, the frames the
process is too late for skipped without decoding."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from feltwatch.demo.camera import _played


def test_a_video_is_played_on_its_timeline_and_late_frames_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "session.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30, (64, 36))
    for i in range(10):
        writer.write(np.full((36, 64, 3), 20 * i, np.uint8))
    writer.release()
    t0_ns, frame_ns = 1_000, 33_333_333.3  # long past: no waiting
    shots = list(
        _played(path, 10, t0_ns, frame_ns, due=lambda i: i % 3 != 1, stopping=lambda: False)
    )
    assert [s.ts_ns for s in shots] == [t0_ns + int(i * frame_ns) for i in (0, 2, 3, 5, 6, 8, 9)]
    assert [round(float(s.image.mean()) / 20) for s in shots] == [0, 2, 3, 5, 6, 8, 9]
