"""Rendered training data for the corner regressor and the upright reader (``vision.upright``).

    .venv/bin/python -m models.upright_data build/upright --pair-views 5000 --table-views 2000
        [--detector ONNX]

Two kinds of rendered view, as ``models.identity_data`` renders them: 960 x 720 views of 2-6
face-up cards at the table's scale, most lying under or over another, and 1920 x 1080 tables
(``models.eval.view``, at seeds far from the evaluation's). Each view gives, for its face-up
cards (and 30 % of its backs, for the regressor):

- ``corners-{train,val}.npz``: ``crops`` [N, 112, 112, 4] (the classifier's crop and mask of the
  card's box jittered as a detector's is) and ``poses`` [N, 6] (``vision.upright.POSE`` of the
  card's true corners in that crop);
- ``views-{train,val}.npz``: ``views`` [N, 90, 64, 4] (the card warped upright from its true
  corners, each moved by up to ``CORNER_JITTER`` of the card's width, at either half turn, with
  the other cards' corners in the mask) and ``labels`` [N] (``DECK`` index), for the cards that
  show at least ``INDEX_SHOWN`` of a corner index; with ``--detector``, the views the worker
  reads (``detected_views``).

One view in 20 goes to validation.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine.cards import DECK
from models.eval import view
from models.identity_data import (
    FAN_SHARE,
    JPEG_QUALITY,
    LIGHT_SHARE,
    PAIR_CARD_PX,
    PAIR_SHARE,
    SHEETS,
    _as_jpeg,
    _recogniser,
    _seen,
    crop_of,
    detected_cards,
    jitter,
)
from models.synth.designs import TRAINING_MIX
from models.synth.scene import BACK, CARD, FELTS, LIGHT_SURFACES, Label, render
from vision.identity import crop_window
from vision.recognise import Recogniser
from vision.upright import outlines, pose_of_quad, upright_view

PAIR_SEED, TABLE_SEED = 7_000_000, 8_000_000
"""First seeds of the two kinds of view (the evaluation's tables start at ``EVAL_SEED`` and
``SELECTION_SEED``, far below)."""
CORNER_JITTER = 0.04
"""How far off a card's corners are for its upright view, as a fraction of its width."""
OTHER_CORNER_JITTER = 0.02
OTHER_MISSED = 0.1
"""The other cards' corners are off by up to this much, and a card is left out at this rate."""
INDEX_SHOWN = 0.3
BACK_SHARE = 0.3
"""Share of the card backs whose crops the regressor learns (a back's outline is as much a card's
as a face's: the mask of a face over it needs it)."""

Sample = tuple[list[tuple[np.ndarray, np.ndarray]], list[tuple[np.ndarray, int]]]


def _moved(quad: Sequence[Sequence[float]], rng: random.Random, amount: float) -> np.ndarray:
    """``quad`` moved as a whole and each corner apart by up to ``amount`` of its top side."""
    q = np.array(quad, np.float32)
    width = float(np.linalg.norm(q[1] - q[0]))
    shift = [rng.uniform(-amount, amount) * width for _ in range(2)]
    apart = [[rng.uniform(-amount, amount) * width for _ in range(2)] for _ in range(4)]
    moved: np.ndarray = q + np.array(shift, np.float32) + np.array(apart, np.float32)
    return moved


def samples(
    image: np.ndarray,
    labels: Sequence[Label],
    rng: random.Random,
    recogniser: Recogniser | None = None,
) -> Sample:
    """The regressor's and the reader's samples of one rendered view; with ``recogniser``, the
    reader's as the worker makes them (``detected_views``)."""
    seen = _seen(labels, rng)
    outlines = {
        i: _moved(lb.corners, rng, OTHER_CORNER_JITTER)
        for i, lb in enumerate(labels)
        if lb.cls in SHEETS
    }
    corners, views = [], []
    for i, lb in enumerate(labels):
        if lb.cls == CARD or (lb.cls == BACK and rng.random() < BACK_SHARE):
            box = jitter(lb.box, rng)
            crop = crop_of(image, box, [b for j, b in seen.items() if j != i], rng)
            corners.append(
                (crop, pose_of_quad(np.array(lb.corners), crop_window(image.shape, box)))
            )
        if lb.cls == CARD and lb.index_shown >= INDEX_SHOWN and recogniser is None:
            others = [q for j, q in outlines.items() if j != i and rng.random() >= OTHER_MISSED]
            quad = _moved(lb.corners, rng, CORNER_JITTER)
            turned = rng.random() < 0.5
            views.append((upright_view(image, quad, others, turned=turned), DECK.index(lb.name)))
    if recogniser is not None:
        views = detected_views(image, labels, recogniser, rng)
    return corners, views


def detected_views(
    image: np.ndarray, labels: Sequence[Label], recogniser: Recogniser, rng: random.Random
) -> list[tuple[np.ndarray, int]]:
    """The upright views the worker reads: each face-up card that shows ``INDEX_SHOWN`` of a
    corner index, at the box its detector finds for it (``detected_cards``), warped upright
    along the corners its corner regressor reads, the outlines of the cards it finds around it
    in the mask; at either half turn."""
    cards, sheets = detected_cards(image, labels, recogniser, INDEX_SHOWN)
    if not cards or recogniser.upright is None:
        return []
    boxes = [box for box, _ in cards]
    quads, near = outlines(recogniser.identity, recogniser.upright, image, boxes, sheets)
    return [
        (upright_view(image, quad, around, turned=rng.random() < 0.5), DECK.index(label.name))
        for quad, around, (_, label) in zip(quads, near, cards, strict=True)
    ]


def _pair_view(seed: int, recogniser: Recogniser | None) -> Sample:
    rng = random.Random(seed)
    light = rng.random() < LIGHT_SHARE / 2
    scene = render(
        rng,
        960,
        720,
        card_px_range=PAIR_CARD_PX,
        surfaces=LIGHT_SURFACES if light else FELTS,
        cards_up=rng.randint(2, 6),
        cards_down=rng.randint(0, 3),
        chip_piles=rng.randint(0, 3),
        hands=int(rng.random() < 0.3),
        pair_share=PAIR_SHARE,
        fan_share=2 * FAN_SHARE,
    )
    image = scene.image if rng.random() < 0.5 else _as_jpeg(scene.image, rng.randint(*JPEG_QUALITY))
    return samples(image, scene.labels, rng, recogniser)


def _table_view(seed: int, recogniser: Recogniser | None) -> Sample:
    scene = view(seed, TRAINING_MIX)
    rng = random.Random(seed ^ 77)
    image = scene.image if rng.random() < 0.5 else _as_jpeg(scene.image, rng.randint(*JPEG_QUALITY))
    return samples(image, scene.labels, rng, recogniser)


def _job(job: tuple[str, int, Path | None]) -> Sample:
    kind, seed, detector = job
    recogniser = None if detector is None else _recogniser(detector)
    return _pair_view(seed, recogniser) if kind == "pair" else _table_view(seed, recogniser)


def build(
    out: Path, pair_views: int, table_views: int, jobs: int, detector: Path | None = None
) -> dict[str, int]:
    """Render the views and write the four files; the number of samples in each. With
    ``detector``, the reader's views are those the worker reads with it and the committed
    corner regressor (``detected_views``)."""
    todo = [("pair", PAIR_SEED + i, detector) for i in range(pair_views)]
    todo += [("table", TABLE_SEED + i, detector) for i in range(table_views)]
    random.Random(0).shuffle(todo)
    with multiprocessing.Pool(jobs) as pool:
        made = pool.map(_job, todo, chunksize=8)
    held = max(1, len(made) // 20)  # at least one view to validate on
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for split, part in (("val", made[:held]), ("train", made[held:])):
        corners = [c for sample in part for c in sample[0]]
        views = [v for sample in part for v in sample[1]]
        np.savez(
            out / f"corners-{split}.npz",
            crops=np.stack([c for c, _ in corners]),
            poses=np.stack([p for _, p in corners]),
        )
        np.savez(
            out / f"views-{split}.npz",
            views=np.stack([v for v, _ in views]),
            labels=np.array([k for _, k in views], np.int16),
        )
        counts[f"corners-{split}"], counts[f"views-{split}"] = len(corners), len(views)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--pair-views", type=int, default=5000)
    parser.add_argument("--table-views", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--detector",
        type=Path,
        help="the reader's views as the worker makes them with this detector (ONNX) and the"
        " committed corner regressor, not from the cards' true corners moved at random",
    )
    args = parser.parse_args()
    counts = build(args.out, args.pair_views, args.table_views, args.jobs, args.detector)
    print(", ".join(f"{name}: {n}" for name, n in counts.items()), f"in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
