"""A camera process of ``feltwatch run``: frames -> vision worker -> observations -> the engine.

    python -m feltwatch.appliance.camera_main --config table.yaml --camera overhead

Live cameras are read through a one-slot latest-frame buffer (a late frame is dropped, never
queued); a video file is read whole. A ``demo`` camera is the demo's own process
(``feltwatch.demo.camera_main``), which serves its frames through ``serve`` here.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from engine.observations import Observation
from feltwatch.appliance.config import CameraSection, Config, ConfigError, config_main, load
from feltwatch.appliance.console import tolerate_full_disks
from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE
from feltwatch.appliance.files import table_files
from feltwatch.appliance.ipc import ObservationSender
from feltwatch.appliance.live_view import LiveView
from feltwatch.appliance.service import process_log, stop_on_signals
from feltwatch.appliance.shot import Shot
from feltwatch.appliance.zones import zone_config
from vision.recorder import Recorder, RecordingThread
from vision.zones import ZoneMap

LOG = logging.getLogger("feltwatch.camera")


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
                    LOG.warning(f"camera {camera.name}: {state}: {source.error}")
                continue
            yield Shot(frame.ts_ns, frame.image)
    finally:
        source.stop()


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


Process = Callable[[Shot], list[Observation]]
"""A frame -> the observations it completes."""
Figures = Callable[[], tuple[list[object], dict[str, object]]]
"""What the live view shows: the last sightings, and the reader's figures."""


def zones_of(config: Config, camera: CameraSection, config_path: Path) -> ZoneMap | None:
    """The camera's zones (None: said why)."""
    from vision.zones import ZoneError

    try:
        return ZoneMap.from_config(zone_config(config, camera, config_path))
    except (OSError, ZoneError, ConfigError) as exc:
        LOG.error(f"camera {camera.name}: zones: {exc}")
        return None


def models_reader(
    config: Config, camera: CameraSection, zones: ZoneMap, speed: float = 1.0
) -> tuple[Process, Figures]:
    """The vision worker on each frame (the ONNX models)."""
    import cv2

    from vision.chips import chip_set_from_config
    from vision.recognise import Recogniser
    from vision.worker import VisionWorker

    # One core per camera: OpenCV's own thread pool (the frame's decoding, resizing) would
    # spread each camera over every core and make the cameras wait on each other.
    cv2.setNumThreads(1)

    chips = {name: c.model_dump() for name, c in config.chips.items()}
    recogniser = Recogniser(chip_set=chip_set_from_config(chips)) if chips else Recogniser()
    worker = VisionWorker(
        camera.name, recogniser, zones.zone_of, speed=speed, chip_places=zones.chip_places
    )

    def process(shot: Shot) -> list[Observation]:
        return worker.process(shot.image, shot.ts_ns)

    def figures() -> tuple[list[object], dict[str, object]]:
        return list(worker.sightings), dict(worker.stats.as_json())

    return process, figures


def run(config: Config, camera: CameraSection, config_path: Path) -> int:
    """A camera of the table: its frames read by the models."""
    zones = zones_of(config, camera, config_path)
    if zones is None:
        return EXIT_UNUSABLE
    process, figures = models_reader(config, camera, zones)
    return serve(
        config, camera, zones, lambda stopping: live_frames(camera, stopping), process, figures
    )


def serve(
    config: Config,
    camera: CameraSection,
    zones: ZoneMap,
    shots_of: Callable[[Callable[[], bool]], Iterator[Shot | None]],
    process: Process,
    figures: Figures,
) -> int:
    """Read the frames ``shots_of`` gives (until told to stop) with ``process``, send the
    observations to the engine, record the frames and keep the live view."""
    with stop_on_signals() as stopped:
        return _serve(config, camera, zones, shots_of(stopped.is_set), process, figures)


def _serve(
    config: Config,
    camera: CameraSection,
    zones: ZoneMap,
    shots: Iterator[Shot | None],
    process: Process,
    figures: Figures,
) -> int:
    from vision.quality import ViewQuality

    sender = ObservationSender(table_files(config).socket).start()
    recorder = recorder_for(config, camera)
    view = LiveView(table_files(config).cameras_dir, camera.name, zones)
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
            passes = worker_figures.get("passes", 0)
            passes_done = int(passes) if isinstance(passes, int | float) else 0
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
                level = logging.WARNING if error else logging.INFO
                LOG.log(level, f"camera {camera.name}: recording: {error or 'recording again'}")
    if recorder is not None:
        recorder.close()
    unsent = sender.stop(drain_s=30.0)
    if unsent:
        LOG.error(f"camera {camera.name}: {unsent} observations never reached the engine")
    elapsed_s = time.monotonic() - started
    LOG.info(
        f"camera {camera.name}: {processed} frames read in {elapsed_s:.0f} s "
        f"({processed / max(elapsed_s, 1e-9):.1f} frames/s)"
    )
    if sender.dropped:
        LOG.error(f"camera {camera.name}: {sender.dropped} observations lost")
    return EXIT_OK


def camera_process(
    prog: str,
    argv: list[str] | None,
    run: Callable[[Config, CameraSection, Path], int],
    *,
    demo: bool,
) -> int:
    """A camera process's ``main``: ``--config FILE --camera NAME`` (2 and the reason on stderr
    when the camera is not there, or is of the other kind: a live one or the demo's), then
    ``run(config, camera, path)``."""
    tolerate_full_disks()
    parser = argparse.ArgumentParser(prog=prog, add_help=False)
    parser.add_argument("--camera", required=True)
    args, rest = parser.parse_known_args(argv)

    def with_camera(config: Config, path: Path) -> int:
        camera = next((c for c in config.cameras if c.name == args.camera), None)
        if camera is None:
            print(f"{path}: no camera named {args.camera!r}", file=sys.stderr)
            return EXIT_UNUSABLE
        if camera.source.startswith("demo") != demo:
            runs_as = (
                "feltwatch.demo.camera_main" if not demo else "feltwatch.appliance.camera_main"
            )
            print(f"{path}: camera {camera.name} runs as {runs_as}", file=sys.stderr)
            return EXIT_UNUSABLE
        process_log("camera", table_files(config).log(f"camera-{camera.name}"))
        return run(config, camera, path)

    return config_main(prog, rest, with_camera, load)


def main(argv: list[str] | None = None) -> int:
    return camera_process("feltwatch-camera", argv, run, demo=False)


if __name__ == "__main__":
    sys.exit(main())
