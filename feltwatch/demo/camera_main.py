"""The demo table's camera process: the rendered session on the shared timeline (its start,
monotonic ns, in the file ``FELTWATCH_DEMO_T0_FILE`` names, which ``feltwatch demo`` writes once
every process is ready: this one says so with ``<table>.cameras/<camera>.ready``; a frame the
process is too late for is not drawn, as a real camera's frame would be dropped), read by the
models or, with ``--vision truth``, seen as the renderer drew it.

    python -m feltwatch.demo.camera_main --config demo.yaml --camera overhead
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.observations import Observation
from feltwatch.appliance.camera_main import Figures, Process, models_reader, serve, zones_of
from feltwatch.appliance.config import CameraSection, Config, ConfigError, load
from feltwatch.appliance.console import tolerate_full_disks
from feltwatch.appliance.shot import Shot
from feltwatch.demo.camera import demo_frames, sightings
from vision.zones import ZoneMap

NO_IMAGES_TRUTH = (
    "no picture: the demo reads the renderer's ground truth (--vision truth), so nothing is "
    "drawn, recorded or cut into clips"
)


def truth_reader(config: Config, camera: CameraSection, zones: ZoneMap) -> tuple[Process, Figures]:
    """The observer fed what the renderer drew, on one frame in three (as the worker reads)."""
    from vision.observer import Observer

    observer = Observer(camera.name, zones.zone_of, speed=config.demo.speed)
    passes = [0]
    seen: list[object] = []

    def process(shot: Shot) -> list[Observation]:
        passes[0] += 1
        if passes[0] % 3:
            return []
        seen[:] = sightings(shot.truth)  # type: ignore[arg-type]
        return observer.update(seen, shot.ts_ns)  # type: ignore[arg-type]

    def figures() -> tuple[list[object], dict[str, object]]:
        return seen, {"passes": passes[0] // 3, "no_images": NO_IMAGES_TRUTH}

    return process, figures


def run(config: Config, camera: CameraSection, config_path: Path) -> int:
    zones = zones_of(config, camera, config_path)
    if zones is None:
        return 2
    if config.demo.vision == "truth":
        process, figures = truth_reader(config, camera, zones)
    else:
        process, figures = models_reader(config, camera, zones, speed=config.demo.speed)
    return serve(
        config,
        camera,
        zones,
        lambda stopping: demo_frames(config, camera.name, stopping),
        process,
        figures,
    )


def main(argv: list[str] | None = None) -> int:
    tolerate_full_disks()
    parser = argparse.ArgumentParser(prog="feltwatch-demo-camera")
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
