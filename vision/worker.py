"""The vision worker of one camera: motion gate -> detector on the tiles that changed ->
names -> tracker -> zones -> observations.

A detection pass runs every ``pass_every`` frames (10 a second at 30 fps). It re-reads only
the tiles where something moved since their last reading, and re-uses the other tiles'
detections, so a still table costs a motion check per frame and nothing else; the tracker and
the observer see the whole table at every pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.observations import Observation
from vision.detector import Detection
from vision.motion import MotionGate
from vision.observer import Observer
from vision.recognise import Recogniser, Sighting, merge
from vision.tiles import Tile


@dataclass(slots=True)
class WorkerStats:
    frames: int = 0
    passes: int = 0
    tiles_read: int = 0
    """Tiles the detector read (a full reading of a 1080p frame is 32)."""
    busy_s: float = 0.0
    """Time spent in ``process``, on the calling thread."""

    def as_json(self) -> dict[str, float]:
        return {
            "frames": self.frames,
            "passes": self.passes,
            "tiles_read": self.tiles_read,
            "busy_s": round(self.busy_s, 3),
        }


class VisionWorker:
    def __init__(
        self,
        camera: str,
        recogniser: Recogniser,
        zone_of: Callable[[tuple[float, float]], str | None],
        *,
        pass_every: int = 3,
        settle_passes: int = 3,
        motion: MotionGate | None = None,
    ) -> None:
        self.camera = camera
        self.recogniser = recogniser
        self.observer = Observer(camera, zone_of, settle_passes=settle_passes)
        self.pass_every = pass_every
        self.motion = motion or MotionGate()
        self.stats = WorkerStats()
        self._tiles: list[Tile] = []
        self._size: tuple[int, int] | None = None
        self._dirty: set[int] = set()
        self._cached: dict[int, list[Detection]] = {}
        self._named: dict[tuple[str, tuple[float, ...]], Sighting] = {}
        self.sightings: list[Sighting] = []
        """What the last pass saw (for overlays)."""

    def process(self, image: np.ndarray, ts_ns: int) -> list[Observation]:
        """One camera frame (BGR) taken at ``ts_ns``; the observations it completes."""
        started = time.perf_counter()
        h, w = image.shape[:2]
        if self._size != (w, h):  # first frame, or the camera changed its resolution
            self._size = (w, h)
            self._tiles = self.recogniser.grid(w, h)
            self._dirty = set(range(len(self._tiles)))
            self._cached.clear()
        for region in self.motion(image):
            self._dirty.update(i for i, t in enumerate(self._tiles) if t.overlaps(region))
        self.stats.frames += 1
        out: list[Observation] = []
        if (self.stats.frames - 1) % self.pass_every == 0:
            out = self._pass(image, ts_ns)
        self.stats.busy_s += time.perf_counter() - started
        return out

    def _pass(self, image: np.ndarray, ts_ns: int) -> list[Observation]:
        self.stats.passes += 1
        dirty, self._dirty = sorted(self._dirty), set()
        for index in dirty:
            self._cached[index] = self.recogniser.detect_tiles(image, [self._tiles[index]])
        self.stats.tiles_read += len(dirty)
        detections = merge([d for tile in self._cached.values() for d in tile])
        # Name only what is new: a box from an unread tile keeps its earlier name.
        named: dict[tuple[str, tuple[float, ...]], Sighting] = {}
        fresh = []
        for d in detections:
            key = (d.label, tuple(round(v, 1) for v in d.box))
            if key in self._named:
                named[key] = self._named[key]
            else:
                fresh.append(d)
        for sighting in self.recogniser.name(image, fresh):
            named[(sighting.kind, tuple(round(v, 1) for v in sighting.box))] = sighting
        self._named = named
        self.sightings = list(named.values())
        return self.observer.update(self.sightings, ts_ns)
