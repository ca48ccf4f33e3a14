"""The classifier's training sampler: the table around a real card says nothing of its suit."""

from __future__ import annotations

import numpy as np

from models.identity_data import LABELS
from models.train_identity import background_balance
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
