"""What a camera process shows the dashboard: about once a second, the latest frame with the
zones and the detector's boxes drawn over it, and the pipeline's figures (frames read and
skipped, detector passes a second, observations waiting or lost), each file replaced whole, in
the table's cameras folder (``TableFiles.cameras_dir``): ``<camera>.jpg``, ``<camera>.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.overlay import draw_sightings, draw_zones
from vision.zones import ZoneMap

WIDTH_PX = 960
"""The dashboard's view is downscaled: a 1080p JPEG every second is 300 kB for nothing."""


def _replace(path: Path, data: bytes) -> None:
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    os.replace(part, path)


class LiveView:
    def __init__(
        self,
        folder: Path,
        camera: str,
        zones: ZoneMap | None,
        *,
        every_s: float = 1.0,
    ) -> None:
        """``folder``: the table's cameras folder."""
        self.folder = folder
        self.camera = camera
        self.zones = zones
        self.every_s = every_s
        self.error = ""
        self._next = 0.0

    def due(self) -> bool:
        return time.monotonic() >= self._next

    def write(
        self, image: np.ndarray, sightings: Sequence[object], figures: Mapping[str, object]
    ) -> None:
        """The frame and figures (call when ``due``); a disk problem is kept in ``error``."""
        now = time.monotonic()
        self._next = now + self.every_s
        ok, jpeg = False, None
        if image.size:  # empty: the demo's ground truth stands in for the pictures
            view = image.copy()  # the recorder still records the frame as it was
            if self.zones is not None:
                draw_zones(view, self.zones)
            draw_sightings(view, sightings)
            h, w = view.shape[:2]
            if w > WIDTH_PX:
                view = cv2.resize(
                    view, (WIDTH_PX, round(h * WIDTH_PX / w)), interpolation=cv2.INTER_AREA
                )
            ok, jpeg = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, 75])
        row = {"camera": self.camera, "wall": time.time(), **figures}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if ok and jpeg is not None:
                _replace(self.folder / f"{self.camera}.jpg", jpeg.tobytes())
            _replace(self.folder / f"{self.camera}.json", json.dumps(row).encode())
            self.error = ""
        except OSError as exc:
            self.error = f"{self.folder}: {exc.strerror or exc}"
            with contextlib.suppress(OSError):
                (self.folder / f"{self.camera}.jpg.part").unlink()
