"""Decks drawn at random: one seed, one deck; every deck prints 52 distinct faces with their
index in the corner; decks differ from each other; the held-out deck's font is never drawn; a
scene in the varied design gets a deck of its own."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.cards import DECK
from models.synth.cards import H, W, draw_card
from models.synth.designs import HELD_OUT, TRAINING, TRAINING_MIX, VARIED
from models.synth.scene import render
from models.synth.varied import varied_back, varied_style

SEEDS = range(40)


def test_one_seed_draws_one_deck_and_seeds_draw_different_decks() -> None:
    assert varied_style(7) == varied_style(7)
    assert np.array_equal(draw_card("Qs", varied_style(7)), draw_card("Qs", varied_style(7)))
    styles = [varied_style(seed) for seed in SEEDS]
    assert len({(s.font, s.ttf, s.index_scale, s.shapes) for s in styles}) == len(styles)
    assert len({varied_back(s.back or 0).tobytes() for s in styles}) == len(styles)
    jumbo = [s for s in styles if s.index_scale > 1.4]
    assert 0 < len(jumbo) < len(styles)  # standard and jumbo indices both drawn
    assert {s.ttf is None for s in styles} == {True, False}  # Hershey and TrueType indices
    assert {s.court_figure is None for s in styles} == {True, False}


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_every_varied_deck_prints_52_distinct_faces_with_their_index_in_the_corner(
    seed: int,
) -> None:
    style = varied_style(seed)
    faces = [draw_card(card, style) for card in DECK]
    assert len({f.tobytes() for f in faces}) == 52
    for card, face in zip(DECK, faces, strict=True):
        assert face.shape == (H, W, 3)
        corner = face[4 : H // 4, 4 : W // 4].min(axis=2)
        assert (corner < 130).mean() > 0.03, (seed, card)  # ink of the rank and suit
    tens, nines = draw_card("Tc", style), draw_card("9c", style)
    assert np.abs(tens[: H // 8, : W // 4].astype(int) - nines[: H // 8, : W // 4]).max() > 100


def test_the_held_out_decks_font_is_never_drawn() -> None:
    """The held-out jumbo-index deck's indices are set in DejaVu Sans: no drawn deck uses it,
    nor any face of its family (DejaVu Sans Mono is a different face)."""
    fonts = {varied_style(seed).ttf for seed in range(400)} - {None}
    assert fonts and all(f is not None and f.is_file() for f in fonts)
    assert not any(f.name.startswith(("DejaVuSans.", "DejaVuSans-", "DejaVuSansCondensed"))
                   for f in fonts if f is not None)  # fmt: skip


def test_a_scene_in_the_varied_design_gets_a_deck_of_its_own() -> None:
    assert VARIED in TRAINING and VARIED in TRAINING_MIX
    assert all(d.name != HELD_OUT for d in TRAINING_MIX)
    with pytest.raises(ValueError, match="for_scene"):
        VARIED.face("As")
    a, b = (
        render(random.Random(seed), 480, 270, card_px=60, cards_up=3, cards_down=1,
               chip_piles=0, hands=0, designs=(VARIED,))
        for seed in (1, 2)
    )  # fmt: skip
    assert a.design == b.design == "varied"
    first = VARIED.for_scene(random.Random(1))
    assert first.style is not None and first.style != VARIED.for_scene(random.Random(2)).style
    assert first.for_scene(random.Random(3)) is first  # a drawn deck stays itself
