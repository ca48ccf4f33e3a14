"""Chip colour -> denomination: the body colour of a chip seen from above, matched to the
house's chip set from the configuration (colour name, reference BGR, denomination).

The detector finds chips as one class; the colour is read from the box's original pixels: the
median of the chip's body (edge spots and white inlays left out) in CIE Lab, nearest reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

BGR = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class ChipColour:
    name: str
    bgr: BGR
    denomination: int


DEFAULT_CHIP_SET: tuple[ChipColour, ...] = (
    ChipColour("gray", (150, 150, 150), 1),
    ChipColour("red", (40, 40, 190), 5),
    ChipColour("blue", (170, 80, 30), 10),
    ChipColour("green", (60, 140, 40), 25),
    ChipColour("black", (35, 35, 35), 100),
    ChipColour("purple", (130, 40, 110), 500),
    ChipColour("yellow", (40, 200, 230), 1000),
)
"""A common casino colour scheme (the one of the PokeVisor chip set in ../shared/data)."""


class ChipSetError(ValueError):
    pass


def chip_set_from_config(config: Mapping[str, Mapping[str, object]]) -> tuple[ChipColour, ...]:
    """``{"red": {"bgr": [40, 40, 190], "denomination": 5}, ...}`` -> the chip set."""
    out = []
    for name, entry in config.items():
        if not isinstance(entry, Mapping):  # a configuration file can hold anything
            raise ChipSetError(f"chips.{name}: needs bgr: [b, g, r] and denomination")
        bgr, denomination = entry.get("bgr"), entry.get("denomination")
        numbers = bgr if isinstance(bgr, list | tuple) else ()
        if len(numbers) != 3 or not all(_whole(v) for v in (*numbers, denomination)):
            raise ChipSetError(
                f"chips.{name}: needs bgr: [b, g, r] and denomination, whole numbers "
                f"(got bgr {bgr!r}, denomination {denomination!r})"
            )
        b, g, r = (int(v) for v in numbers)
        assert isinstance(denomination, int | float)
        denomination = int(denomination)
        if denomination <= 0:
            raise ChipSetError(f"chips.{name}.denomination: must be positive, got {denomination}")
        out.append(ChipColour(str(name), (b, g, r), denomination))
    if not out:
        raise ChipSetError("chips: the chip set is empty")
    return tuple(out)


def _whole(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value == int(value)


def calibrated(
    samples: Mapping[str, list[np.ndarray]], denominations: Mapping[str, int]
) -> tuple[ChipColour, ...]:
    """The chip set sampled on the table: for each colour, the median of its chips' body
    colours (``ChipReader.body_colour``) under the table's own light."""
    return tuple(
        ChipColour(name, _bgr(np.median(bodies, axis=0)), denominations.get(name, 1))
        for name, bodies in samples.items()
    )


def _bgr(colour: np.ndarray) -> tuple[int, int, int]:
    b, g, r = (int(v) for v in colour)
    return b, g, r


def _lab(bgr: np.ndarray) -> np.ndarray:
    pixels = np.clip(bgr, 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab: np.ndarray = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return lab


class ChipReader:
    def __init__(self, chip_set: tuple[ChipColour, ...] = DEFAULT_CHIP_SET) -> None:
        self.chip_set = chip_set
        self._refs = _lab(np.array([c.bgr for c in chip_set], np.float32))

    def body_colour(self, crop: np.ndarray) -> np.ndarray:
        """Median BGR of the chip's body in ``crop`` (a box around one chip)."""
        h, w = crop.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w]
        r = min(h, w) / 2
        inside = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) <= (0.85 * r) ** 2
        pixels = crop[inside].reshape(-1, 3)
        hsv = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
        whitish = (hsv[:, 1] < 40) & (hsv[:, 2] > 190)  # edge spots, inlays, glare
        body = pixels[~whitish] if (~whitish).sum() >= 0.2 * len(pixels) else pixels
        colour: np.ndarray = np.median(body.astype(np.float32), axis=0)
        return colour

    def read(self, crop: np.ndarray) -> ChipColour:
        lab = _lab(self.body_colour(crop)[None])[0]
        distance = np.linalg.norm(self._refs - lab, axis=1)
        return self.chip_set[int(distance.argmin())]

    def denominations(self) -> Mapping[str, int]:
        return {c.name: c.denomination for c in self.chip_set}
