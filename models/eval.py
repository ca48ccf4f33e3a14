"""Evaluate the committed models (run time path: onnxruntime + OpenCV), one command:

    make eval        (= .venv/bin/python -m models.eval [--scenes 60] [--json OUT])

    .venv/bin/python -m models.eval --valid --seed 515151 --scenes 30   (selection data only)

1. Real photos, ``../shared/data/cards-real/*/test`` (never used to train or tune): the card
   identity precision and recall per image (a predicted card counts when its name is one of the
   image's true cards; summed over the images, and the mean of the images' own figures), the
   named boxes found at IoU 0.5, and mAP50 over the 52 card classes.
2. Rendered 1920 x 1080 table views with cards about 50 pixels wide (the product's scale), from
   a seed no training run uses, in the training decks and again in the held-out deck
   (``models.synth.designs.HELD_OUT``, never in a training frame: a new casino's deck): the
   same, each deck's own precision and recall, the cards' recall by suit, each true card's
   outcome by its box (named right, wrong, unsure or not found; alone or overlapping another
   card), card backs, chips (box and colour) and hands. ``--seed`` renders other views of the
   same kind: the selection views (``SELECTION_SEED``) that candidates are chosen on, so that
   ``EVAL_SEED``'s stay unseen.
3. The same kind of views with what a real room adds (``models.synth.room``: white and light chips
   of other houses, a chip rack, the floor, shadows, the light's colour, CCTV, by chance a
   layout printed on the cloth): the card and back boxes the detector puts on chips, light and
   of the house's colours.
4. Views of a table with no card on it, its cloth printed with a layout (empty card boxes,
   betting circles, lines, words; ``models.synth.printing``) in box shapes no training view
   shows: every card or back box there is false.
5. Phone stills of a real table from above (``models.synth.still``: wood and light tables, a
   board, players' pairs face up and down, white and light chips, a rack, the floor; cards
   300-500 pixels wide in 6000 x 4000; half with a printed layout, in the held-out box shapes for
   the held-out deck), in the held-out deck and in the training decks, read as
   ``feltwatch detect`` reads a photo: card identity, face-down pairs seen, boxes on chips, and
   the confusions that remain.
6. Real chip photos (PokeVisor crops): colour -> denomination accuracy with the default chip set,
   and with the chip set calibrated from the other photos of the set (leave one out), which is
   what an installer's calibration does.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.cards import DECK
from models.image_file import read_image
from models.real import REAL, real_boxes
from models.synth.designs import HELD_OUT, TRAINING, CardDesign, design
from models.synth.printing import HELD_OUT_PRINTS, TRAINING_PRINTS, PrintStyle
from models.synth.room import LIGHT_CHIPS
from models.synth.scene import BACK, CARD, CHIP, HAND, Label, Scene, render
from models.synth.still import table_still
from vision.chips import ChipReader, calibrated
from vision.paths import CORNERS_MODEL, DETECTOR_MODEL, IDENTITY_MODEL, UPRIGHT_MODEL
from vision.recognise import Recogniser, Sighting
from vision.tiles import Box, iou

if TYPE_CHECKING:
    import supervision as sv


def _detections_type() -> type[sv.Detections]:
    """supervision's Detections, imported when figures are computed: the training data steps
    import this module for its views (``view``) and need not have supervision."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from supervision import Detections

    return Detections


EVAL_SEED = 424242
"""Rendered views for evaluation: training renders seeds 0 and 1 (models.synth, identity)."""
SELECTION_SEED = 515151
"""Rendered views to choose a candidate model on (``--seed``); never the evaluation's."""
OVERLAP_IOU = 0.05
"""A card whose box overlaps another card's or back's this much lies over or under it."""
OUTCOMES = ("right", "wrong", "unsure", "not_found")
CHIPS_REAL = REAL.parent / "chips-real" / "PokeVisor"


class Tally:
    """Card identity precision and recall, per image and summed, and mAP50 by class."""

    def __init__(self, classes: list[str]) -> None:
        self.classes = classes
        self.tp = self.fp = self.fn = 0
        self.boxes_true = self.boxes_found = self.boxes_predicted = 0
        self.per_image: list[tuple[float, float]] = []
        self.predictions: list[sv.Detections] = []
        self.targets: list[sv.Detections] = []

    def add(
        self,
        predicted: list[tuple[str, float, Box]],
        truth: list[tuple[str, Box]],
    ) -> None:
        """``predicted``: (name, score, box); ``truth``: (name, box)."""
        names = {name for name, _, _ in predicted}
        true = {name for name, _ in truth}
        tp = len(names & true)
        self.tp += tp
        self.fp += len(names - true)
        self.fn += len(true - names)
        self.per_image.append(
            (tp / len(names) if names else -1.0, tp / len(true) if true else -1.0)
        )
        self.boxes_true += len(truth)
        self.boxes_found += _matches(predicted, truth)
        self.boxes_predicted += len(predicted)
        self.predictions.append(self._detections([(n, s, b) for n, s, b in predicted]))
        self.targets.append(self._detections([(n, 1.0, b) for n, b in truth]))

    def _detections(self, rows: list[tuple[str, float, Box]]) -> sv.Detections:
        detections = _detections_type()
        rows = [r for r in rows if r[0] in self.classes]
        if not rows:
            return detections.empty()
        return detections(
            xyxy=np.array([b for _, _, b in rows], np.float32).reshape(-1, 4),
            confidence=np.array([s for _, s, _ in rows], np.float32),
            class_id=np.array([self.classes.index(n) for n, _, _ in rows], int),
        )

    def result(self) -> dict[str, float]:
        from supervision.metrics import MeanAveragePrecision

        metric = MeanAveragePrecision()
        metric.update(self.predictions, self.targets)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ap = metric.compute()
        per_p = [p for p, _ in self.per_image if p >= 0]  # images with a prediction
        per_r = [r for _, r in self.per_image if r >= 0]  # images with a true card
        return {
            "images": len(self.per_image),
            "precision": round(self.tp / max(1, self.tp + self.fp), 4),
            "recall": round(self.tp / max(1, self.tp + self.fn), 4),
            "precision_per_image_mean": round(float(np.mean(per_p)), 4) if per_p else 0.0,
            "recall_per_image_mean": round(float(np.mean(per_r)), 4) if per_r else 0.0,
            "box_precision_iou50": round(self.boxes_found / max(1, self.boxes_predicted), 4),
            "box_recall_iou50": round(self.boxes_found / max(1, self.boxes_true), 4),
            "mAP50": round(float(ap.map50), 4),
        }


def _cards(sightings: list[Sighting]) -> list[tuple[str, float, Box]]:
    return [(s.card, s.conf * s.card_conf, s.box) for s in sightings if s.card]


def real_photos(recogniser: Recogniser, split: str = "test") -> dict[str, float]:
    tally = Tally(list(DECK))
    for image_path, boxes in real_boxes(split):
        image = read_image(image_path)
        tally.add(_cards(recogniser.image(image)), boxes)
    return tally.result()


def card_outcomes(sightings: list[Sighting], labels: list[Label]) -> Counter[str]:
    """Each true face-up card of ``labels``, by its box: the card sighting that overlaps it
    most (IoU >= 0.5) names it ``right``, names another card (``wrong``), names none
    (``unsure``), or there is none (``not_found``); keyed ``alone_...`` or ``overlapping_...``
    (its box overlaps another card's or back's by ``OVERLAP_IOU``)."""
    cards = [s for s in sightings if s.kind == "card"]
    sheets = [lb for lb in labels if lb.cls in (CARD, BACK)]
    out: Counter[str] = Counter()
    for label in (lb for lb in labels if lb.cls == CARD):
        best = _found(cards, label.box)
        if best is None:
            outcome = "not_found"
        elif best.card is None:
            outcome = "unsure"
        else:
            outcome = "right" if best.card == label.name else "wrong"
        over = max((iou(label.box, o.box) for o in sheets if o is not label), default=0.0)
        out[("overlapping_" if over > OVERLAP_IOU else "alone_") + outcome] += 1
    return out


def view(seed: int, designs: Sequence[CardDesign] = TRAINING) -> Scene:
    """The rendered 1920 x 1080 view of ``seed``: 4-10 face-up cards 45-60 pixels wide, 2-8
    backs, 2-6 chip piles, at most one dealer's hand, dropped at random (overlapping); the deck
    one of ``designs``."""
    rng = random.Random(seed)
    return render(
        rng,
        1920,
        1080,
        card_px=rng.uniform(45, 60),
        cards_up=rng.randint(4, 10),
        cards_down=rng.randint(2, 8),
        chip_piles=rng.randint(2, 6),
        hands=rng.randint(0, 1),
        designs=designs,
    )


def synthetic(
    recogniser: Recogniser,
    scenes: int,
    seed: int = EVAL_SEED,
    designs: Sequence[CardDesign] = TRAINING,
) -> dict[str, object]:
    cards = Tally(list(DECK))
    by_design = {d.name: Tally(list(DECK)) for d in designs}
    outcomes: Counter[str] = Counter()
    kinds = {name: Tally([name]) for name in ("card_back", "chip", "hand")}
    colour_right = colour_total = 0
    by_suit: dict[str, list[int]] = {suit: [0, 0] for suit in "cdhs"}
    """Suit -> [true cards named, true cards]: where the misses lie (clubs and spades, which
    differ only in the shape of a pip about 12 pixels tall, or all four)."""
    started = time.perf_counter()
    for i in range(scenes):
        scene = view(seed + i, designs)
        seen = recogniser.frame(scene.image)
        named = _cards(seen)
        true_cards = [(lb.name, lb.box) for lb in scene.labels if lb.cls == CARD]
        cards.add(named, true_cards)
        by_design[scene.design].add(named, true_cards)
        outcomes += card_outcomes(seen, scene.labels)
        said = {name for name, _, _ in named}
        for name in {name for name, _ in true_cards}:
            by_suit[name[1]][0] += name in said
            by_suit[name[1]][1] += 1
        for name, cls in (("card_back", BACK), ("chip", CHIP), ("hand", HAND)):
            kinds[name].add(
                [(name, s.conf, s.box) for s in seen if s.kind == name],
                [(name, lb.box) for lb in scene.labels if lb.cls == cls],
            )
        chips = [s for s in seen if s.kind == "chip"]
        for label in (lb for lb in scene.labels if lb.cls == CHIP):
            best = _found(chips, label.box)
            if best is not None:
                colour_total += 1
                colour_right += best.colour == label.name
    out: dict[str, object] = {
        "first_seed": seed,
        "designs": [d.name for d in designs],
        "cards": cards.result(),
        "cards_by_design": _by_design(by_design),
    }
    out["card_recall_by_suit"] = {s: round(n / max(1, t), 4) for s, (n, t) in by_suit.items()}
    out["cards_by_box"] = _by_box(outcomes)
    for name, tally in kinds.items():
        result = tally.result()
        out[name] = {k: result[k] for k in ("mAP50", "box_precision_iou50", "box_recall_iou50")}
    out["chip_colour_accuracy"] = round(colour_right / max(1, colour_total), 4)
    out["seconds_per_frame"] = round((time.perf_counter() - started) / max(1, scenes), 3)
    return out


def _by_box(outcomes: Counter[str]) -> dict[str, dict[str, int]]:
    """``card_outcomes`` summed, as {alone, overlapping} -> {right, wrong, unsure, not_found}."""
    return {
        where: {outcome: outcomes[f"{where}_{outcome}"] for outcome in OUTCOMES}
        for where in ("alone", "overlapping")
    }


def _by_design(tallies: dict[str, Tally]) -> dict[str, dict[str, float]]:
    """Each deck's views: how many, and card identity precision and recall."""
    out = {}
    for name, tally in tallies.items():
        result = tally.result() if tally.per_image else {"images": 0}
        out[name] = {k: result[k] for k in ("images", "precision", "recall") if k in result}
    return out


def _matches(
    predicted: list[tuple[str, float, Box]],
    truth: list[tuple[str, Box]],
) -> int:
    """True boxes found: each matched once, to a prediction of the same name at IoU >= 0.5,
    best score first."""
    left = list(truth)
    found = 0
    for name, _, box in sorted(predicted, key=lambda p: -p[1]):
        best = max((t for t in left if t[0] == name), key=lambda t: iou(box, t[1]), default=None)
        if best is not None and iou(box, best[1]) >= 0.5:
            left.remove(best)
            found += 1
    return found


def _found(sightings: list[Sighting], box: Box) -> Sighting | None:
    """The sighting whose box overlaps the true ``box`` most, if at IoU >= 0.5."""
    best = max(sightings, key=lambda s: iou(s.box, box), default=None)
    return best if best is not None and iou(best.box, box) >= 0.5 else None


def _on_chips(
    sightings: list[Sighting], labels: list[Label], counted: Counter[str], on: Counter[str]
) -> None:
    """Count the chips of ``labels`` by kind, light or the house's (into ``counted``), and the
    card and back boxes of ``sightings`` on a chip by the chip's kind (IoU 0.3 with a chip,
    under 0.3 with every true card and back; into ``on``)."""
    sheets = [lb.box for lb in labels if lb.cls in (CARD, BACK)]
    chips = [lb for lb in labels if lb.cls == CHIP]
    kinds = ["light" if lb.name in LIGHT_CHIPS else "house" for lb in chips]
    counted.update(kinds)
    for s in sightings:
        if s.kind not in ("card", "card_back") or any(iou(s.box, b) >= 0.3 for b in sheets):
            continue
        hit = [k for lb, k in zip(chips, kinds, strict=True) if iou(s.box, lb.box) >= 0.3]
        if hit:
            on[hit[0]] += 1


def light_chips(recogniser: Recogniser, scenes: int, seed: int = EVAL_SEED) -> dict[str, object]:
    """Views with white and light chips beside the cards (``models.synth.room``: a real room's
    chips of other houses, racks, floor, shadows, light, CCTV): the card and back boxes the
    detector puts on a chip, counted apart for the light chips and the others."""
    on: Counter[str] = Counter()
    chips: Counter[str] = Counter()
    for i in range(scenes):
        rng = random.Random(seed + i)
        scene = render(rng, 1920, 1080, card_px=rng.uniform(45, 60), room=True)
        _on_chips(recogniser.frame(scene.image), scene.labels, chips, on)
    return {
        "views": scenes,
        "light_chips": chips["light"],
        "house_chips": chips["house"],
        "card_or_back_boxes_on_light_chips": on["light"],
        "card_or_back_boxes_on_house_chips": on["house"],
    }


def _face_down_groups(labels: list[Label]) -> list[list[Box]]:
    """The boxes of the backs in ``labels`` grouped where they touch (a face-down pair)."""
    groups: list[list[Box]] = []
    for box in (lb.box for lb in labels if lb.cls == BACK):
        touching = [g for g in groups if any(iou(box, b) > 0 for b in g)]
        merged = [box, *(b for g in touching for b in g)]
        groups = [g for g in groups if g not in touching] + [merged]
    return groups


def printed_view(seed: int) -> Scene:
    """The rendered 1920 x 1080 view of ``seed`` of a table with no card on it, its cloth
    printed in a held-out box shape (``models.synth.printing.HELD_OUT_PRINTS``), chips and what
    a room adds by chance."""
    rng = random.Random(seed)
    return render(
        rng,
        1920,
        1080,
        card_px=rng.uniform(45, 60),
        cards_up=0,
        cards_down=0,
        room=True,
        prints=HELD_OUT_PRINTS,
        printed=True,
    )


def printed_layouts(
    recogniser: Recogniser, scenes: int, seed: int = EVAL_SEED
) -> dict[str, object]:
    """Views of a table with no card on it (``printed_view``: empty card boxes, circles, lines
    and words printed in box shapes no training view shows): every card or back box the
    detector puts there is false."""
    boxes = printed = 0
    for i in range(scenes):
        scene = printed_view(seed + i)
        printed += scene.printed_boxes
        boxes += sum(s.kind in ("card", "card_back") for s in recogniser.frame(scene.image))
    return {"views": scenes, "printed_card_boxes": printed, "card_or_back_boxes": boxes}


def table_stills(
    recogniser: Recogniser,
    stills: int,
    seed: int = EVAL_SEED,
    designs: Sequence[CardDesign] = TRAINING,
    prints: Sequence[PrintStyle] = TRAINING_PRINTS,
) -> dict[str, object]:
    """Phone stills of a real table from above (``models.synth.still``: wood and light tables,
    a board, players' pairs face up and down, white and light chips, a rack, the floor; cards
    300-500 pixels wide in 6000 x 4000; by chance a layout printed in one of ``prints``), read
    as ``feltwatch detect`` reads a photo: card
    identity per image, each true card by its box (``card_outcomes``), the face-down pairs a
    back box is put on, the card and back boxes on chips, and the confusions (a true card's
    box named as another card) most often made."""
    cards = Tally(list(DECK))
    by_design = {d.name: Tally(list(DECK)) for d in designs}
    confusions: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    on: Counter[str] = Counter()
    chips: Counter[str] = Counter()
    groups = groups_seen = 0
    for i in range(stills):
        scene = table_still(random.Random(seed + i), designs=designs, prints=prints)
        seen = recogniser.image(scene.image)
        named = _cards(seen)
        true_cards = [(lb.name, lb.box) for lb in scene.labels if lb.cls == CARD]
        cards.add(named, true_cards)
        by_design[scene.design].add(named, true_cards)
        outcomes += card_outcomes(seen, scene.labels)
        faces = [s for s in seen if s.kind == "card" and s.card is not None]
        for label in (lb for lb in scene.labels if lb.cls == CARD):
            match = _found(faces, label.box)
            if match is not None and match.card != label.name:
                confusions[f"{label.name}->{match.card}"] += 1
        backs = [s.box for s in seen if s.kind == "card_back"]
        for group in _face_down_groups(scene.labels):
            groups += 1
            groups_seen += any(iou(b, g) >= 0.3 for b in backs for g in group)
        _on_chips(seen, scene.labels, chips, on)
    return {
        "stills": stills,
        "designs": [d.name for d in designs],
        "cards": cards.result(),
        "cards_by_design": _by_design(by_design),
        "cards_by_box": _by_box(outcomes),
        "face_down_pairs": groups,
        "face_down_pairs_seen": groups_seen,
        "light_chips": chips["light"],
        "card_or_back_boxes_on_light_chips": on["light"],
        "card_or_back_boxes_on_house_chips": on["house"],
        "confusions": dict(confusions.most_common(10)),
    }


def real_chips() -> dict[str, object]:
    """Colour accuracy on the real chip crops: default chip set, then leave-one-out calibrated."""
    items = [
        (p.parent.name, read_image(p))
        for p in sorted(CHIPS_REAL.glob("crops/*/*.jpg"))
        if p.parent.name != "unknown"
    ]
    default = ChipReader()
    right_default = sum(default.read(img).name == colour for colour, img in items)
    bodies = [default.body_colour(img) for _, img in items]
    right_calibrated = 0
    for i, (colour, img) in enumerate(items):
        samples: dict[str, list[np.ndarray]] = {}
        for j, (other, _) in enumerate(items):
            if j != i:
                samples.setdefault(other, []).append(bodies[j])
        chip_set = calibrated(samples, default.denominations())
        right_calibrated += ChipReader(chip_set).read(img).name == colour
    return {
        "crops": len(items),
        "colours": dict(Counter(colour for colour, _ in items)),
        "accuracy_default_chip_set": round(right_default / max(1, len(items)), 4),
        "accuracy_calibrated_leave_one_out": round(right_calibrated / max(1, len(items)), 4),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument(
        "--seed",
        type=int,
        default=EVAL_SEED,
        help=f"the rendered views' first seed ({SELECTION_SEED}: the selection views)",
    )
    parser.add_argument(
        "--stills", type=int, default=20, help="rendered phone stills of a table, per deck set"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--designs",
        nargs="+",
        metavar="DESIGN",
        help="the rendered views' decks (default: the training decks; models.synth.designs)",
    )
    parser.add_argument(
        "--valid", action="store_true", help="real photos of valid/ (for selection) not test/"
    )
    parser.add_argument(
        "--card-conf", type=float, default=0.3, help="identity confidence to name a card"
    )
    parser.add_argument("--turns", type=int, default=4, help="quarter turns read (1, 2, 4)")
    parser.add_argument("--detector", type=Path, default=DETECTOR_MODEL, help="a candidate")
    parser.add_argument("--identity", type=Path, default=IDENTITY_MODEL, help="a candidate")
    parser.add_argument(
        "--upright",
        type=Path,
        nargs=2,
        default=(CORNERS_MODEL, UPRIGHT_MODEL),
        metavar=("CORNERS", "READER"),
        help="candidates for the corner regressor and the upright reader",
    )
    parser.add_argument(
        "--no-upright", action="store_true", help="name every card by the classifier alone"
    )
    args = parser.parse_args()
    corners, reader = args.upright
    recogniser = Recogniser(
        args.detector,
        args.identity,
        turns=args.turns,
        card_conf=args.card_conf,
        upright=None if args.no_upright else (corners, reader),
    )
    split = "valid" if args.valid else "test"
    try:
        designs = tuple(design(name) for name in args.designs) if args.designs else TRAINING
    except KeyError as exc:
        parser.error(str(exc.args[0]))
    report = {
        f"real_{split}": real_photos(recogniser, split),
        "synthetic_1080p": (
            synthetic(recogniser, args.scenes, args.seed, designs) if args.scenes else {}
        ),
        "synthetic_1080p_held_out_design": (
            synthetic(recogniser, args.scenes, args.seed, (design(HELD_OUT),))
            if args.scenes
            else {}
        ),
        "light_chips": light_chips(recogniser, args.scenes, args.seed) if args.scenes else {},
        "printed_layouts": (
            printed_layouts(recogniser, args.scenes, args.seed) if args.scenes else {}
        ),
        "table_stills_held_out_design": (
            table_stills(recogniser, args.stills, args.seed, (design(HELD_OUT),), HELD_OUT_PRINTS)
            if args.stills
            else {}
        ),
        "table_stills": table_stills(recogniser, args.stills, args.seed, designs)
        if args.stills
        else {},
        "real_chip_colours": real_chips(),
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
