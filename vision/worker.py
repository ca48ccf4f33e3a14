"""The vision worker of one camera: motion gate -> detector on the tiles that changed ->
names -> tracker -> zones -> observations.

A detection pass runs every ``pass_every`` frames (10 a second at 30 fps): the tracker and the
observer see the whole table. The detector re-reads only the tiles where something moved since
their last reading, and re-uses the other tiles' detections, so a still table costs a motion
check per frame and nothing else. A tile is read once its motion has stopped (what the observer
reports is what comes to rest); while a hand keeps moving over it, only every ``moving_every``
passes (to see the hand). A tile that comes to rest with the pixels of its last reading at rest
(a hand passed over it and left nothing) takes that reading's detections again, unread. The
reading is spread over the frames, at most ``tiles_per_frame`` a frame, the rest waiting for
the next: a pass's frame does not wait for all the tiles of the pass, and a tile read a frame
or two before the pass is still what the pass sees (the motion gate says nothing moved there
since). Reading moving tiles costs 40 % of the worker's time on the demo table, but without
them a card that lands beside a hand still moving in its tile is reported only once the hand
has gone (a burn card after the turn card dealt after it).

On the bench's 6-seat hand (``bench/vision.py``): 553 tiles read instead of 709,
156 come to rest unchanged and kept unread, for the same observations at the same times.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from engine.observations import Observation
from vision.detector import Detection
from vision.motion import MotionGate, changed, differs
from vision.observer import ChipPlaces, Observer
from vision.recognise import Recogniser, Sighting, merge
from vision.tiles import Tile

MOVING = 0.05
"""A sighting whose box changed this much (fraction of its pixels) is not at rest."""


def _clip(
    box: tuple[float, float, float, float], to: tuple[int, int, int, int]
) -> tuple[float, float, float, float]:
    return max(box[0], to[0]), max(box[1], to[1]), min(box[2], to[2]), min(box[3], to[3])


@dataclass(slots=True)
class WorkerStats:
    frames: int = 0
    passes: int = 0
    tiles_read: int = 0
    """Tiles the detector read (a full reading of a 1080p frame is 32)."""
    tiles_kept: int = 0
    """Tiles come to rest as they were at their last reading at rest (not read again)."""
    busy_s: float = 0.0
    """Time spent in ``process``, on the calling thread."""

    def as_json(self) -> dict[str, float]:
        return {
            "frames": self.frames,
            "passes": self.passes,
            "tiles_read": self.tiles_read,
            "tiles_kept": self.tiles_kept,
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
        moving_every: int = 3,
        still_frames: int = 2,
        tiles_per_frame: int = 3,
        motion: MotionGate | None = None,
        speed: float = 1.0,
        chip_places: ChipPlaces | None = None,
    ) -> None:
        self.camera = camera
        self.recogniser = recogniser
        self.observer = Observer(
            camera, zone_of, settle_passes=settle_passes, speed=speed, chip_places=chip_places
        )
        self.pass_every = pass_every
        self.moving_every = moving_every
        self.still_frames = still_frames
        self.tiles_per_frame = tiles_per_frame
        self.motion = motion or MotionGate()
        self.stats = WorkerStats()
        self._tiles: list[Tile] = []
        self._size: tuple[int, int] | None = None
        self._dirty: set[int] = set()
        self._moved_at: dict[int, int] = {}
        """Tile -> the last frame with motion over it."""
        self._read_at: dict[int, int] = {}
        """Tile -> the last pass that read it."""
        self._unread: dict[int, list[tuple[float, float, float, float]]] = {}
        """Tile -> where something moved in it since the detector last read it."""
        self._masks: list[np.ndarray] = []
        """The motion masks of the last ``still_frames`` frames."""
        self._cached: dict[int, list[Detection]] = {}
        self._rest: dict[int, tuple[np.ndarray, list[Detection]]] = {}
        """Tile -> its pixels and its detections at its last reading at rest (a copy of every
        tile: 10 MB for a 1080p camera)."""
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
            self._rest.clear()
        self.stats.frames += 1
        regions = self.motion(image)
        if self.motion.mask is not None:
            self._masks = [*self._masks[-(self.still_frames - 1) :], self.motion.mask]
        for region in regions:
            for i, tile in enumerate(self._tiles):
                if tile.overlaps(region):
                    self._dirty.add(i)
                    self._moved_at[i] = self.stats.frames
                    self._unread.setdefault(i, []).append(region)
        self._read(image)
        out: list[Observation] = []
        if (self.stats.frames - 1) % self.pass_every == 0:
            out = self._pass(image, ts_ns)
        self.stats.busy_s += time.perf_counter() - started
        return out

    def _due(self) -> list[int]:
        """The dirty tiles to read, in order: those that came to rest (longest still first),
        then those still moving that were not read for ``moving_every`` passes."""
        frame, passes = self.stats.frames, self.stats.passes
        still, moving = [], []
        for index in self._dirty:
            moved = self._moved_at.get(index, 0)
            if frame - moved >= self.still_frames:
                still.append((moved, index))
            elif passes - self._read_at.get(index, -self.moving_every) >= self.moving_every:
                moving.append((self._read_at.get(index, -1), index))
        due = [i for _, i in sorted(still)] + [i for _, i in sorted(moving)]
        return due

    def _read(self, image: np.ndarray) -> None:
        """Read this frame's share of the due tiles (the reading is spread over the frames
        between passes, so that no frame waits for a whole pass's worth of tiles). A tile kept
        unread takes its turn as if read: the tiles are read when they would be without it."""
        due = self._due()[: self.tiles_per_frame]
        for index in due:
            if self.stats.frames - self._moved_at.get(index, 0) >= self.still_frames:
                self.stats.tiles_read += self._read_at_rest(image, index)
                self._dirty.discard(index)  # read at rest: clean until something moves again
            else:
                self._cached[index] = self.recogniser.detect_tiles(image, [self._tiles[index]])
                self.stats.tiles_read += 1
            self._read_at[index] = self.stats.passes
            self._unread.pop(index, None)

    def _read_at_rest(self, image: np.ndarray, index: int) -> int:
        """Read a tile come to rest (1), or (0) take the detections of its last reading at rest
        again when its pixels are those of that reading (a hand passed and left nothing)."""
        x1, y1, x2, y2 = self._tiles[index].box
        pixels = image[y1:y2, x1:x2]
        rest = self._rest.get(index)
        if rest is not None and not differs(rest[0], pixels, self.motion.threshold):
            self._cached[index] = rest[1]
            self.stats.tiles_kept += 1
            return 0
        self._cached[index] = self.recogniser.detect_tiles(image, [self._tiles[index]])
        self._rest[index] = (pixels.copy(), self._cached[index])
        return 1

    def _pass(self, image: np.ndarray, ts_ns: int) -> list[Observation]:
        self.stats.passes += 1
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
        for sighting in self.recogniser.name(image, fresh, detections):
            named[(sighting.kind, tuple(round(v, 1) for v in sighting.box))] = sighting
        self._named = named
        self.sightings = [
            replace(s, moving=True) if self._moving(s.box) else s for s in named.values()
        ]
        # Where something moved that the detector has not read since (in each tile).
        unread = dict.fromkeys(
            _clip(r, self._tiles[i].box) for i, regions in self._unread.items() for r in regions
        )
        return self.observer.update(self.sightings, ts_ns, unread=[*unread])

    def _moving(self, box: tuple[float, float, float, float]) -> bool:
        """Whether the pixels of ``box`` changed in the last frames (the object, or a hand
        over it, is moving: what is seen there now is not at rest)."""
        return any(changed(m, box, self.motion.scale) > MOVING for m in self._masks)
