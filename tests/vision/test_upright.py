"""Reading a card turned upright (``vision.upright``): the outline from its pose, the upright
view and its mask, the committed corner regressor and reader on rendered tables, and their
reading fused with the classifier's only where another card touches a card."""

from __future__ import annotations

import logging
import math
from pathlib import Path

import numpy as np
import pytest

from engine.cards import DECK
from models.eval import SELECTION_SEED, view
from models.synth.designs import TRAINING
from models.synth.scene import BACK, CARD, Label
from vision.identity import MASK_OTHER, MASK_OWN, MASK_SHARED, IdentityClassifier, crop_window
from vision.paths import CORNERS_MODEL, IDENTITY_MODEL, UPRIGHT_MODEL
from vision.recognise import Recogniser
from vision.upright import (
    VIEW_H_PX,
    VIEW_MARGIN_PX,
    VIEW_W_PX,
    UprightReader,
    fused_names,
    one_each,
    pose_of_quad,
    quad_of_pose,
    touches,
    upright_view,
)

WINDOW = (100, 50, 112)


def _rectangle(cx: float, cy: float, a: float, b: float, phi_deg: float) -> np.ndarray:
    """A card's corners (top left, top right, bottom right, bottom left), its long side ``b`` at
    ``phi_deg`` from the x axis."""
    phi = math.radians(phi_deg)
    along = np.array([math.cos(phi), math.sin(phi)])
    across = np.array([along[1], -along[0]])
    tl = np.array([cx, cy]) - a / 2 * across - b / 2 * along
    return np.array([tl, tl + a * across, tl + a * across + b * along, tl + b * along], np.float32)


def _same_outline(q: np.ndarray, true: np.ndarray, px: float) -> bool:
    """The same corners in the same order, or turned by a half turn."""
    return bool(min(np.abs(q - true).max(), np.abs(q[[2, 3, 0, 1]] - true).max()) <= px)


@pytest.mark.parametrize("phi_deg", [90.0, 75.0, 120.0, 10.0, 180.0 + 30.0])
def test_a_cards_outline_comes_back_from_its_pose(phi_deg: float) -> None:
    quad = _rectangle(150.0, 110.0, 40.0, 56.0, phi_deg)
    pose = pose_of_quad(quad, WINDOW)
    assert pose[2] == pytest.approx(40 / 112) and pose[3] == pytest.approx(56 / 112)
    assert _same_outline(quad_of_pose(pose, WINDOW), quad, 1e-3)


def _card_image() -> tuple[np.ndarray, np.ndarray]:
    """A white card 40 x 56 pixels with a black square in its top left corner, turned 30
    degrees on a grey table."""
    image = np.full((300, 400, 3), 90, np.uint8)
    quad = _rectangle(200.0, 150.0, 40.0, 56.0, 90.0 + 30.0)
    import cv2

    cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (255, 255, 255))
    corner = quad[0] + 0.1 * (quad[1] - quad[0]) + 0.1 * (quad[3] - quad[0])
    cv2.circle(image, tuple(int(v) for v in np.round(corner)), 3, (0, 0, 0), -1)
    return image, quad


def test_the_upright_view_turns_the_card_upright_and_masks_what_lies_over_it() -> None:
    image, quad = _card_image()
    other = _rectangle(215.0, 165.0, 40.0, 56.0, 90.0)  # a card over its lower right half
    far = _rectangle(330.0, 150.0, 40.0, 56.0, 90.0)  # one elsewhere on the table
    upright = upright_view(image, quad, [other, far])
    assert upright.shape == (VIEW_H_PX, VIEW_W_PX, 4) and upright.dtype == np.uint8
    m = VIEW_MARGIN_PX
    card = upright[m + 2 : VIEW_H_PX - m - 2, m + 2 : VIEW_W_PX - m - 2, :3]
    assert (card.mean(axis=2) > 200).mean() > 0.9  # the card fills the view inside the margin
    top_left = upright[m : m + 12, m : m + 12, :3].min()
    bottom_right = upright[-m - 12 : -m, -m - 12 : -m, :3].min()
    assert top_left < 60 < bottom_right  # the mark is at the top left, upright
    mask = upright[..., 3]
    assert mask[m + 4, m + 4] == MASK_OWN  # the top left corner shows
    assert mask[VIEW_H_PX - m - 4, VIEW_W_PX - m - 4] == MASK_SHARED  # the other card over it
    assert mask[0, 0] == 0
    assert set(np.unique(mask)) <= {0, MASK_OTHER, MASK_SHARED, MASK_OWN}
    turned = upright_view(image, quad, [other, far], turned=True)
    # The same view turned (the outline's corners lie at whole pixels: one pixel apart).
    back = turned[::-1, ::-1].astype(int)
    assert np.abs(back[:-1, :-1] - upright[1:, 1:].astype(int)).mean() < 3


def test_boxes_touch_when_they_share_some_area() -> None:
    assert touches((0, 0, 10, 10), (9, 9, 20, 20))
    assert not touches((0, 0, 10, 10), (10, 0, 20, 10))


def _reading(**cards: float) -> np.ndarray:
    """Probabilities over ``DECK`` with ``cards``' given, the rest spread evenly."""
    p = np.full(len(DECK), (1 - sum(cards.values())) / (len(DECK) - len(cards)))
    for card, share in cards.items():
        p[DECK.index(card)] = share
    return p


def test_two_touching_boxes_never_name_the_same_card() -> None:
    upper, lower, apart = (100, 100, 160, 190), (120, 104, 180, 194), (400, 100, 460, 190)
    # The lower card's box reads the upper card (3d) too, and its own (4c) second.
    probs = np.stack(
        [
            _reading(Ad=0.02, **{"3d": 0.97}),
            _reading(**{"3d": 0.9, "4c": 0.08}),
            _reading(**{"3d": 0.6, "9s": 0.3}),
        ]
    )
    named = one_each([upper, lower, apart], probs)
    assert named[0] is None and named[2] is None  # the upper card and the card apart keep 3d
    assert named[1] is not None and named[1].card == "4c"
    assert named[1].conf == pytest.approx(0.08 / 0.1)
    # The pair is likelier with the 3d in the box whose other readings say least.
    swapped = one_each([upper, lower], probs[[1, 0]])
    assert swapped[0] is not None and swapped[0].card == "4c" and swapped[1] is None
    assert one_each([upper, apart], probs[[0, 2]]) == [None, None]


@pytest.fixture(scope="module")
def reader() -> UprightReader:
    return UprightReader(CORNERS_MODEL, UPRIGHT_MODEL)


@pytest.fixture(scope="module")
def classifier() -> IdentityClassifier:
    return IdentityClassifier(IDENTITY_MODEL)


SHEET_CLASSES = (CARD, BACK)


def _tables(n: int) -> list[tuple[np.ndarray, list[Label]]]:
    """The first ``n`` rendered selection views (seen by no network in training), in the
    training decks."""
    views = (view(SELECTION_SEED + i, TRAINING) for i in range(n))
    return [(s.image, list(s.labels)) for s in views]


def test_the_regressor_finds_the_corners_of_rendered_cards_from_their_boxes(
    reader: UprightReader, classifier: IdentityClassifier
) -> None:
    errors = []
    for image, labels in _tables(2):
        sheets = [lb for lb in labels if lb.cls in SHEET_CLASSES]
        boxes = [lb.box for lb in sheets]
        windows = [crop_window(image.shape, b) for b in boxes]
        quads = reader.quads(classifier.crops(image, boxes), windows)
        for quad, lb in zip(quads, sheets, strict=True):
            true = np.array(lb.corners, np.float32)
            errors.append(min(np.abs(quad - true).max(), np.abs(quad[[2, 3, 0, 1]] - true).max()))
    # Measured on the 60 selection views' face-up cards (45-60 pixels wide) with the committed
    # regressor: the farthest corner 3.0 pixels off at the median, 5.5 at the 90th percentile.
    assert len(errors) > 20 and np.median(errors) < 6.0


def test_fused_names_read_more_cards_right_than_the_classifier_alone(
    reader: UprightReader, classifier: IdentityClassifier
) -> None:
    right = {(where, who): 0 for where in ("alone", "covered") for who in ("classifier", "fused")}
    count = {"alone": 0, "covered": 0}
    changed = {"alone": 0, "covered": 0}
    upright_right = 0
    for image, labels in _tables(3):
        sheets = [lb for lb in labels if lb.cls in SHEET_CLASSES]
        faces = [lb for lb in sheets if lb.cls == CARD]
        seen = [lb.box for lb in sheets]
        boxes = [lb.box for lb in faces]
        alone = classifier(image, boxes, seen)
        fused = fused_names(classifier, reader, image, boxes, seen)
        bare = fused_names(classifier, None, image, boxes, seen)
        for lb, a, b in zip(faces, alone, bare, strict=True):
            if b != a:  # renamed: a face it touches is read as the same card (one_each)
                assert any(
                    o is not lb and touches(lb.box, o.box) and x.card == a.card
                    for o, x in zip(faces, alone, strict=True)
                )
        for lb, a, f in zip(faces, alone, fused, strict=True):
            where = "covered" if any(o != lb.box and touches(lb.box, o) for o in seen) else "alone"
            count[where] += 1
            right[where, "classifier"] += a.card == lb.name
            right[where, "fused"] += f.card == lb.name
            changed[where] += f.conf != a.conf
            if where == "covered":
                quads = reader.quads(
                    classifier.crops(image, [lb.box], seen), [crop_window(image.shape, lb.box)]
                )
                upright = reader.probabilities(image, quads, [[]])[0]
                upright_right += DECK[int(upright.argmax())] == lb.name

    assert count["covered"] >= 10 and count["alone"] >= 10
    assert changed["alone"] > 0  # every face is read upright, a card alone too
    for where in count:
        assert right[where, "fused"] >= right[where, "classifier"]
    assert upright_right >= 0.7 * count["covered"]


def test_without_the_upright_models_cards_are_named_by_the_classifier_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "corners.onnx"
    with caplog.at_level(logging.WARNING):
        recogniser = Recogniser(upright=(missing, UPRIGHT_MODEL))
    assert recogniser.upright is None
    assert str(missing) in caplog.text and "model file missing" in caplog.text
    image, _ = _tables(1)[0]
    assert any(s.card for s in recogniser.frame(image))


def test_a_reader_whose_names_are_not_the_deck_is_refused() -> None:
    with pytest.raises(ValueError, match=r"identity\.onnx"):
        UprightReader(CORNERS_MODEL, IDENTITY_MODEL)
