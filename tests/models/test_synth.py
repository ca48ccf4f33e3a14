"""The synthetic table renderer: reproducible frames with boxes that fit the objects."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from engine.cards import DECK
from models.synth import scene
from models.synth.cards import PIPS, STYLES, H, W, draw_back, draw_card
from models.synth.designs import DRAWN
from models.synth.scene import (
    BACK,
    CARD,
    CHIP,
    HAND,
    finish,
    index_shown,
    labelled,
    paste,
    render,
    yolo_lines,
)


def test_every_card_of_every_style_is_distinct() -> None:
    for style in STYLES:
        faces = {draw_card(card, style).tobytes() for card in DECK}
        assert len(faces) == 52
    assert draw_back(0).shape == draw_card("As", STYLES[0]).shape


def test_a_club_and_a_spade_differ_at_the_size_of_a_card_in_a_1080p_view_of_a_table() -> None:
    # A card is about 50 pixels wide there. With pips smaller than a real card's the club is a
    # blob like the spade: the two suits of a pip card must differ in at least 16 pixels a pip
    # (by more than 60 grey levels).
    for style in STYLES:
        for rank, pips in PIPS.items():
            club, spade = (
                cv2.resize(draw_card(rank + suit, style), (50, 70), interpolation=cv2.INTER_AREA)
                for suit in "cs"
            )
            differ = np.abs(club.astype(int) - spade.astype(int)).max(axis=2) > 60
            assert differ.sum() >= 12 * len(pips), (rank, style.font, int(differ.sum()))


def test_a_scene_is_reproducible_and_its_labels_fit_the_frame() -> None:
    a = render(random.Random(5), 640, 360, card_px=60, cards_up=4, cards_down=2, chip_piles=2)
    b = render(random.Random(5), 640, 360, card_px=60, cards_up=4, cards_down=2, chip_piles=2)
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (360, 640, 3)
    classes = [label.cls for label in a.labels]
    assert 1 <= classes.count(BACK) <= 4  # two backs, each may have a neighbour; few hidden
    cards = [label.name for label in a.labels if label.cls == CARD]
    assert len(cards) >= 3 and len(set(cards)) == len(cards) and set(cards) <= set(DECK)
    assert CHIP in classes
    for label in a.labels:
        x1, y1, x2, y2 = label.box
        assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 360
    lines = yolo_lines(a).splitlines()
    assert len(lines) == len(a.labels)
    assert all(len(line.split()) == 5 for line in lines)


def test_pair_share_lays_a_second_card_over_that_share_of_the_cards() -> None:
    def cards(share: float) -> int:
        scene = render(
            random.Random(8),
            1280,
            720,
            card_px=50,
            cards_up=8,
            cards_down=0,
            chip_piles=0,
            hands=0,
            pair_share=share,
        )
        return sum(label.cls == CARD for label in scene.labels)

    assert cards(0.0) == 8
    assert 14 <= cards(1.0) <= 16  # each with a second card (one may lie hidden under a pair)


def test_hidden_objects_are_not_labelled_and_a_dealer_hand_is() -> None:
    # Forty cards on a small frame: many end up under others and must not be labelled.
    scene = render(
        random.Random(2), 200, 200, card_px=60, cards_up=40, cards_down=0, chip_piles=0, hands=1
    )
    cards = [label for label in scene.labels if label.cls == CARD]
    assert 3 <= len(cards) < 40
    assert [label.name for label in scene.labels if label.cls == HAND] == ["hand"]


def test_a_card_hidden_but_for_its_corner_index_is_labelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A dealer names the lower card of a pair by its index alone. With no object showing enough
    # of its area to be labelled, the cards whose index shows still are (unlabelled, a reader
    # naming one would count as a false name).
    monkeypatch.setattr(scene, "VISIBLE", 1.01)
    shown = render(
        random.Random(2), 200, 200, card_px=60, cards_up=40, cards_down=4, chip_piles=2, hands=0
    )
    assert {label.cls for label in shown.labels} == {CARD}
    indices = [label.index_shown for label in shown.labels]
    assert len(indices) >= 3 and min(indices) >= scene.INDEX_READABLE


def test_small_cards_are_shrunk_with_area_averaging_not_aliased() -> None:
    # A 20-pixel card keeps the mean colour of the full-size face (no sparkle from sampling).
    scene = render(
        random.Random(3), 120, 120, card_px=20, cards_up=1, cards_down=0, chip_piles=0, hands=0,
        pair_share=0,
    )  # fmt: skip
    (label,) = [label for label in scene.labels if label.cls == CARD]
    x1, y1, x2, y2 = (int(v) for v in label.box)
    assert scene.image[y1:y2, x1:x2].mean() > 90  # paper, not the felt


def test_chips_are_round_on_the_felt_and_boxed_tightly() -> None:
    # A chip is pasted without the corners of its square sprite, and a turned chip's box is the
    # chip's, not that of the turned square.
    scene = render(
        random.Random(4), 400, 400, card_px=200, cards_up=0, cards_down=0, chip_piles=6, hands=0
    )
    chips = [label for label in scene.labels if label.cls == CHIP]
    assert chips
    # The pixels just inside each box's corners show the felt or a neighbour, never black.
    for label in chips:
        x1, y1, x2, y2 = (int(v) for v in label.box)
        for x, y in ((x1 + 2, y1 + 2), (x2 - 3, y1 + 2), (x1 + 2, y2 - 3), (x2 - 3, y2 - 3)):
            assert scene.image[y, x].max() > 25, (label.name, label.box, (x, y))


def test_a_card_whose_two_corner_indices_are_covered_is_marked_unreadable() -> None:
    # A card alone shows its indices; a second card laid over the top-left index leaves the
    # bottom-right one; a third over that one leaves nothing to name the first card by.
    canvas = np.zeros((400, 400, 3), np.float32)
    ids = np.full((400, 400), -1, np.int32)
    face = draw_card("Qs", STYLES[0]).astype(np.float32)
    corners = paste(canvas, face, (200, 200), 0, 0.5, owner=(ids, 0))
    assert index_shown(ids, 0, corners) > 0.95
    x0, y0 = corners[0]
    paste(canvas, face, (x0, y0), 0, 0.5, owner=(ids, 1))  # centred on the top-left corner
    assert index_shown(ids, 0, corners) > 0.95
    x2, y2 = corners[2]
    paste(canvas, face, (x2, y2), 0, 0.5, owner=(ids, 2))
    assert index_shown(ids, 0, corners) < 0.05
    # A card turned half round: its corners are listed from the sprite's own top-left.
    turned = paste(canvas, face, (100, 300), 180, 0.3, owner=(ids, 3))
    assert index_shown(ids, 3, turned) > 0.95


def test_a_card_mostly_beyond_the_image_is_not_labelled() -> None:
    # A card at the frame's edge showing a strip of itself and part of one corner index is
    # nobody's to name: its index does not count as shown from the pixels in the frame alone,
    # and the camera's tilt does not move cards out of the frame unnoticed.
    canvas = np.zeros((400, 400, 3), np.float32)
    ids = np.full((400, 400), -1, np.int32)
    face = draw_card("Qs", STYLES[0]).astype(np.float32)
    inside = paste(canvas, face, (200, 200), 0, 0.5, owner=(ids, 0))
    width = inside[1][0] - inside[0][0]
    edge = paste(canvas, face, (8 - width / 2, 200), 0, 0.5, owner=(ids, 1))  # 8 px in the frame
    placed = [(CARD, "Qs", inside), (CARD, "Qs", edge)]
    assert [label.box[0] for label in labelled(placed, ids, np.eye(3))] == [inside[0][0]]
    moved = np.array([[1, 0, -200 - width / 2 + 8], [0, 1, 0], [0, 0, 1]], np.float32)  # the tilt
    assert labelled(placed, ids, moved) == []


def test_past_the_canvas_the_camera_sees_the_table_not_the_objects_mirrored() -> None:
    # The tilt shows past the canvas's edge; the image must not show the canvas reflected there,
    # cards and all: mirror images the readers would name, with no label for them.
    table = np.full((100, 100, 3), 60, np.float32)
    canvas = table.copy()
    canvas[:, :10] = 250  # a card along the left edge
    shrink = np.array([[0.8, 0, 10], [0, 0.8, 10], [0, 0, 1]], np.float32)  # the canvas 10 px in
    for seed in range(4):
        image, _ = finish(canvas, random.Random(seed), shrink, beyond=table)
        card = image[20:80, 12:16].astype(float).mean()
        assert image[20:80, 3:7].astype(float).mean() < 0.6 * card
        mirrored, _ = finish(canvas, random.Random(seed), shrink)  # no table given: as before
        assert mirrored[20:80, 3:7].astype(float).mean() > 0.8 * card


def test_the_cards_of_a_rendered_view_report_their_index_shown() -> None:
    scene = render(
        random.Random(2), 200, 200, card_px=60, cards_up=40, cards_down=0, chip_piles=0, hands=0
    )
    shown = [label.index_shown for label in scene.labels if label.cls == CARD]
    assert all(0.0 <= s <= 1.0 for s in shown)
    assert min(shown) < 0.6 < max(shown)  # forty cards on a small frame: some covered, some not


def test_a_cards_corners_turn_its_view_back_upright_not_mirrored() -> None:
    # The corners (top left, top right, bottom right, bottom left of the drawn card) let a reader
    # cut a card out of a view and turn it upright; a mirrored or turned order would show its
    # index and pips mirrored.
    for seed in range(4):
        scene = render(
            random.Random(seed),
            400,
            400,
            card_px=120,
            cards_up=1,
            cards_down=0,
            chip_piles=0,
            hands=0,
            pair_share=0.0,
            designs=DRAWN,
        )
        (card,) = scene.labels
        assert len(card.corners) == 4
        quad = np.array(card.corners, np.float32)
        xs, ys = quad[:, 0].clip(0, 400), quad[:, 1].clip(0, 400)
        assert np.allclose(card.box, (xs.min(), ys.min(), xs.max(), ys.max()), atol=1.0)
        upright = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
        grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        turn = cv2.getPerspectiveTransform(quad, upright)
        seen = cv2.warpPerspective(grey, turn, (W, H))
        inside = cv2.warpPerspective(np.ones_like(grey), turn, (W, H)) > 0.99  # not cut off
        drawn = [
            cv2.cvtColor(draw_card(card.name, style), cv2.COLOR_BGR2GRAY).astype(np.float32)
            for style in STYLES
        ]
        best = max(_likeness(seen, d, inside) for d in drawn)
        assert best > 0.7, (seed, best)
        mirrored = max(_likeness(seen, d[:, ::-1], inside) for d in drawn)
        assert best > mirrored + 0.1, (seed, best, mirrored)


def _likeness(seen: np.ndarray, drawn: np.ndarray, inside: np.ndarray) -> float:
    return float(np.corrcoef(seen[inside], drawn[inside])[0, 1])


def test_a_fan_spreads_three_to_five_cards_each_with_an_index_in_view() -> None:
    """A hand spread in a fan: the first card and 2-4 laid over it, turned about a point near
    their foot; a fan spread to the right leaves each lower card's top left index in view."""
    design = DRAWN[0]
    shown = []
    for seed in range(12):
        rng = random.Random(seed)
        canvas = np.zeros((800, 800, 3), np.float32)
        ids = np.full((800, 800), -1, np.int32)
        placed: list[tuple[int, str, np.ndarray]] = []
        deck, angle = list(DECK), rng.uniform(-180, 180)
        first = deck.pop()
        scene.lay_card(canvas, ids, placed, rng, design.face(first), first, (400, 400), angle, 0.5)
        scene.lay_fan(canvas, ids, placed, rng, design, deck, (400, 400), angle, 0.5)
        assert 3 <= len(placed) <= 5 and len({name for _, name, _ in placed}) == len(placed)
        assert deck == [c for c in DECK if c not in {name for _, name, _ in placed}]
        shown += [index_shown(ids, k, corners) for k, (_, _, corners) in enumerate(placed)]
    assert np.mean(np.array(shown) >= 0.5) > 0.7  # most show an index: real hands are read


def test_a_tight_pair_lies_along_the_lower_cards_short_side() -> None:
    for seed in range(12):
        view = render(random.Random(seed), 640, 640, card_px=80, cards_up=1, cards_down=0,
                      chip_piles=0, hands=0, pair_share=1.0, pairs=scene.TIGHT_PAIRS)  # fmt: skip
        lower, upper = (np.array(lb.corners) for lb in view.labels if lb.cls == CARD)
        short_side = lower[1] - lower[0]  # top left to top right of the card as drawn
        offset = upper.mean(axis=0) - lower.mean(axis=0)
        along = float(offset @ short_side) / float(short_side @ short_side)
        assert 0.1 < abs(along) < 0.55
        across = np.linalg.norm(offset - along * short_side) / np.linalg.norm(short_side)
        assert across < 0.2
