"""The detector's pre- and post-processing: letterbox, decoding and suppression."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detector import Detection, decode, letterbox


def test_letterbox_keeps_the_aspect_and_centres_the_image() -> None:
    image = np.full((720, 1280, 3), 200, np.uint8)
    boxed, scale, (left, top) = letterbox(image, 640)
    assert boxed.shape == (640, 640, 3)
    assert scale == 0.5 and (left, top) == (0, 140)
    assert (boxed[:140] == 114).all() and (boxed[140:500] == 200).all()


def test_decode_maps_boxes_back_and_suppresses_duplicates() -> None:
    # Three anchors, two classes: two overlapping 'As' boxes and one 'card_back'.
    raw = np.zeros((6, 3), np.float32)
    raw[:4, 0] = [100, 240, 40, 60]  # centre x, centre y, w, h in letterboxed pixels
    raw[:4, 1] = [102, 241, 40, 60]
    raw[:4, 2] = [400, 300, 50, 70]
    raw[4, 0], raw[4, 1], raw[5, 2] = 0.9, 0.6, 0.8
    found = decode(raw, {0: "As", 1: "card_back"}, 0.25, 0.5, scale=0.5, padding=(0, 140))
    assert [(d.label, round(d.conf, 2)) for d in found] == [("As", 0.9), ("card_back", 0.8)]
    assert found[0].box == (160.0, 140.0, 240.0, 260.0)


def test_nothing_above_the_threshold_gives_nothing() -> None:
    raw = np.zeros((6, 4), np.float32)
    raw[4] = 0.1
    assert decode(raw, {}, 0.25, 0.5, 1.0, (0, 0)) == []


def test_chips_seen_twice_or_in_the_gap_between_chips_are_merged_away() -> None:
    from vision.detector import Detection
    from vision.recognise import merge

    square = [  # four chips of 30 px side by side, with a 2 px gap
        Detection("chip", 0.8, (x, y, x + 30, y + 30)) for x in (100, 132) for y in (200, 232)
    ]
    gap = Detection("chip", 0.3, (115, 215, 147, 247))  # the weak box over the middle
    again = Detection("chip", 0.4, (109, 206, 139, 236))  # the first chip again (IoU 0.39)
    card = Detection("card", 0.9, (110, 210, 150, 266))  # a card over them stays
    kept = merge([*square, gap, again, card])
    assert sorted(d.box for d in kept if d.label == "chip") == sorted(d.box for d in square)
    assert card in kept


def test_a_chip_taken_for_a_card_is_dropped_a_card_under_a_chip_stays() -> None:
    from vision.recognise import merge

    chip = Detection("chip", 0.8, (100.0, 100.0, 130.0, 130.0))
    as_back = Detection("card_back", 0.6, (99.0, 98.0, 131.0, 133.0))  # the chip's own box
    as_card = Detection("card", 0.5, (102.0, 101.0, 130.0, 131.0))
    assert merge([chip, as_back, as_card]) == [chip]
    surer = Detection("card_back", 0.9, as_back.box)  # surer it is a back than a chip: kept
    assert merge([chip, surer]) == [surer, chip]
    protected = Detection("card", 0.95, (90.0, 90.0, 140.0, 160.0))  # a chip on a card (IoU 0.26)
    pair = Detection("card_back", 0.9, (90.0, 90.0, 152.0, 160.0))
    assert merge([chip, protected]) == [protected, chip]
    assert merge([chip, pair]) == [pair, chip]


@settings(max_examples=300, deadline=None)
@given(
    width=st.floats(30, 160),
    upright=st.booleans(),
    chip_share=st.floats(0.5, 0.65),
    at=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    confs=st.tuples(st.floats(0.3, 1.0), st.floats(0.3, 1.0)),
    face_up=st.booleans(),
)
def test_a_chip_anywhere_on_a_card_never_takes_the_cards_box(
    width: float,
    upright: bool,
    chip_share: float,
    at: tuple[float, float],
    confs: tuple[float, float],
    face_up: bool,
) -> None:
    """A card protector, a bet pushed onto a card: whatever the sizes and confidences, the card
    stays (a chip is 0.5 to 0.65 of a card's width; a card's box is at least 1.4 times as long
    as wide, turned or not)."""
    from vision.recognise import merge

    w, h = (width, width * 1.4) if upright else (width * 1.4, width)
    d = width * chip_share
    cx, cy = 100 + at[0] * w, 100 + at[1] * h
    chip = Detection("chip", confs[0], (cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2))
    card = Detection("card" if face_up else "card_back", confs[1], (100, 100, 100 + w, 100 + h))
    assert card in merge([chip, card])


def _pair(label: str, apart_px: float = 12.0) -> tuple[Detection, Detection]:
    """Two boxes of ``label`` as the two cards of a hand lie: 12 pixels apart at 50 pixels a card
    (IoU 0.61; the lower box lies 0.76 inside the upper one), or ``apart_px``."""
    from vision.detector import Detection

    return (
        Detection(label, 0.9, (100.0, 100.0, 150.0, 170.0)),
        Detection(label, 0.8, (100.0 + apart_px, 100.0, 150.0 + apart_px, 170.0)),
    )


def test_the_two_cards_of_a_hand_keep_their_boxes_backs_of_a_pile_merge() -> None:
    from vision.recognise import merge

    upper, lower = _pair("card")
    assert merge([upper, lower]) == [upper, lower]
    top, under = _pair("card_back", apart_px=15)  # IoU 0.54: a hand held face down
    assert merge([top, under]) == [top, under]
    top, under = _pair("card_back", apart_px=8)  # IoU 0.72: a burn or muck pile
    assert merge([top, under]) == [top]


def test_a_face_cut_by_a_tile_edge_merges_into_the_whole_one() -> None:
    from vision.detector import Detection
    from vision.recognise import merge

    whole = Detection("card", 0.9, (100.0, 100.0, 150.0, 170.0))
    part = Detection("card", 0.45, (110.0, 100.0, 160.0, 170.0), cut=True)  # 0.8 inside
    assert merge([whole, part]) == [whole]
    # Not cut, a box that far inside is the lower card of a pair, not a part of this one.
    lower = Detection("card", 0.45, part.box)
    assert merge([whole, lower]) == [whole, lower]


def test_a_card_cut_by_a_tile_edge_counts_only_where_another_tile_saw_it() -> None:
    """A card across the edge between two tiles shows, cut, in both; the detector's guess at a
    part of the rail's curve cut by a tile's edge shows in that tile only."""
    from vision.detector import Detection
    from vision.recognise import merge

    left = Detection("card_back", 0.3, (230.0, 100.0, 320.0, 170.0), cut=True, tile=(0, 0))
    right = Detection("card_back", 0.25, (256.0, 100.0, 330.0, 170.0), cut=True, tile=(256, 0))
    assert merge([left, right]) == [left]
    assert merge([left]) == []
    face = Detection("card", 0.4, (256.0, 110.0, 300.0, 160.0), tile=(256, 0))
    assert merge([left, face]) == [face, left]  # a face or a back, either confirms it
    same_tile = Detection("card", 0.4, (256.0, 110.0, 300.0, 160.0), tile=(0, 0))
    assert merge([left, same_tile]) == [same_tile]
    chip = Detection("chip", 0.9, (270.0, 120.0, 300.0, 150.0), tile=(256, 0))
    assert merge([left, chip]) == [chip]
    whole = Detection("card_back", 0.3, (100.0, 100.0, 150.0, 170.0), tile=(0, 0))
    assert merge([whole]) == [whole]


def test_a_weak_face_between_two_cards_is_not_a_card() -> None:
    """The detector's guess at the gap between two board cards (half of one, a sliver of the
    next) goes; the lower card of a hand, and a card the detector is sure of in a row spread
    half under each neighbour, stay. The figures of the demo's turn, 1080p."""
    from vision.detector import Detection
    from vision.recognise import merge

    three = Detection("card", 0.92, (935.0, 473.0, 985.0, 540.0))
    queen = Detection("card", 0.92, (991.0, 473.0, 1039.0, 539.0))
    gap = Detection("card", 0.45, (957.0, 473.0, 1003.0, 541.0))
    assert merge([three, queen, gap]) == [three, queen]
    assert merge([three, gap]) == [three, gap]  # one card alone holds 0.61 of it
    upper = Detection("card", 0.9, (500.0, 300.0, 550.0, 370.0))
    lower = Detection("card", 0.4, (490.0, 290.0, 540.0, 360.0))  # 0.69 under the upper card
    beside = Detection("card", 0.9, (440.0, 300.0, 492.0, 370.0))
    assert merge([upper, lower, beside]) == [upper, beside, lower]
    sure = Detection("card", 0.8, gap.box)
    assert merge([three, queen, sure]) == [three, queen, sure]
    back = Detection("card_back", 0.45, gap.box)
    assert merge([three, queen, back]) == [three, queen, back]  # burn and muck piles


def test_decode_suppresses_faces_and_backs_at_their_own_overlap() -> None:
    from vision.detector import OVERLAP, SAME_IOU

    raw = np.zeros((6, 4), np.float32)  # a hand of two faces and a pile of two backs
    raw[:4, 0], raw[:4, 1] = [125, 135, 50, 70], [137, 135, 50, 70]  # IoU 0.61
    raw[:4, 2], raw[:4, 3] = [325, 135, 50, 70], [333, 135, 50, 70]  # IoU 0.72
    raw[4, :2], raw[5, 2:] = (0.9, 0.8), (0.9, 0.8)
    names = {0: "card", 1: "card_back"}
    found = decode(raw, names, 0.25, OVERLAP, scale=1.0, padding=(0, 0))
    assert sorted((d.label, round(d.conf, 1)) for d in found) == [
        ("card", 0.8),
        ("card", 0.9),
        ("card_back", 0.9),
    ]
    assert len(decode(raw, names, 0.25, SAME_IOU, 1.0, (0, 0))) == 2  # one box a pair


def test_a_chip_cut_by_a_tile_edge_is_left_to_the_neighbour_that_holds_it_whole() -> None:
    """The detector also fires on a sliver of felt beside a chip at a tile's edge (the demo's
    hand 2 with a detector trained on pairs: one chip more in the winner's stack)."""
    from vision.detector import Detection
    from vision.recognise import Recogniser
    from vision.tiles import Tile

    recogniser = Recogniser()
    per_tile = [
        Detection("chip", 0.9, (100.0, 100.0, 130.0, 130.0)),  # whole
        Detection("chip", 0.5, (0.0, 150.0, 7.0, 169.0)),  # a sliver at the left edge
        Detection("chip", 0.5, (0.0, 200.0, 40.0, 290.0)),  # a chip larger than the overlap
        Detection("card", 0.8, (0.0, 20.0, 30.0, 80.0)),  # a face, cut
    ]
    recogniser.detector = lambda image: list(per_tile)  # type: ignore[assignment]  # a stand-in
    frame = np.zeros((320, 640, 3), np.uint8)
    inner = recogniser.detect_tiles(frame, [Tile(256, 0, 320)])  # its left edge is inner
    assert [(d.label, d.box[0], d.cut) for d in inner] == [
        ("chip", 356.0, False),
        ("chip", 256.0, True),
        ("card", 256.0, True),
    ]
    at_frame_edge = recogniser.detect_tiles(frame, [Tile(0, 0, 320)])
    assert len(at_frame_edge) == 4 and not any(d.cut for d in at_frame_edge)
