"""models.eval's per-card outcomes (each true card judged by the box that overlaps it most), and
its counts of light chips, face-down pairs and boxes on printed layouts."""

from __future__ import annotations

import random

from models.eval import (
    SELECTION_SEED,
    _face_down_groups,
    card_outcomes,
    light_chips,
    printed_layouts,
    printed_view,
    synthetic,
    table_stills,
    view,
)
from models.synth.designs import HELD_OUT, design
from models.synth.room import LIGHT_CHIPS
from models.synth.scene import BACK, CARD, CHIP, Label, render
from models.synth.still import table_still
from vision.recognise import Recogniser, Sighting

LOWER = Label(CARD, (100, 100, 150, 170), "Kh")
UPPER = Label(CARD, (120, 102, 170, 172), "2s")
"""Two cards lying one over the other (their boxes' IoU is about 0.3)."""
LONE = Label(CARD, (400, 100, 450, 170), "7d")


def _card(box: tuple[float, float, float, float], name: str | None) -> Sighting:
    return Sighting("card", 0.9, box, name, 0.8 if name else 0.1)


def test_each_true_card_is_right_wrong_unsure_or_not_found_alone_or_overlapping() -> None:
    labels = [LOWER, UPPER, LONE, Label(CHIP, (300, 300, 330, 330), "red")]
    seen = [
        _card(UPPER.box, "2s"),
        _card((101, 99, 151, 171), "2s"),  # the lower card's box, named as the upper card
        Sighting("chip", 0.9, (300, 300, 330, 330), colour="red", denomination=5),
    ]
    assert card_outcomes(seen, labels) == {
        "overlapping_right": 1,
        "overlapping_wrong": 1,
        "alone_not_found": 1,
    }
    unsure = [_card(LONE.box, None), _card(UPPER.box, "2s")]
    assert card_outcomes(unsure, labels) == {
        "alone_unsure": 1,
        "overlapping_right": 1,
        "overlapping_not_found": 1,
    }


def test_a_face_down_card_over_a_face_up_one_makes_it_overlapping() -> None:
    back = Label(BACK, (420, 110, 470, 180), "card_back")
    assert card_outcomes([_card(LONE.box, "7d")], [LONE, back]) == {"overlapping_right": 1}
    assert card_outcomes([_card(LONE.box, "7d")], [LONE]) == {"alone_right": 1}


def test_the_rendered_evaluation_accounts_for_every_true_card_of_the_selection_views() -> None:
    views = 2
    report = synthetic(Recogniser(), views, SELECTION_SEED)
    by_box = report["cards_by_box"]
    assert isinstance(by_box, dict)
    counted = sum(sum(outcomes.values()) for outcomes in by_box.values())
    true_cards = sum(lb.cls == CARD for i in range(views) for lb in view(SELECTION_SEED + i).labels)
    assert counted == true_cards > 0
    assert by_box["alone"]["right"] + by_box["overlapping"]["right"] > 0
    by_design = report["cards_by_design"]
    assert isinstance(by_design, dict)
    drawn_in = [view(SELECTION_SEED + i).design for i in range(views)]
    assert {name: d["images"] for name, d in by_design.items() if d["images"]} == {
        name: drawn_in.count(name) for name in drawn_in
    }


def test_the_light_chips_count_every_chip_of_the_room_views() -> None:
    report = light_chips(Recogniser(), 3, SELECTION_SEED)
    names = []
    for i in range(3):
        rng = random.Random(SELECTION_SEED + i)
        scene = render(rng, 1920, 1080, card_px=rng.uniform(45, 60), room=True)
        names += [lb.name for lb in scene.labels if lb.cls == CHIP]
    light = sum(name in LIGHT_CHIPS for name in names)
    assert (report["light_chips"], report["house_chips"]) == (light, len(names) - light)
    assert light > 0
    boxes = report["card_or_back_boxes_on_light_chips"], report["card_or_back_boxes_on_house_chips"]
    assert all(isinstance(n, int) and n >= 0 for n in boxes)


def test_the_stills_evaluation_accounts_for_every_face_down_pair_and_light_chip() -> None:
    report = table_stills(Recogniser(), 1, SELECTION_SEED, (design(HELD_OUT),))
    scene = table_still(random.Random(SELECTION_SEED), designs=(design(HELD_OUT),))
    assert report["designs"] == [HELD_OUT]
    assert report["face_down_pairs"] == len(_face_down_groups(scene.labels))
    assert report["light_chips"] == sum(
        lb.cls == CHIP and lb.name in LIGHT_CHIPS for lb in scene.labels
    )
    cards = report["cards"]
    assert isinstance(cards, dict) and cards["images"] == 1
    seen = report["face_down_pairs_seen"]
    assert isinstance(seen, int) and 0 <= seen <= report["face_down_pairs"]
    by_box = report["cards_by_box"]
    assert isinstance(by_box, dict)
    counted = sum(n for where in by_box.values() for n in where.values())
    assert counted == sum(lb.cls == CARD for lb in scene.labels)


def test_the_printed_layouts_hold_no_card_and_count_every_card_or_back_seen() -> None:
    recogniser = Recogniser()
    report = printed_layouts(recogniser, 2, SELECTION_SEED)
    views = [printed_view(SELECTION_SEED + i) for i in range(2)]
    assert all(lb.cls not in (CARD, BACK) for v in views for lb in v.labels)
    assert report["printed_card_boxes"] == sum(v.printed_boxes for v in views) > 0
    seen = [s for v in views for s in recogniser.frame(v.image)]
    assert report["card_or_back_boxes"] == sum(s.kind in ("card", "card_back") for s in seen)
