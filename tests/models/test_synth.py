"""The synthetic table renderer: reproducible frames with boxes that fit the objects."""

from __future__ import annotations

import random

import numpy as np

from engine.cards import DECK
from models.synth.cards import STYLES, draw_back, draw_card
from models.synth.scene import CLASSES, render, yolo_lines


def test_every_card_of_every_style_is_distinct() -> None:
    for style in STYLES:
        faces = {draw_card(card, style).tobytes() for card in DECK}
        assert len(faces) == 52
    assert draw_back(0).shape == draw_card("As", STYLES[0]).shape


def test_a_scene_is_reproducible_and_its_labels_fit_the_frame() -> None:
    a = render(random.Random(5), 640, 360, card_px=60, cards_up=4, cards_down=2, chip_piles=2)
    b = render(random.Random(5), 640, 360, card_px=60, cards_up=4, cards_down=2, chip_piles=2)
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (360, 640, 3)
    classes = [label.cls for label in a.labels]
    assert classes.count(52) == 2  # two card backs
    cards = [CLASSES[c] for c in classes if c < 52]
    assert len(cards) >= 4 and len(set(cards)) == len(cards)
    assert any(CLASSES[c].startswith("chip_") for c in classes)
    for label in a.labels:
        x1, y1, x2, y2 = label.box
        assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 360
    lines = yolo_lines(a).splitlines()
    assert len(lines) == len(a.labels)
    assert all(len(line.split()) == 5 for line in lines)
