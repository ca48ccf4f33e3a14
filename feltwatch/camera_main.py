"""A camera process of ``feltwatch run``: frames -> vision worker -> observations -> the engine.

    python -m feltwatch.camera_main --config table.yaml --camera overhead

Live cameras are read through a one-slot latest-frame buffer (a late frame is dropped, never
queued); a video file is read whole. A ``demo`` camera renders the demo table's session on the
shared timeline (its start, monotonic ns, in the file ``FELTWATCH_DEMO_T0_FILE`` names, which
``feltwatch demo`` writes once every process is ready: this one says so with
``<table>.cameras/<camera>.ready``): a frame the process is too late for is not drawn, as a
real camera's frame would be dropped.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import yaml

from engine.observations import Observation
from feltwatch import live_view
from feltwatch.config import CameraSection, Config, ConfigError, load
from feltwatch.console import tolerate_full_disks
from feltwatch.engine_main import paths
from feltwatch.ipc import ObservationSender
from feltwatch.live_view import LiveView
from vision.recorder import Recorder, RecordingThread

if TYPE_CHECKING:
    from models.synth.video import Truth

T0_FILE_ENV = "FELTWATCH_DEMO_T0_FILE"


class Shot(NamedTuple):
    ts_ns: int
    image: np.ndarray
    """BGR; empty when the demo renders the ground truth only."""
    truth: tuple[Truth, ...] = ()
    """What the demo table's renderer put in the frame."""


def demo_t0_ns(config: Config, camera: str, stopping: Callable[[], bool]) -> int:
    """When the demo table starts: say this camera is ready, then wait for the time (no file
    named: now)."""
    name = os.environ.get(T0_FILE_ENV)
    if not name:
        return time.monotonic_ns()
    views = live_view.folder(config.journal.dir, config.table.name)
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


def live_frames(camera: CameraSection, stopping: Callable[[], bool]) -> Iterator[Shot | None]:
    """The camera's frames; None each time none came for ``vision.quality.GAP_S`` (a stale
    source, told while it lasts)."""
    from vision.quality import GAP_S
    from vision.sources import LatestFrame, video_frames

    if Path(camera.source).is_file():
        for read in video_frames(camera.source):
            if stopping():
                return
            yield Shot(read.ts_ns, read.image)
        return
    source = LatestFrame(camera.source).start()
    state = ""
    try:
        while not stopping():
            frame = source.take(timeout_s=GAP_S)
            if frame is None:
                yield None
                if source.state != state:
                    state = source.state
                    print(f"camera {camera.name}: {state}: {source.error}", file=sys.stderr)
                continue
            yield Shot(frame.ts_ns, frame.image)
    finally:
        source.stop()


def zone_config(config: Config, camera: CameraSection, config_path: Path) -> dict[str, object]:
    if camera.source.startswith("demo"):
        from models.synth.video import Layout

        return Layout(seats=config.table.seats).zone_config()
    assert camera.zones is not None
    zones = camera.zones if camera.zones.is_absolute() else config_path.parent / camera.zones
    loaded = yaml.safe_load(zones.read_text())
    if not isinstance(loaded, dict):
        raise ConfigError([f"{zones}: expected the zone configuration of feltwatch calibrate"])
    return loaded


def recorder_for(config: Config, camera: CameraSection) -> RecordingThread | None:
    section = config.recording
    if not section.enabled:
        return None
    recorder = Recorder(
        section.dir / camera.name,
        segment_s=section.segment_s,
        budget_bytes=int(section.budget_gb * 1e9 / max(1, len(config.cameras))),
        fps=section.fps,
    )
    return RecordingThread(recorder)  # the frame loop never waits for the encoder


NO_IMAGES_TRUTH = (
    "no picture: the demo reads the renderer's ground truth (--vision truth), so nothing is "
    "drawn, recorded or cut into clips"
)


def run(config: Config, camera: CameraSection, config_path: Path) -> int:
    from vision.quality import ViewQuality
    from vision.zones import ZoneError, ZoneMap

    try:
        zones = ZoneMap.from_config(zone_config(config, camera, config_path))
    except (OSError, ZoneError, ConfigError) as exc:
        print(f"camera {camera.name}: zones: {exc}", file=sys.stderr)
        return 2
    truth = camera.source.startswith("demo") and config.demo.vision == "truth"
    if truth:
        from models.synth.truth import sightings
        from vision.observer import Observer

        observer = Observer(camera.name, zones.zone_of, speed=config.demo.speed)
        passes = [0]

        seen: list[object] = []

        def process(shot: Shot) -> list[Observation]:
            passes[0] += 1
            if passes[0] % 3:
                return []
            seen[:] = sightings(shot.truth)
            return observer.update(seen, shot.ts_ns)  # type: ignore[arg-type]

        def figures() -> tuple[list[object], dict[str, object]]:
            return seen, {"passes": passes[0] // 3, "no_images": NO_IMAGES_TRUTH}

    else:
        import cv2

        from vision.chips import chip_set_from_config
        from vision.recognise import Recogniser
        from vision.worker import VisionWorker

        # One core per camera: OpenCV's own thread pool (the frame's decoding, resizing) would
        # spread each camera over every core and make the cameras wait on each other.
        cv2.setNumThreads(1)

        chips = {name: c.model_dump() for name, c in config.chips.items()}
        recogniser = Recogniser(chip_set=chip_set_from_config(chips)) if chips else Recogniser()
        speed = config.demo.speed if camera.source.startswith("demo") else 1.0
        worker = VisionWorker(camera.name, recogniser, zones.zone_of, speed=speed)

        def process(shot: Shot) -> list[Observation]:
            return worker.process(shot.image, shot.ts_ns)

        def figures() -> tuple[list[object], dict[str, object]]:
            return list(worker.sightings), worker.stats.as_json()

    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    sender = ObservationSender(paths(config)["socket"]).start()
    if camera.source.startswith("demo"):
        shots: Iterator[Shot | None] = demo_frames(config, camera.name, stopped.is_set)
    else:
        shots = live_frames(camera, stopped.is_set)
    recorder = recorder_for(config, camera)
    view = LiveView(config.journal.dir, config.table.name, camera.name, zones)
    processed = 0
    started = time.monotonic()
    error = ""
    shown = (started, 0, 0)
    quality = ViewQuality(camera.name)
    on_clock = not Path(camera.source).is_file()  # a file's frame times are not the clock's
    for shot in shots:
        if shot is None:  # the source is stale
            degraded = quality.idle(time.monotonic_ns())
            if degraded is not None:
                sender.send(degraded)
            continue
        processed += 1
        observations = process(shot)
        lag_ns = time.monotonic_ns() - shot.ts_ns if on_clock else 0
        degraded = quality.add(shot.ts_ns, lag_ns)
        if degraded is not None:  # before the frame's observations: the engine judges the
            sender.send(degraded)  # hands of this stretch unverified
        for observation in observations:
            sender.send(observation)
        if view.due():
            seen, worker_figures = figures()
            now = time.monotonic()
            passes_done = int(worker_figures.get("passes", 0))
            span_s = max(now - shown[0], 1e-9)
            view.write(
                shot.image,
                seen,
                {
                    **worker_figures,
                    "fps": round((processed - shown[1]) / span_s, 1),
                    "detector_fps": round((passes_done - shown[2]) / span_s, 1),
                    "frames_read": processed,
                    "frames_dropped": quality.dropped,
                    "view_degraded": quality.degraded,
                    "observations_waiting": sender.pending,
                    "observations_lost": sender.dropped,
                    "engine_connected": sender.connected,
                    "recording_error": recorder.error if recorder is not None else "",
                },
            )
            shown = (now, processed, passes_done)
        if recorder is not None:
            recorder.add(shot.image, shot.ts_ns)
            if recorder.error != error:
                error = recorder.error
                print(
                    f"camera {camera.name}: recording: {error or 'recording again'}",
                    file=sys.stderr,
                    flush=True,
                )
    if recorder is not None:
        recorder.close()
    unsent = sender.stop(drain_s=30.0)
    if unsent:
        print(
            f"camera {camera.name}: {unsent} observations never reached the engine",
            file=sys.stderr,
            flush=True,
        )
    elapsed_s = time.monotonic() - started
    print(
        f"camera {camera.name}: {processed} frames read in {elapsed_s:.0f} s "
        f"({processed / max(elapsed_s, 1e-9):.1f} frames/s)",
        file=sys.stderr,
        flush=True,
    )
    if sender.dropped:
        print(f"camera {camera.name}: {sender.dropped} observations lost", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    tolerate_full_disks()
    parser = argparse.ArgumentParser(prog="feltwatch-camera")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--camera", required=True)
    args = parser.parse_args(argv)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    camera = next((c for c in config.cameras if c.name == args.camera), None)
    if camera is None:
        print(f"{args.config}: no camera named {args.camera!r}", file=sys.stderr)
        return 2
    return run(config, camera, args.config)


if __name__ == "__main__":
    sys.exit(main())
