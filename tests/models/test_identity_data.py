"""The classifier's crops from rendered hands on the demo's table (``--videos``), from views of
few objects (``--sparse-scenes``) and from views of cards lying one over another
(``--pair-scenes``), cut at true boxes jittered or at a detector's boxes (``--detector``); each
part kept under what made it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from models.identity_data import (
    LABELS,
    _detected_crops,
    _recogniser,
    kept,
    pairs,
    sparse,
    table_videos,
)
from models.synth.scene import CARD, INDEX_READABLE, render
from vision import recognise
from vision.identity import CROP_PX, MASK_OTHER, MASK_OWN, MASK_SHARED, card_crop
from vision.paths import DETECTOR_MODEL


def test_table_video_crops_are_the_face_up_cards_named_and_the_same_every_run() -> None:
    crops, labels = table_videos(2, seed=0, jobs=1)
    assert crops.shape == (len(labels), CROP_PX, CROP_PX, 4) and crops.dtype == np.uint8
    cards = labels < len(LABELS) - 1
    assert cards.sum() >= 10 and (~cards).sum() >= 1
    # A face-up card is a white face on the felt: its crop's centre is bright; the ``none``
    # crops (backs, chips) are not.
    middle = slice(CROP_PX // 3, 2 * CROP_PX // 3)
    bright = crops[:, middle, middle, :3].mean(axis=(1, 2, 3))
    assert np.median(bright[cards]) > 150 > np.median(bright[~cards])
    again, again_labels = table_videos(2, seed=0, jobs=1)
    assert np.array_equal(again, crops) and np.array_equal(again_labels, labels)


def test_sparse_view_crops_are_readable_cards_and_the_same_every_run() -> None:
    crops, labels = sparse(4, seed=0, jobs=1)
    assert crops.shape == (len(labels), CROP_PX, CROP_PX, 4) and crops.dtype == np.uint8
    cards = labels < len(LABELS) - 1
    assert cards.sum() >= 8  # 2 to 6 cards a view, nearly all of them whole
    middle = slice(CROP_PX // 3, 2 * CROP_PX // 3)
    assert np.median(crops[cards][:, middle, middle, :3].mean(axis=(1, 2, 3))) > 150
    again, again_labels = sparse(4, seed=0, jobs=1)
    assert np.array_equal(again, crops) and np.array_equal(again_labels, labels)


def test_a_third_of_the_sparse_views_are_on_a_light_surface() -> None:
    # The real photos put clubs mostly on dark cloth and spades on light; the rendered views
    # show both suits on both.
    crops, labels = sparse(30, seed=0, jobs=1)
    cards = crops[labels < len(LABELS) - 1]
    corners = np.concatenate([cards[:, :3, :3, :3], cards[:, -3:, -3:, :3]], axis=1)
    corners = corners.mean(axis=(1, 2, 3))
    light = (corners > 170).mean()
    assert 0.08 < light < 0.6  # (with none on a light surface: 0.02, the rail or a neighbour)


def test_each_crop_carries_its_mask_its_card_in_the_middle_its_neighbours_where_they_lie() -> None:
    # On the table a player's two cards lie one over the other: the crop of each holds the other,
    # and the mask says which part is whose.
    crops, labels = table_videos(2, seed=0, jobs=1)
    masks = crops[..., 3]
    centre = masks[:, CROP_PX // 2, CROP_PX // 2]
    assert set(np.unique(masks)) <= {0, MASK_OTHER, MASK_SHARED, MASK_OWN}
    assert np.isin(centre, (MASK_OWN, MASK_SHARED)).all()  # the crop is centred on its box
    assert (masks[:, 0, 0] != MASK_OWN).all()  # with a margin around it
    cards = labels < len(LABELS) - 1
    overlapped = (masks[cards] == MASK_SHARED).any(axis=(1, 2))
    assert 0 < overlapped.sum() < cards.sum()  # hole cards overlap, board cards not


def test_most_pair_view_cards_lie_under_or_over_another_and_the_same_every_run() -> None:
    crops, labels = pairs(6, seed=0, jobs=1)
    assert crops.shape == (len(labels), CROP_PX, CROP_PX, 4) and crops.dtype == np.uint8
    cards = labels < len(LABELS) - 1
    assert cards.sum() >= 12
    masks = crops[cards][..., 3]
    box = np.isin(masks, (MASK_OWN, MASK_SHARED)).sum(axis=(1, 2))
    shared = (masks == MASK_SHARED).sum(axis=(1, 2)) / box
    assert (shared > 0.5).mean() >= 0.5  # another card's box over half of the card's own
    again, again_labels = pairs(6, seed=0, jobs=1)
    assert np.array_equal(again, crops) and np.array_equal(again_labels, labels)


def test_with_a_detector_each_card_is_cut_at_the_box_the_worker_finds_for_it() -> None:
    scene = render(
        random.Random(3),
        960,
        720,
        card_px=60,
        cards_up=6,
        cards_down=2,
        chip_piles=1,
        hands=0,
        pair_share=0.7,
    )
    recogniser = _recogniser(DETECTOR_MODEL)
    found = recogniser.detect_frame(scene.image)
    boxes = [d.box for d in found if d.label == recognise.CARD]
    readable = [
        lb.name for lb in scene.labels if lb.cls == CARD and lb.index_shown >= INDEX_READABLE
    ]
    made = _detected_crops(scene.image, scene.labels, recogniser, random.Random(0))
    cards = [(crop, LABELS[k]) for crop, k in made if LABELS[k] in readable]
    assert len(cards) >= 0.8 * len(readable) >= 4
    at_boxes = [card_crop(scene.image, box) for box in boxes]
    for crop, _ in cards:
        assert any(np.array_equal(crop[..., :3], cut) for cut in at_boxes)
    assert all(LABELS[k] in (*readable, LABELS[-1]) for _, k in made)  # the rest are ``none``


def test_a_part_made_once_is_read_back_under_its_key_and_made_again_under_another(
    tmp_path: Path,
) -> None:
    made: list[int] = []

    def make(n: int) -> tuple[np.ndarray, np.ndarray]:
        made.append(n)
        return np.full((n, 2, 2, 4), n, np.uint8), np.arange(n, dtype=np.int16)

    first = kept(tmp_path, "train-scenes", "3 0", lambda: make(3))
    again = kept(tmp_path, "train-scenes", "3 0", lambda: make(3))
    assert made == [3]
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])
    other = kept(tmp_path, "train-scenes", "5 0", lambda: make(5))
    assert made == [3, 5] and len(other[1]) == 5
    assert sorted(p.name for p in (tmp_path / "parts").iterdir()) == ["train-scenes.npz"]
