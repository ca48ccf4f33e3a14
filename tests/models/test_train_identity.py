"""The classifier's training: the sampler (the table around a real card says nothing of its suit)
and the head that reads each place of the feature map apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.identity_data import LABELS
from models.train_identity import (
    CELLS,
    CHANNELS,
    FEATURES,
    background_balance,
    load,
    spread_head,
    with_mask_channel,
)
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
    # A classifier that read the mean of the places of the feature map goes on, reading them
    # apart, with the same outputs.
    rng = np.random.default_rng(0)
    side = CROP_PX // 16
    features = rng.normal(size=(6, FEATURES, side, side))
    pooled = rng.normal(size=(18, FEATURES))
    assert CELLS == side * side == 49
    spread = spread_head(pooled)
    assert spread.shape == (18, FEATURES * CELLS)
    before = features.mean(axis=(2, 3)) @ pooled.T
    assert np.allclose(features.reshape(6, -1) @ spread.T, before)
    assert spread_head(spread) is spread
    with pytest.raises(ValueError, match="100 inputs"):
        spread_head(np.zeros((18, 100)))


def test_a_head_of_the_80_pixel_crops_is_resized_to_the_larger_map() -> None:
    # The 5 x 5 head of the 80-pixel classifier on the 7 x 7 map of 112-pixel crops: the same
    # outputs where the map is the same at every place, and where a feature lies (at the map's
    # top left corner, say) the weights that read it stay there.
    rng = np.random.default_rng(1)
    old = rng.normal(size=(18, FEATURES, 5, 5))
    old[:, :, 0, 0] += 10
    spread = spread_head(old.reshape(18, -1)).reshape(18, FEATURES, 7, 7)
    flat = rng.normal(size=(6, FEATURES))
    assert np.allclose(
        flat @ spread.sum(axis=(2, 3)).T, flat @ old.sum(axis=(2, 3)).T, rtol=1e-4, atol=1e-3
    )
    corner = spread[:, :, :2, :2].mean()
    assert corner > spread[:, :, 2:, :].mean() + 5 and corner > spread[:, :, :, 2:].mean() + 5
    with pytest.raises(ValueError, match=f"{FEATURES * 3} inputs"):
        spread_head(np.zeros((18, FEATURES * 3)))


def test_a_classifier_that_read_colours_only_goes_on_reading_them_whatever_the_mask() -> None:
    # A classifier that read RGB goes on with the mask channel's weights at zero, so the first
    # convolution gives the same outputs for any mask.
    rng = np.random.default_rng(2)
    weight = rng.normal(size=(24, 3, 3, 3)).astype(np.float32)
    wider = with_mask_channel(weight)
    assert CHANNELS == 4 and wider.shape == (24, 4, 3, 3) and wider.dtype == weight.dtype
    patch = rng.normal(size=(4, 3, 3))
    other = patch.copy()
    other[3] = rng.normal(size=(3, 3)) * 100  # another mask
    out = np.einsum("oikl,ikl->o", wider, patch)
    assert np.allclose(out, np.einsum("oikl,ikl->o", weight, patch[:3]))
    assert np.allclose(out, np.einsum("oikl,ikl->o", wider, other))
    assert with_mask_channel(wider) is wider
    with pytest.raises(ValueError, match="5 channels"):
        with_mask_channel(np.zeros((24, 5, 3, 3)))


def test_several_data_folders_train_together(tmp_path: Path) -> None:
    for name, count, is_real in (("a", 3, True), ("b", 2, False)):
        (tmp_path / name).mkdir()
        np.savez(
            tmp_path / name / "train.npz",
            crops=np.full((count, CROP_PX, CROP_PX, CHANNELS), count, np.uint8),
            labels=np.arange(count, dtype=np.int16),
            real=np.full(count, is_real),
        )
    crops, labels, real = load([tmp_path / "a", tmp_path / "b"], "train")
    assert crops.shape == (5, CROP_PX, CROP_PX, CHANNELS)
    assert crops[:, 0, 0, 0].tolist() == [3, 3, 3, 2, 2]
    assert labels.tolist() == [0, 1, 2, 0, 1] and labels.dtype == np.int64
    assert real.tolist() == [True] * 3 + [False] * 2
    alone = load([tmp_path / "b"], "train")
    assert np.array_equal(alone[0], crops[3:]) and alone[1].tolist() == [0, 1]
