"""The demo table's camera: the rendered session's frames on the shared timeline and the
renderer's own sightings (``--vision truth``)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from feltwatch.appliance.config import Config
from feltwatch.appliance.files import table_files
from feltwatch.appliance.shot import Shot
from models.synth.truth import sightings

__all__ = ["T0_FILE_ENV", "demo_frames", "sightings"]


T0_FILE_ENV = "FELTWATCH_DEMO_T0_FILE"


def demo_t0_ns(config: Config, camera: str, stopping: Callable[[], bool]) -> int:
    """When the demo table starts: say this camera is ready, then wait for the time (no file
    named: now)."""
    name = os.environ.get(T0_FILE_ENV)
    if not name:
        return time.monotonic_ns()
    views = table_files(config).cameras_dir
    views.mkdir(parents=True, exist_ok=True)
    (views / f"{camera}.ready").touch()
    path = Path(name)
    while not stopping():
        try:
            return int(path.read_text())
        except (OSError, ValueError):
            time.sleep(0.02)
    return time.monotonic_ns()


def demo_frames(config: Config, camera: str, stopping: Callable[[], bool]) -> Iterator[Shot]:
    """The demo session's frames on its timeline."""
    from models.synth.session import DemoSession
    from models.synth.video import FPS

    demo = config.demo
    session = DemoSession(seed=demo.seed, hands=demo.hands, seats=config.table.seats)
    t0_ns = demo_t0_ns(config, camera, stopping)
    frame_ns = 1e9 / FPS / demo.speed

    def due(index: int) -> bool:  # not yet too late for this frame
        return time.monotonic_ns() < t0_ns + (index + 1) * frame_ns

    if demo.video is not None and demo.vision == "models":
        yield from _played(demo.video, session.frames, t0_ns, frame_ns, due, stopping)
        return
    for frame in session.frames_of(images=demo.vision == "models", draw=due):
        if stopping():
            return
        if frame.image.size == 0 and not frame.objects:
            continue  # dropped
        wait_s = (t0_ns + frame.index * frame_ns - time.monotonic_ns()) / 1e9
        if wait_s > 0:
            time.sleep(wait_s)
        yield Shot(t0_ns + int(frame.index * frame_ns), frame.image, frame.objects)


def _played(
    video: Path,
    frames: int,
    t0_ns: int,
    frame_ns: float,
    due: Callable[[int], bool],
    stopping: Callable[[], bool],
) -> Iterator[Shot]:
    """A pre-rendered session on the timeline: a frame the process is too late for is skipped
    undecoded, as a camera's late frame is dropped."""
    import cv2

    capture = cv2.VideoCapture(str(video))
    try:
        for index in range(frames):
            if stopping():
                return
            if not due(index):
                capture.grab()
                continue
            ok, image = capture.read()
            if not ok:
                return
            wait_s = (t0_ns + index * frame_ns - time.monotonic_ns()) / 1e9
            if wait_s > 0:
                time.sleep(wait_s)
            yield Shot(t0_ns + int(index * frame_ns), image)
    finally:
        capture.release()
