"""Tiles: the detector reads a large frame as overlapping squares at full resolution (a card is
about 50 pixels wide in a 1080p view of a whole table; shrunk to one 320-pixel input it would be
8), and the boxes of all tiles are merged back into frame pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Tile:
    x: int
    y: int
    size: int
    """Side in frame pixels (the tile is read at ``size / scale`` pixels of the source)."""

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.x + self.size, self.y + self.size

    def overlaps(self, box: Box) -> bool:
        x1, y1, x2, y2 = box
        return x1 < self.x + self.size and x2 > self.x and y1 < self.y + self.size and y2 > self.y


def iou(a: Box, b: Box) -> float:
    """The intersection over union of two boxes (x1, y1, x2, y2)."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union > 0 else 0.0


def tile_grid(width: int, height: int, size: int, overlap: int) -> list[Tile]:
    """Squares of ``size`` covering ``width`` x ``height`` with at least ``overlap`` pixels
    shared by neighbours (so an object cut by one tile's edge is whole in the next one)."""
    if width <= size and height <= size:
        return [Tile(0, 0, size)]

    def starts(length: int) -> list[int]:
        if length <= size:
            return [0]
        count = math.ceil((length - overlap) / (size - overlap))
        step = (length - size) / (count - 1)
        return [round(i * step) for i in range(count)]

    return [Tile(x, y, size) for y in starts(height) for x in starts(width)]


def touches_edge(box: Box, tile: Tile, width: int, height: int, margin: float = 2.0) -> bool:
    """Whether ``box`` (frame pixels) is cut by an inner edge of ``tile`` (not the frame's)."""
    x1, y1, x2, y2 = box
    return (
        (x1 <= tile.x + margin and tile.x > 0)
        or (y1 <= tile.y + margin and tile.y > 0)
        or (x2 >= tile.x + tile.size - margin and tile.x + tile.size < width)
        or (y2 >= tile.y + tile.size - margin and tile.y + tile.size < height)
    )
