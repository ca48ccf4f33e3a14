"""The phone stills of a table from above: a board in a row, players' pairs lying one card over
the other (some face down), light chips beside the house's, the same still for the same seed."""

from __future__ import annotations

import random

import numpy as np

from models.eval import _face_down_groups
from models.synth.designs import HELD_OUT, TRAINING, CardDesign, design
from models.synth.room import LIGHT_CHIPS
from models.synth.scene import BACK, CARD, CHIP, Label, Scene
from models.synth.still import table_still
from vision.tiles import iou


def _small(seed: int, designs: tuple[CardDesign, ...] = TRAINING) -> Scene:
    """A still a quarter of a phone's each way (the layout the same, the test quicker)."""
    return table_still(random.Random(seed), 1500, 1000, designs=designs, card_px_range=(75, 125))


def _overlapping_pairs(labels: list[Label]) -> int:
    sheets = [lb.box for lb in labels if lb.cls in (CARD, BACK)]
    return sum(iou(a, b) > 0.05 for i, a in enumerate(sheets) for b in sheets[i + 1 :])


def test_a_still_holds_a_board_pairs_one_over_another_and_chips() -> None:
    faces = backs = pairs = light = 0
    for seed in range(4):
        scene = _small(seed)
        labels = scene.labels
        assert scene.image.shape == (1000, 1500, 3) and scene.image.dtype == np.uint8
        named = [lb.name for lb in labels if lb.cls == CARD]
        assert len(named) == len(set(named)) >= 3  # the board at least, no card twice
        faces += len(named)
        backs += sum(lb.cls == BACK for lb in labels)
        pairs += _overlapping_pairs(labels)
        light += sum(lb.cls == CHIP and lb.name in LIGHT_CHIPS for lb in labels)
    assert backs > 0 and light > 0
    assert pairs >= 4  # a pair is two cards lying one over the other


def test_the_same_seed_makes_the_same_still_in_the_deck_asked_for() -> None:
    jumbo = (design(HELD_OUT),)
    a, b = _small(7, jumbo), _small(7, jumbo)
    assert np.array_equal(a.image, b.image)
    assert [lb.name for lb in a.labels] == [lb.name for lb in b.labels]


def test_backs_that_touch_are_one_face_down_pair() -> None:
    labels = [
        Label(BACK, (0, 0, 50, 70), "card_back"),
        Label(CARD, (200, 0, 250, 70), "Ah"),
        Label(BACK, (300, 0, 350, 70), "card_back"),
        Label(BACK, (20, 2, 70, 72), "card_back"),
    ]
    groups = _face_down_groups(labels)
    assert sorted(len(g) for g in groups) == [1, 2]
