"""A table's printed layout: drawn on the cloth, never labelled, the same for a seed, and the
held-out box shapes apart from the training ones."""

from __future__ import annotations

import random

import numpy as np
import pytest

from models.synth.printing import HELD_OUT_PRINTS, TRAINING_PRINTS, PrintStyle, print_layout
from models.synth.scene import render


def _cloth() -> np.ndarray:
    cloth = np.empty((360, 640, 3), np.float32)
    cloth[:] = (40, 110, 30)
    return cloth


@pytest.mark.parametrize("style", TRAINING_PRINTS + HELD_OUT_PRINTS, ids=lambda s: s.name)
def test_every_style_prints_its_boxes_on_the_cloth(style: PrintStyle) -> None:
    for seed in range(5):
        cloth = _cloth()
        boxes = print_layout(cloth, random.Random(seed), 60.0, (style,))
        again = _cloth()
        assert print_layout(again, random.Random(seed), 60.0, (style,)) == boxes >= 1
        assert np.array_equal(cloth, again)
        changed = np.any(cloth != _cloth(), axis=2)
        assert 0.002 < changed.mean() < 0.6
        assert cloth.min() >= 0 and cloth.max() <= 255


def test_the_held_out_shapes_are_not_the_training_ones() -> None:
    training = {
        (s.corner_share, s.dashed, s.double, s.filled, s.corners_only) for s in TRAINING_PRINTS
    }
    for style in HELD_OUT_PRINTS:
        assert (style.corner_share, style.dashed, style.double, style.filled,
                style.corners_only) not in training  # fmt: skip


def test_a_printed_layout_is_cloth_not_an_object() -> None:
    for seed in range(6):
        empty = render(random.Random(seed), 480, 270, card_px=50, cards_up=0, cards_down=0,
                       chip_piles=0, hands=0, room=True, printed=True)  # fmt: skip
        assert empty.printed_boxes >= 1 and empty.labels == []
        bare = render(random.Random(seed), 480, 270, card_px=50, cards_up=0, cards_down=0,
                      chip_piles=0, hands=0, room=True, printed=False)  # fmt: skip
        assert bare.printed_boxes == 0 and not np.array_equal(bare.image, empty.image)
