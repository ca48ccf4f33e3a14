"""The classifier's training: the sampler (the table around a real card says nothing of its suit)
and the head that reads each place of the feature map apart."""

from __future__ import annotations

import numpy as np
import pytest

from models.identity_data import LABELS
from models.train_identity import CELLS, FEATURES, background_balance, widen_head
from vision.identity import CROP_PX


def _crops(borders: list[int]) -> np.ndarray:
    """White card faces (the crop's middle) on tables of the given grey levels."""
    crops = np.empty((len(borders), CROP_PX, CROP_PX, 3), np.uint8)
    for crop, grey in zip(crops, borders, strict=True):
        crop[:] = grey
        crop[8:-8, 12:-12] = 235
    return crops


def test_clubs_on_dark_cloth_and_spades_on_light_are_sampled_alike() -> None:
    # As in the real photos: clubs mostly on dark cloth, spades mostly on light (3 to 1 here).
    clubs = [40] * 60 + [200] * 20
    spades = [40] * 20 + [200] * 60
    nones = [40] * 30 + [200] * 30
    crops = _crops(clubs + spades + nones)
    labels = np.array(
        [LABELS.index("2c")] * 80 + [LABELS.index("2s")] * 80 + [len(LABELS) - 1] * 60
    )
    p = background_balance(crops, labels)
    assert p.shape == (220,) and np.isclose(p.sum(), 1.0) and (p > 0).all()
    dark = crops[:, 0, 0, 0] == 40
    for card in ("2c", "2s"):
        mine = labels == LABELS.index(card)
        share_dark = p[mine & dark].sum() / p[mine].sum()
        assert np.isclose(share_dark, 0.5)  # the overall mix: 110 dark of 220
        assert np.isclose(p[mine].sum(), 80 / 220)  # each suit keeps its share
    # (Unweighted, a club is three times as likely to lie on dark cloth as a spade.)
    assert np.isclose(p[labels == len(LABELS) - 1].sum(), 60 / 220)  # so do the ``none`` crops


def test_a_head_that_read_the_mean_of_the_places_reads_the_same_from_each_place() -> None:
    # The classifiers before 2026-12-02 read the mean of the 5 x 5 places of the feature map;
    # the one that reads them apart goes on from them with the same outputs.
    rng = np.random.default_rng(0)
    features = rng.normal(size=(6, FEATURES, 5, 5))
    pooled = rng.normal(size=(18, FEATURES))
    assert CELLS == 25
    widened = widen_head(pooled)
    assert widened.shape == (18, FEATURES * CELLS)
    before = features.mean(axis=(2, 3)) @ pooled.T
    assert np.allclose(features.reshape(6, -1) @ widened.T, before)
    assert widen_head(widened) is widened
    with pytest.raises(ValueError, match="100 inputs"):
        widen_head(np.zeros((18, 100)))
