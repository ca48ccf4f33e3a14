"""The classifier's crops from rendered hands on the demo's table (``--videos``)."""

from __future__ import annotations

import numpy as np

from models.identity_data import LABELS, table_videos
from vision.identity import CROP_PX


def test_table_video_crops_are_the_face_up_cards_named_and_the_same_every_run() -> None:
    crops, labels = table_videos(2, seed=0, jobs=1)
    assert crops.shape == (len(labels), CROP_PX, CROP_PX, 3) and crops.dtype == np.uint8
    cards = labels < len(LABELS) - 1
    assert cards.sum() >= 10 and (~cards).sum() >= 1
    # A face-up card is a white face on the felt: its crop's centre is bright; the ``none``
    # crops (backs, chips) are not.
    middle = slice(CROP_PX // 3, 2 * CROP_PX // 3)
    bright = crops[:, middle, middle].mean(axis=(1, 2, 3))
    assert np.median(bright[cards]) > 150 > np.median(bright[~cards])
    again, again_labels = table_videos(2, seed=0, jobs=1)
    assert np.array_equal(again, crops) and np.array_equal(again_labels, labels)
