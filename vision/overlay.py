"""Drawings over a camera frame: the table's zones (for the calibration preview and the key
frames of an alert's evidence) and a caption."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import cv2
import numpy as np

from vision.zones import ZoneMap

ZONE_BGR = (255, 255, 0)
HIGHLIGHT_BGR = (0, 0, 255)


def zone_polygons_px(zone_map: ZoneMap) -> dict[str, np.ndarray]:
    """Each zone's polygon in the camera's pixels."""
    back = np.linalg.inv(zone_map.calibration.matrix())
    return {
        name: cv2.perspectiveTransform(np.array([polygon], np.float32), back)[0].astype(np.int32)
        for name, polygon in zone_map.zones.items()
    }


def draw_zones(image: np.ndarray, zone_map: ZoneMap, highlight: Collection[str] = ()) -> None:
    """Outline every zone with its name; the ``highlight`` ones thick and red."""
    for name, pts in zone_polygons_px(zone_map).items():
        hot = name in highlight
        colour = HIGHLIGHT_BGR if hot else ZONE_BGR
        cv2.polylines(image, [pts], True, colour, 4 if hot else 1, cv2.LINE_AA)
        x, y = (int(v) for v in pts[0])
        cv2.putText(
            image, name, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA
        )


def draw_caption(image: np.ndarray, lines: Sequence[str]) -> None:
    """Lines of text on a dark band across the top of the frame."""
    height = 14 + 26 * len(lines)
    band = image[:height]
    band[:] = (band * 0.35).astype(image.dtype)
    for i, line in enumerate(lines):
        cv2.putText(
            image,
            line[:160],
            (10, 28 + 26 * i),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.7,
            (255, 255, 255),
            2,
            cv2.LINE_AA,
        )


SIGHTING_BGR = {
    "card": (0, 255, 0),
    "card_back": (255, 128, 0),
    "chip": (0, 215, 255),
    "hand": (200, 200, 200),
}


def draw_sightings(image: np.ndarray, sightings: Sequence[object]) -> None:
    """Boxes of what the detector sees (``vision.recognise.Sighting``), with their labels."""
    for s in sightings:
        kind = str(getattr(s, "kind", ""))
        x1, y1, x2, y2 = (int(v) for v in getattr(s, "box", (0, 0, 0, 0)))
        colour = SIGHTING_BGR.get(kind, (255, 255, 255))
        cv2.rectangle(image, (x1, y1), (x2, y2), colour, 2, cv2.LINE_AA)
        label = getattr(s, "card", None) or (
            f"chip {getattr(s, 'denomination', '') or ''}".strip() if kind == "chip" else kind
        )
        cv2.putText(
            image,
            str(label),
            (x1, max(12, y1 - 4)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5,
            colour,
            1,
            cv2.LINE_AA,
        )
