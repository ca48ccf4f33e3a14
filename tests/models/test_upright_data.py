"""The upright networks' training data: rendered views give each face-up card's outline in its
classifier crop and its upright view; a crop turned by a quarter turn has its outline turned
with it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.cards import DECK
from models.identity_data import _recogniser
from models.synth.designs import TRAINING
from models.synth.scene import CARD, render
from models.train_upright import BATCH, Batches, augment_views, corner_error_px, turned_pose
from models.upright_data import INDEX_SHOWN, build, detected_views, samples
from vision.identity import CROP_PX, MASK_OTHER, MASK_OWN, MASK_SHARED, to_channels
from vision.paths import DETECTOR_MODEL
from vision.upright import VIEW_H_PX, VIEW_W_PX, pose_of_quad, quad_of_pose

WINDOW = (0, 0, CROP_PX)


@pytest.mark.parametrize("quarter_turns", [1, 2, 3])
def test_a_crop_turned_by_quarter_turns_has_its_outline_turned_with_it(quarter_turns: int) -> None:
    quad = np.array([[30, 20], [70, 30], [60, 90], [20, 80]], np.float32)
    turned = quad.copy()
    for _ in range(quarter_turns):  # np.rot90 of the crop: (x, y) -> (y, side - x)
        turned = np.stack([turned[:, 1], CROP_PX - turned[:, 0]], axis=1)
    pose = turned_pose(pose_of_quad(quad, WINDOW), quarter_turns)
    assert np.allclose(pose, pose_of_quad(turned, WINDOW), atol=1e-5)
    assert corner_error_px(pose[None], pose_of_quad(turned, WINDOW)[None])[0] < 1e-3


def test_a_rendered_view_gives_each_face_up_cards_outline_and_upright_view() -> None:
    scene = render(random.Random(3), 960, 720, card_px=60, cards_up=5, cards_down=2, chip_piles=1)
    corners, views = samples(scene.image, scene.labels, random.Random(4))
    faces = [lb for lb in scene.labels if lb.cls == CARD]
    assert len(corners) >= len(faces)  # every face, and some backs
    for crop, pose in corners:
        assert crop.shape == (CROP_PX, CROP_PX, 4) and crop.dtype == np.uint8
        sides = sorted(pose[2:4] * CROP_PX)
        # A card 60 pixels wide and 84 long, in a crop of its box with a margin of 8 %.
        assert 0.3 < sides[0] / sides[1] < 1.0 and pose[4] ** 2 + pose[5] ** 2 == pytest.approx(1)
        quad = quad_of_pose(pose, WINDOW)
        assert (quad > -0.2 * CROP_PX).all() and (quad < 1.2 * CROP_PX).all()
    readable = [lb for lb in faces if lb.index_shown >= INDEX_SHOWN]
    assert sorted(k for _, k in views) == sorted(DECK.index(lb.name) for lb in readable)
    for upright, _ in views:
        assert upright.shape == (VIEW_H_PX, VIEW_W_PX, 4)
        assert (upright[VIEW_H_PX // 2, VIEW_W_PX // 2, 3]) in (MASK_OWN, MASK_SHARED)


def test_with_a_detector_the_views_are_those_the_worker_reads() -> None:
    # Cut at the detector's box, along the corners the regressor reads from its crop: the
    # committed reader names most of them, as it does on the table (in the decks it was trained
    # on).
    scene = render(
        random.Random(3),
        960,
        720,
        card_px=60,
        cards_up=6,
        cards_down=2,
        chip_piles=1,
        pair_share=0.7,
        designs=TRAINING,
    )
    recogniser = _recogniser(DETECTOR_MODEL)
    views = detected_views(scene.image, scene.labels, recogniser, random.Random(4))
    readable = [lb.name for lb in scene.labels if lb.cls == CARD and lb.index_shown >= INDEX_SHOWN]
    assert len(readable) * 0.8 <= len(views) <= len(readable)
    assert {DECK[k] for _, k in views} <= set(readable)
    stacked = np.stack([v for v, _ in views])
    assert (stacked[:, VIEW_H_PX // 2, VIEW_W_PX // 2, 3] != 0).all()  # the card in the middle
    assert recogniser.upright is not None
    reader = recogniser.upright.reader
    blob = to_channels(stacked).transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    (read,) = reader.run(None, {reader.get_inputs()[0].name: blob})
    right = read.argmax(axis=1) == np.array([k for _, k in views])
    assert right.mean() >= 0.7, right


def test_corner_noise_warps_a_view_and_its_mask_together() -> None:
    view = np.zeros((1, VIEW_H_PX, VIEW_W_PX, 4), np.uint8)
    view[0, 4:-4, 4:-4] = (255, 255, 255, MASK_OWN)
    view[0, :, :, 3][view[0, :, :, 3] == 0] = MASK_OTHER
    out = augment_views(np.repeat(view, 8, axis=0), np.random.default_rng(0), 2.0)
    assert out.shape == (8, VIEW_H_PX, VIEW_W_PX, 4)
    assert set(np.unique(out[..., 3])) <= {0, MASK_OTHER, MASK_OWN}  # 0: beyond the view
    own = out[..., 3] == MASK_OWN
    assert out[..., :3][own].mean() > 2 * out[..., :3][~own].mean()  # the card under its mask
    assert not all(np.array_equal(own[0], o) for o in own[1:])  # and moved


def test_build_writes_the_regressors_and_the_readers_data(tmp_path: Path) -> None:
    counts = build(tmp_path, pair_views=20, table_views=1, jobs=1)
    assert counts["corners-val"] > 0 and counts["views-val"] > 0
    for split in ("train", "val"):
        corners = np.load(tmp_path / f"corners-{split}.npz")
        views = np.load(tmp_path / f"views-{split}.npz")
        assert len(corners["crops"]) == len(corners["poses"]) == counts[f"corners-{split}"]
        assert len(views["views"]) == len(views["labels"]) == counts[f"views-{split}"]
        assert views["labels"].max() < len(DECK)


def test_a_pass_of_batches_is_the_same_whichever_process_makes_each_batch() -> None:
    views = np.random.default_rng(0).integers(0, 255, (300, VIEW_H_PX, VIEW_W_PX, 4), np.uint8)
    labels = np.arange(300) % len(DECK)
    one, other = (Batches(views, labels, False, 2.0, seed=7) for _ in range(2))
    assert len(one) == 300 // BATCH
    for i in reversed(range(len(one))):  # in any order, as loader processes take them
        (batch, target), (again, again_target) = one.arrays(i), other.arrays(i)
        assert np.array_equal(batch, again) and np.array_equal(target, again_target)
    taken = np.concatenate(one.batches)
    assert len(set(taken.tolist())) == len(taken)  # no sample twice in a pass
    assert not np.array_equal(taken, np.concatenate(Batches(views, labels, False, 2.0, 8).batches))
