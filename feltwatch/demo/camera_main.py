"""The demo table's camera process: the rendered session on the shared timeline (its start,
monotonic ns, in the file ``FELTWATCH_DEMO_T0_FILE`` names, which ``feltwatch demo`` writes once
every process is ready: this one says so with ``<table>.cameras/<camera>.ready``; a frame the
process is too late for is not drawn, as a real camera's frame would be dropped), read by the
models or, with ``--vision truth``, seen as the renderer drew it.

    python -m feltwatch.demo.camera_main --config demo.yaml --camera overhead
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

from engine.observations import Observation
from feltwatch.appliance.camera_main import (
    Figures,
    Process,
    camera_process,
    models_reader,
    serve,
    zones_of,
)
from feltwatch.appliance.config import CameraSection, Config
from feltwatch.appliance.exits import EXIT_UNUSABLE
from feltwatch.appliance.shot import Shot
from feltwatch.demo.camera import demo_frames, sightings
from vision.recognise import Sighting
from vision.zones import ZoneMap

if TYPE_CHECKING:
    from models.synth.video import Truth

NO_IMAGES_TRUTH = (
    "no picture: the demo reads the renderer's ground truth (--vision truth), so nothing is "
    "drawn, recorded or cut into clips"
)


def truth_reader(config: Config, camera: CameraSection, zones: ZoneMap) -> tuple[Process, Figures]:
    """The observer fed what the renderer drew, on one frame in three (as the worker reads)."""
    from vision.observer import Observer

    observer = Observer(
        camera.name, zones.zone_of, speed=config.demo.speed, chip_places=zones.chip_places
    )
    passes = [0]
    seen: list[Sighting] = []

    def process(shot: Shot) -> list[Observation]:
        passes[0] += 1
        if passes[0] % 3:
            return []
        seen[:] = sightings(cast("tuple[Truth, ...]", shot.truth))
        return observer.update(seen, shot.ts_ns)

    def figures() -> tuple[list[object], dict[str, object]]:
        return list(seen), {"passes": passes[0] // 3, "no_images": NO_IMAGES_TRUTH}

    return process, figures


def run(config: Config, camera: CameraSection, config_path: Path) -> int:
    zones = zones_of(config, camera, config_path)
    if zones is None:
        return EXIT_UNUSABLE
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
    return camera_process("feltwatch-demo-camera", argv, run, demo=True)


if __name__ == "__main__":
    sys.exit(main())
