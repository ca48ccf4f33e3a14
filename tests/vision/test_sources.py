"""Frame sources: video files frame by frame, live sources through a one-slot buffer, and
cameras that cannot be opened."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import CameraError, LatestFrame, describe, open_capture, video_frames


def write_video(path: Path, frames: int, size: tuple[int, int] = (160, 120)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, size)
    assert writer.isOpened()
    for i in range(frames):
        image = np.zeros((size[1], size[0], 3), np.uint8)
        cv2.putText(image, str(i), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
        image[:, :, 2] = (i * 6) % 250  # the frame's number in its red channel
        writer.write(image)
    writer.release()


def test_a_video_file_gives_every_frame_in_order_with_times_from_its_rate(tmp_path: Path) -> None:
    video = tmp_path / "hand.avi"
    write_video(video, 12)
    frames = list(video_frames(video))
    assert [f.index for f in frames] == list(range(12))
    assert [f.ts_ns for f in frames] == [round(i * 1e9 / 30) for i in range(12)]
    reds = [int(np.median(f.image[:, :, 2])) for f in frames]
    assert all(abs(r - 6 * i) <= 3 for i, r in enumerate(reds))


def test_sources_that_cannot_be_opened_are_named(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match=r"file '.*missing.avi': no such file"):
        open_capture(str(tmp_path / "missing.avi"))
    garbage = tmp_path / "garbage.avi"
    garbage.write_bytes(b"\x00not a video" * 100)
    with pytest.raises(CameraError, match="cannot be opened"):
        open_capture(str(garbage))
    assert describe("usb:2") == "USB camera 'usb:2'"
    assert describe("rtsp://10.0.0.5/stream1") == "stream 'rtsp://10.0.0.5/stream1'"


def test_a_live_source_keeps_only_the_newest_frame_and_counts_the_dropped(tmp_path: Path) -> None:
    video = tmp_path / "live.avi"
    write_video(video, 40)
    done = threading.Event()

    def opener(source: str) -> cv2.VideoCapture:
        if done.is_set():
            raise CameraError(f"{describe(source)}: unplugged")
        done.set()
        return open_capture(source)

    live = LatestFrame(str(video), opener=opener, retry_s=(0.01, 0.01)).start()
    try:
        # The worker takes nothing while the 40 frames arrive: all but the newest are dropped.
        deadline = threading.Event()
        while live.state != "offline" and not deadline.wait(0.01):
            pass
        frame = live.take(timeout_s=1)
        assert frame is not None and frame.index == 39
        assert live.read == 40 and live.dropped == 39
        assert live.take(timeout_s=0.05) is None  # nothing new
        assert live.state == "offline" and "unplugged" in live.error
    finally:
        live.stop()
