"""Tiles of a frame at full resolution, and boxes cut by a tile's inner edge."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.tiles import Tile, tile_grid, touches_edge


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720), (640, 640), (321, 900)])
def test_tiles_cover_the_frame_with_the_overlap_asked(width: int, height: int) -> None:
    tiles = tile_grid(width, height, 320, 64)
    covered = np.zeros((height, width), bool)
    for tile in tiles:
        assert tile.x >= 0 and tile.y >= 0
        assert tile.x + tile.size <= max(width, 320) and tile.y + tile.size <= max(height, 320)
        covered[tile.y : tile.y + tile.size, tile.x : tile.x + tile.size] = True
    assert covered.all()
    xs = sorted({t.x for t in tiles})
    assert all(b - a <= 320 - 64 for a, b in itertools.pairwise(xs))


def test_a_1080p_frame_is_32_tiles_and_a_small_image_one() -> None:
    assert len(tile_grid(1920, 1080, 320, 64)) == 32
    assert tile_grid(300, 200, 320, 64) == [Tile(0, 0, 320)]


def test_a_box_cut_by_an_inner_edge_is_left_to_the_neighbour_but_not_at_the_frame_edge() -> None:
    tile = Tile(256, 0, 320)
    assert touches_edge((250, 10, 300, 80), tile, 1920, 1080)  # cut by the left edge
    assert touches_edge((500, 10, 576, 80), tile, 1920, 1080)  # cut by the right edge
    assert not touches_edge((300, 0, 360, 60), tile, 1920, 1080)  # the frame's top edge
    assert not touches_edge((300, 100, 360, 160), tile, 1920, 1080)
