"""The card designs the renderer draws: every deck's 52 faces, the real decks from their files
(the SVG deck's indices set in a font this machine has), one deck never shown in training, the
wear each pasted card gets, and what a real room adds to a view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.cards import DECK
from models.synth.cards import H, W
from models.synth.designs import ALL, HELD_OUT, REAL, TRAINING, CardDesign, design
from models.synth.room import LIGHT_CHIPS
from models.synth.scene import CHIP, render
from models.synth.wear import weathered


@pytest.mark.parametrize("deck", ALL, ids=lambda d: d.name)
def test_every_design_draws_52_distinct_faces_and_a_back(deck: CardDesign) -> None:
    deck = deck.for_scene(random.Random(0))
    faces = [deck.face(card) for card in DECK]
    assert {f.bgr.tobytes() for f in faces}.__len__() == 52
    for sprite in (*faces, deck.back(0)):
        assert sprite.bgr.shape == (H, W, 3) and sprite.bgr.dtype == np.float32
        if sprite.alpha is not None:
            assert sprite.alpha.shape == (H, W)
            assert sprite.alpha[H // 2, W // 2] == 1.0  # opaque inside
            assert sprite.alpha[0, 0] < 0.5  # the rounded corner shows the table


@pytest.mark.parametrize("deck", REAL, ids=lambda d: d.name)
def test_a_real_decks_corner_index_is_printed(deck: CardDesign) -> None:
    """The index (rank over suit) in the top left corner has ink on every face: a font the
    rasteriser lacks would leave the jumbo deck's ranks blank, and every card of a rank alike."""
    for card in DECK:
        corner = deck.face(card).bgr[4 : H // 4, 4 : W // 5]
        assert (corner.min(axis=2) < 120).mean() > 0.05, card
    tens, nines = deck.face("Tc").bgr, deck.face("9c").bgr
    assert np.abs(tens[: H // 8, : W // 5] - nines[: H // 8, : W // 5]).max() > 100


def test_the_held_out_design_is_never_in_a_training_frame() -> None:
    assert design(HELD_OUT) not in TRAINING and len(TRAINING) == len(ALL) - 1
    assert any(d in REAL for d in TRAINING)
    with pytest.raises(KeyError, match="no card design"):
        design("nosuch")


def test_weathering_is_reproducible_keeps_the_shape_and_leaves_the_card_as_printed() -> None:
    card = REAL[0].face("Qh")
    before = card.bgr.copy()
    a, b = weathered(card, random.Random(3)), weathered(card, random.Random(3))
    assert np.array_equal(a.bgr, b.bgr) and a.alpha is card.alpha
    assert np.array_equal(card.bgr, before)
    assert 0.5 < np.abs(a.bgr - before).mean() < 40 and a.bgr.min() >= 0 and a.bgr.max() <= 255


def test_a_scene_in_a_real_design_labels_its_cards() -> None:
    scene = render(random.Random(8), 960, 540, card_px=90, cards_up=5, cards_down=2,
                   chip_piles=1, designs=REAL)  # fmt: skip
    names = [label.name for label in scene.labels if label.cls == 0]
    assert len(names) >= 4 and set(names) <= set(DECK)


def test_a_room_adds_unlabelled_floor_racks_and_shadows_and_labels_its_light_chips() -> None:
    plain = render(random.Random(8), 320, 320, card_px=60)
    assert np.array_equal(plain.image, render(random.Random(8), 320, 320, card_px=60,
                                              room=False).image)  # fmt: skip
    names: set[str] = set()
    for seed in range(40):
        scene = render(random.Random(seed), 320, 320, card_px=50, room=True)
        again = render(random.Random(seed), 320, 320, card_px=50, room=True)
        assert np.array_equal(scene.image, again.image)
        assert scene.image.shape == (320, 320, 3) and scene.image.dtype == np.uint8
        names |= {label.name for label in scene.labels if label.cls == CHIP}
    assert names & set(LIGHT_CHIPS) and names - set(LIGHT_CHIPS)
