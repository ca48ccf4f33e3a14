"""The identity classifier's input: the crop of a card's box and its mask, which says where the
card's own box lies and where other cards' boxes lie over it (the crop of the lower of two
overlapping cards holds the upper one too)."""

from __future__ import annotations

import numpy as np

from vision.identity import (
    CROP_PX,
    MASK_OTHER,
    MASK_OWN,
    MASK_SHARED,
    box_mask,
    card_crop,
    crop_window,
)

SHAPE = (400, 600, 3)
LOWER = (100.0, 100.0, 150.0, 170.0)
UPPER = (120.0, 115.0, 170.0, 185.0)
"""Two cards 50 x 70 pixels, the upper one 20 pixels right and 15 down."""


def _at(box: tuple[float, float, float, float], x: float, y: float) -> tuple[int, int]:
    """The crop pixel (row, column) of image point (x, y) in the crop of ``box``."""
    left, top, side = crop_window(SHAPE, box)
    scale = CROP_PX / side
    return int((y - top) * scale), int((x - left) * scale)


def test_a_card_alone_is_its_box_with_a_margin_of_nothing() -> None:
    mask = box_mask(SHAPE, LOWER, [])
    assert mask.shape == (CROP_PX, CROP_PX) and mask.dtype == np.uint8
    assert mask[_at(LOWER, 125, 135)] == MASK_OWN
    assert mask[_at(LOWER, 101, 101)] == MASK_OWN
    assert mask[0, 0] == mask[-1, -1] == mask[CROP_PX // 2, 0] == 0
    # A card elsewhere on the table changes nothing.
    assert np.array_equal(box_mask(SHAPE, LOWER, [(400.0, 300.0, 450.0, 370.0)]), mask)


def test_the_lower_card_shows_its_corner_the_upper_one_its_body() -> None:
    lower = box_mask(SHAPE, LOWER, [UPPER])
    assert lower[_at(LOWER, 105, 105)] == MASK_OWN  # the lower card's corner index
    assert lower[_at(LOWER, 140, 160)] == MASK_SHARED  # under the upper card
    assert lower[_at(LOWER, 105, 160)] == MASK_OWN  # its left edge, beside the upper card
    upper = box_mask(SHAPE, UPPER, [LOWER])
    assert upper[_at(UPPER, 125, 120)] == MASK_SHARED  # the upper card's corner, over the other
    assert upper[_at(UPPER, 165, 180)] == MASK_OWN  # its far corner
    assert upper[_at(UPPER, 110, 150)] == MASK_OTHER  # the lower card's strip beside it


def test_the_mask_lies_over_the_crop_pixel_for_pixel() -> None:
    # A white card on a black table: the crop's white pixels are the mask's own box.
    image = np.zeros(SHAPE, np.uint8)
    image[100:170, 100:150] = 255
    crop = card_crop(image, LOWER)
    mask = box_mask(SHAPE, LOWER, [])
    white = crop[..., 0] > 127
    assert (white == (mask == MASK_OWN)).mean() > 0.99
    # Near the image's edge the crop repeats the border and the mask still lies over it.
    edge = (0.0, 10.0, 50.0, 80.0)
    image[:] = 0
    image[10:80, 0:50] = 255
    white = card_crop(image, edge)[..., 0] > 127
    inside = box_mask(SHAPE, edge, []) == MASK_OWN
    assert (white[inside]).all()
