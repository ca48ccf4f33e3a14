"""Table calibration and zones: from camera pixels to table coordinates to a named zone.

The installer marks the four corners of the table's playing surface in the camera image
(``feltwatch calibrate``, a later step); a homography maps camera pixels to table coordinates in
millimetres, where the zones (each seat, the board, the pot, the muck, the shoe, the tray, the
burn pile) are polygons from the configuration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

Point = tuple[float, float]

CHIP_MM = 39.0
"""A casino chip's diameter (the common size; a zone configuration may name its own)."""
CHIP_GAP = 1.05
"""Chips lying side by side take this many diameters each (a dealer leaves a little room)."""


class ZoneError(ValueError):
    """A calibration or zone definition that cannot be used (with the reason)."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """Camera pixels -> table millimetres, from the four marked corners of the surface."""

    corners_px: tuple[Point, Point, Point, Point]
    """Top-left, top-right, bottom-right, bottom-left of the surface in the camera image."""
    width_mm: float
    height_mm: float

    def matrix(self) -> np.ndarray:
        src = np.array(self.corners_px, np.float32)
        w, h = self.width_mm, self.height_mm
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        area = cv2.contourArea(src)
        if area < 100:
            raise ZoneError(f"the four corners enclose {area:.0f} px²: mark the table corners")
        return cv2.getPerspectiveTransform(src, dst)

    def to_table(self, points_px: Sequence[Point]) -> list[Point]:
        return _mapped(points_px, self.matrix())


def _mapped(points: Sequence[Point], matrix: np.ndarray) -> list[Point]:
    """``points`` through the homography ``matrix``."""
    mapped = cv2.perspectiveTransform(np.array(points, np.float32).reshape(-1, 1, 2), matrix)
    return [(float(x), float(y)) for x, y in mapped.reshape(-1, 2)]


@dataclass(frozen=True, slots=True)
class ZoneMap:
    calibration: Calibration
    zones: Mapping[str, tuple[Point, ...]]
    """Zone name -> polygon in table millimetres."""
    chip_mm: float = CHIP_MM
    _matrix: np.ndarray = field(init=False, repr=False, compare=False)
    _contours: tuple[tuple[str, np.ndarray], ...] = field(init=False, repr=False, compare=False)
    _memo: dict[Point, str | None] = field(init=False, repr=False, compare=False)
    """Camera pixel -> zone, for the points asked before (a still object is asked about at
    every pass)."""

    MEMO_POINTS = 100_000
    """The memo is emptied when it holds this many points."""

    def __post_init__(self) -> None:
        contours = tuple(
            (name, np.array(polygon, np.float32).reshape(-1, 1, 2))
            for name, polygon in self.zones.items()
        )
        object.__setattr__(self, "_matrix", self.calibration.matrix())
        object.__setattr__(self, "_contours", contours)
        object.__setattr__(self, "_memo", {})

    @classmethod
    def from_config(cls, config: Mapping[str, object]) -> ZoneMap:
        """``{"corners_px": [[x, y] x4], "width_mm", "height_mm", "zones": {name: [[x, y]...]},
        "chip_mm": 39}`` (``chip_mm``, the chips' diameter, may be left out)."""
        corners = _points(_field(config, "corners_px"), "corners_px")
        if len(corners) != 4:
            raise ZoneError(f"corners_px: expected 4 points, got {len(corners)}")
        calibration = Calibration(
            (corners[0], corners[1], corners[2], corners[3]),
            _number(_field(config, "width_mm"), "width_mm"),
            _number(_field(config, "height_mm"), "height_mm"),
        )
        polygons = _field(config, "zones")
        if not isinstance(polygons, Mapping):
            raise ZoneError(
                f"zone configuration: zones: expected a map of polygons, got {polygons!r}"
            )
        zones = {str(name): _points(polygon, f"zones.{name}") for name, polygon in polygons.items()}
        for name, polygon in zones.items():
            if len(polygon) < 3:
                raise ZoneError(f"zones.{name}: a zone needs at least 3 points")
        chip_mm = _number(config.get("chip_mm", CHIP_MM), "chip_mm")
        if not chip_mm > 0:
            raise ZoneError(f"chip_mm: a chip's diameter must be positive, got {chip_mm}")
        return cls(calibration, zones, chip_mm)

    def chip_places(self, zone: str) -> int | None:
        """How many chips lie side by side in ``zone``, in rows across its narrowest
        rectangle: the most a camera above can count there (chips beyond lie on others,
        hidden). None for a zone the map does not have."""
        polygon = self.zones.get(zone)
        if polygon is None:
            return None
        (_, _), (w, h), _ = cv2.minAreaRect(np.array(polygon, np.float32))
        pitch = self.chip_mm * CHIP_GAP
        return int(w // pitch) * int(h // pitch)

    def zone_of(self, point_px: Point) -> str | None:
        """The zone a camera pixel falls in (the first listed, if zones overlap), or None."""
        if point_px in self._memo:
            return self._memo[point_px]
        if len(self._memo) >= self.MEMO_POINTS:
            self._memo.clear()
        ((x, y),) = _mapped([point_px], self._matrix)
        zone = next(
            (
                name
                for name, contour in self._contours
                if cv2.pointPolygonTest(contour, (x, y), False) >= 0
            ),
            None,
        )
        self._memo[point_px] = zone
        return zone


def _field(config: Mapping[str, object], name: str) -> object:
    if name not in config:
        raise ZoneError(f"zone configuration: {name}: missing")
    return config[name]


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ZoneError(f"zone configuration: {where}: expected a number, got {value!r}")
    return float(value)


def _points(value: object, where: str) -> tuple[Point, ...]:
    """``[[x, y], ...]`` -> the points."""
    if not isinstance(value, list | tuple):
        raise ZoneError(f"zone configuration: {where}: expected a list of [x, y], got {value!r}")
    out = []
    for i, point in enumerate(value):
        if not isinstance(point, list | tuple) or len(point) != 2:
            raise ZoneError(f"zone configuration: {where}[{i}]: expected [x, y], got {point!r}")
        out.append((_number(point[0], f"{where}[{i}]"), _number(point[1], f"{where}[{i}]")))
    return tuple(out)
