"""Frame sources: a USB camera (index), an RTSP stream, a video file, or any iterator of frames
(the rendered demo table). Every frame carries its capture time (monotonic ns).

Live cameras are read by a capture thread into a one-slot buffer: the worker always gets the
newest frame and a slow pass drops frames (counted), never queues them. A camera that cannot be
opened or stops delivering is reopened with a backoff, and its state is reported, while the rest
of the appliance keeps running.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

# FFmpeg's own log lines ("[tcp @ 0x...] Connection refused") each time a stream is retried: the
# source's state says it once (set before OpenCV loads FFmpeg).
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

import cv2
import numpy as np

cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
"""OpenCV's warnings each time a camera is retried ("can't open camera by index"): likewise."""


class CameraError(RuntimeError):
    """A camera source that cannot be used (the message names it and why)."""


@dataclass(frozen=True, slots=True)
class FrameRead:
    ts_ns: int
    image: np.ndarray
    index: int


def describe(source: str) -> str:
    kind = (
        "USB camera" if _usb_index(source) is not None else "stream" if "://" in source else "file"
    )
    return f"{kind} {source!r}"


def _usb_index(source: str) -> int | None:
    text = source.removeprefix("usb:")
    return int(text) if text.isdigit() else None


def is_live(source: str) -> bool:
    """A USB camera or a stream (retried when it drops), not a file."""
    return _usb_index(source) is not None or "://" in source


def open_capture(source: str) -> cv2.VideoCapture:
    """``0`` or ``usb:0`` (a USB camera), ``rtsp://…`` / ``http://…`` (a stream), or a video
    file path; raises ``CameraError`` naming the source when it cannot be opened."""
    index = _usb_index(source)
    if index is not None:
        capture = cv2.VideoCapture(index, cv2.CAP_V4L2)
    elif "://" in source:
        capture = cv2.VideoCapture(source, cv2.CAP_FFMPEG)
    else:
        if not Path(source).is_file():
            raise CameraError(f"{describe(source)}: no such file")
        capture = cv2.VideoCapture(source)
    if not capture.isOpened():
        capture.release()
        raise CameraError(f"{describe(source)}: cannot be opened")
    return capture


def video_frames(path: str | Path, fps: float | None = None) -> Iterator[FrameRead]:
    """Every frame of a video file, in order, none dropped; times from the file's frame rate
    (or ``fps``), starting at 0."""
    capture = open_capture(str(path))
    rate = fps or capture.get(cv2.CAP_PROP_FPS) or 30.0
    index = 0
    try:
        while True:
            ok, image = capture.read()
            if not ok:
                return
            yield FrameRead(round(index * 1e9 / rate), image, index)
            index += 1
    finally:
        capture.release()


class LatestFrame:
    """A capture thread over a live source with a one-slot buffer (drop, never queue)."""

    def __init__(
        self,
        source: str,
        *,
        opener: Callable[[str], cv2.VideoCapture] = open_capture,
        retry_s: tuple[float, float] = (0.5, 10.0),
        clock_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.source = source
        self._opener = opener
        self._retry_s = retry_s
        self._clock_ns = clock_ns
        self._slot: FrameRead | None = None
        self._ready = threading.Condition()
        self._stop = threading.Event()
        self.read = 0
        self.dropped = 0
        """Frames overwritten before the worker took them."""
        self.state = "starting"
        self.error = ""
        self._thread = threading.Thread(target=self._run, name=f"camera {source}", daemon=True)

    def start(self) -> LatestFrame:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._ready:
            self._ready.notify_all()
        self._thread.join(timeout=5)

    def take(self, timeout_s: float) -> FrameRead | None:
        """The newest frame not taken yet, waiting up to ``timeout_s``; None if none came."""
        with self._ready:
            if self._slot is None:
                self._ready.wait(timeout_s)
            frame, self._slot = self._slot, None
            return frame

    def _run(self) -> None:
        delay = self._retry_s[0]
        while not self._stop.is_set():
            try:
                capture = self._opener(self.source)
            except CameraError as exc:
                self.state, self.error = "offline", str(exc)
                self._stop.wait(delay)
                delay = min(delay * 2, self._retry_s[1])
                continue
            self.state, self.error, delay = "connected", "", self._retry_s[0]
            try:
                while not self._stop.is_set():
                    ok, image = capture.read()
                    if not ok:
                        self.state = "disconnected"
                        self.error = f"{describe(self.source)}: stopped delivering frames"
                        break
                    frame = FrameRead(self._clock_ns(), image, self.read)
                    self.read += 1
                    with self._ready:
                        if self._slot is not None:
                            self.dropped += 1
                        self._slot = frame
                        self._ready.notify()
            finally:
                capture.release()
            self._stop.wait(delay)
