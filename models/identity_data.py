"""Crops for the card identity classifier: rendered table views, frames of rendered hands on
the demo's table, and the real card photos.

    .venv/bin/python -m models.identity_data build/identity [--scenes 3000] [--videos 0]
        [--sparse-scenes 0] [--pair-scenes 0] [--no-real] [--detector ONNX] [--seed 0]

Writes ``train.npz`` and ``val.npz`` (``crops`` [N, CROP_PX, CROP_PX, 4] uint8: BGR and the
crop's ``box_mask``, ``labels`` [N] index into ``LABELS``, ``real`` [N] bool). Each face-up card
gives a crop of its box with the box jittered the way a detector's box is off, and its mask from
the other cards' boxes (each jittered too, and each missed now and then as a detector misses
one); backs, chips, hands and bare felt give ``none`` crops. ``--sparse-scenes`` adds views of
few objects (most cards whole, index readable), ``--pair-scenes`` views of cards at the
table's scale most of which lie under or over another or in a fan (``--no-real``: these
without the real crops, to train beside another set, ``train_identity --data A B``).
``--detector``: the sparse and pair views' cards cut at the boxes that detector finds, as the
worker cuts them, not at their true boxes jittered. ``--videos`` adds crops from frames of
that many rendered hands (``table_tiles``: 3 to 10 seats, camera tilt varied), JPEG-compressed
as the demo's Motion-JPEG is: the 45-to-60-pixel cards the worker names, drawn the way the
table video draws them. Real photos:
``../shared/data/cards-real/*/train`` for training and ``valid/`` for selection; ``test/`` is
never read here. Each rendered part of a split is kept in ``parts/`` as it is made, under
what made it: a run stopped part way makes again only the parts it had not finished.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import random
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from engine.cards import DECK
from models.image_file import read_image
from models.real import REAL, real_boxes
from models.synth.scene import (
    BACK,
    CARD,
    FELTS,
    INDEX_READABLE,
    LIGHT_SURFACES,
    LOOSE_PAIRS,
    TIGHT_PAIRS,
    Label,
    PairLay,
    render,
)
from models.synth.table_tiles import video_for
from models.synth.video import step_frames
from vision import recognise
from vision.identity import CROP_PX, NONE, Box, box_mask, card_crop
from vision.recognise import Recogniser
from vision.tiles import iou

LABELS: tuple[str, ...] = (*DECK, NONE)
SHEETS = (CARD, BACK)
"""The scenes' classes of a card, face up or down (the boxes a crop's mask is made of)."""
CARD_PX = (40.0, 220.0)
"""Card widths of the rendered views: from a 1080p view of a whole table (45 to 60 pixels) to
a close still. Smaller cards cannot be named reliably and only teach the classifier noise."""
NONE_SHARE = 0.35
"""Of the objects that are not face-up cards, the share kept as ``none`` crops."""
SPARSE_CARD_PX = (40.0, 130.0)
"""Card widths of the sparse views (``--sparse-scenes``): the table's scale and a little up."""
LIGHT_SHARE = 1 / 3
"""Of the sparse views, the share on a light surface: clubs and spades on every kind of table
(the real photos have clubs mostly on dark cloth and spades on light)."""
PAIR_CARD_PX = (40.0, 80.0)
"""Card widths of the pair views (``--pair-scenes``): a 1080p view of the table and a little up."""
PAIR_SHARE = 0.7
"""Of the pair views' cards, the share with a second card lying over them (the other views:
a quarter)."""
FAN_SHARE = 0.15
"""Of the rendered views' face-up cards, the share that starts a fan of three to five cards
(``scene.lay_fan``: a hand spread, each card's index beside the next card's edge); twice that
in the pair views."""


def jitter(
    box: tuple[float, float, float, float], rng: random.Random, amount: float = 0.08
) -> tuple[float, float, float, float]:
    """``box`` moved and resized by up to ``amount`` of its size, as a detector's box is off."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx, dy = rng.uniform(-amount, amount) * w, rng.uniform(-amount, amount) * h
    sw, sh = rng.uniform(-amount, amount) * w, rng.uniform(-amount, amount) * h
    return x1 + dx - sw / 2, y1 + dy - sh / 2, x2 + dx + sw / 2, y2 + dy + sh / 2


OTHER_JITTER = 0.04
"""How far off the other cards' boxes (the mask channel's) are, as a fraction of their size."""
OTHER_MISSED = 0.1
"""The share of the other cards left out of a crop's mask, as a detector misses a card now and
then (or merges two lying one over the other into one box)."""


def crop_of(image: np.ndarray, box: Box, others: list[Box], rng: random.Random) -> np.ndarray:
    """The classifier's input for ``box``: its crop and its mask from the boxes of the ``others``
    (the other cards, face up or down), each missed at ``OTHER_MISSED``."""
    kept = [b for b in others if rng.random() >= OTHER_MISSED]
    return np.dstack([card_crop(image, box), box_mask(image.shape, box, kept)])


def _seen(labels: Sequence[Label], rng: random.Random) -> dict[int, Box]:
    """The boxes of the cards among ``labels`` (face up or down), as a detector finds them."""
    return {i: jitter(lb.box, rng, OTHER_JITTER) for i, lb in enumerate(labels) if lb.cls in SHEETS}


def _label_crops(
    image: np.ndarray,
    labels: Sequence[Label],
    rng: random.Random,
    none_share: float,
    index_shown: float = 0.0,
) -> list[tuple[np.ndarray, int]]:
    """A crop of each face-up card showing at least ``index_shown`` of a corner index, and
    ``none`` crops of a ``none_share`` of the other objects; each with its mask from the other
    cards."""
    seen = _seen(labels, rng)
    out = []
    for i, label in enumerate(labels):
        others = [b for j, b in seen.items() if j != i]
        if label.cls == CARD and label.index_shown >= index_shown:
            box = jitter(label.box, rng)
            out.append((crop_of(image, box, others, rng), LABELS.index(label.name)))
        elif label.cls != CARD and rng.random() < none_share:
            box = jitter(label.box, rng, 0.25)
            out.append((crop_of(image, box, others, rng), len(DECK)))
    return out


def _scene_crops(seed: int) -> list[tuple[np.ndarray, int]]:
    rng = random.Random(seed)
    size = rng.choice((480, 640, 800))
    hands = int(rng.random() < 0.4)
    scene = render(rng, size, size, card_px_range=CARD_PX, hands=hands, fan_share=FAN_SHARE)
    out = _label_crops(scene.image, scene.labels, rng, NONE_SHARE)
    side = rng.uniform(20, 160)  # bare felt, or whatever is there
    x, y = rng.uniform(0, size - side), rng.uniform(0, size - side)
    seen = list(_seen(scene.labels, rng).values())
    out.append((crop_of(scene.image, (x, y, x + side, y + side * 1.4), seen, rng), len(DECK)))
    return out


def _few_card_crops(
    seed: int,
    card_px: tuple[float, float],
    light_share: float,
    hand_share: float,
    pair_share: float = 0.25,
    detector: Path | None = None,
    fan_share: float = 0.0,
    pairs: PairLay = LOOSE_PAIRS,
) -> list[tuple[np.ndarray, int]]:
    """The crops of a 960 x 720 view of 2-6 face-up cards ``card_px`` wide and a few other
    objects, ``light_share`` of such views on a light surface, JPEG-compressed half the time;
    a card is kept when its corner index is readable (``INDEX_READABLE``: one whose rank and
    suit are hidden teaches the classifier to guess). With ``detector``, each card is cut at
    the box that detector finds for it (``_detected_crops``)."""
    rng = random.Random(seed)
    light = rng.random() < light_share
    scene = render(
        rng,
        960,
        720,
        card_px_range=card_px,
        surfaces=LIGHT_SURFACES if light else FELTS,
        cards_up=rng.randint(2, 6),
        cards_down=rng.randint(0, 3),
        chip_piles=rng.randint(0, 3),
        hands=int(rng.random() < hand_share),
        pair_share=pair_share,
        pairs=pairs,
        fan_share=fan_share,
    )
    image = scene.image
    if rng.random() < 0.5:
        image = _as_jpeg(image, rng.randint(*JPEG_QUALITY))
    if detector is not None:
        return _detected_crops(image, scene.labels, _recogniser(detector), rng)
    return _label_crops(image, scene.labels, rng, NONE_SHARE, INDEX_READABLE)


_RECOGNISERS: dict[Path, Recogniser] = {}
"""Each pool worker's detector (and readers), loaded once."""


def _recogniser(detector: Path) -> Recogniser:
    if detector not in _RECOGNISERS:
        _RECOGNISERS[detector] = Recogniser(detector)
    return _RECOGNISERS[detector]


DETECTED_IOU = 0.5
"""A detector's box names the true card it overlaps this much (the evaluation's match)."""


def detected_cards(
    image: np.ndarray, labels: Sequence[Label], recogniser: Recogniser, index_shown: float
) -> tuple[list[tuple[Box, Label]], list[Box]]:
    """What the worker finds of ``labels``' face-up cards that show ``index_shown`` of a corner
    index: the box the detector finds for each (read in tiles, as the worker reads a frame; a
    card it does not find is left out), and every card or back it finds (face up or down)."""
    found = recogniser.detect_frame(image)
    sheets = [d.box for d in found if d.label in recognise.SHEETS]
    faces = [d.box for d in found if d.label == recognise.CARD]
    cards = []
    for label in labels:
        if label.cls != CARD or label.index_shown < index_shown or not faces:
            continue
        box = max(faces, key=lambda b: iou(b, label.box))
        if iou(box, label.box) >= DETECTED_IOU:
            cards.append((box, label))
    return cards, sheets


def _detected_crops(
    image: np.ndarray, labels: Sequence[Label], recogniser: Recogniser, rng: random.Random
) -> list[tuple[np.ndarray, int]]:
    """The crops the worker cuts: each readable face-up card of ``labels`` at the box the
    detector finds for it (``detected_cards``), its mask from every other card or back the
    detector finds (its misses and merged boxes are the worker's too). ``none`` crops as
    ``_label_crops`` cuts them."""
    cards, sheets = detected_cards(image, labels, recogniser, INDEX_READABLE)
    out = []
    for box, label in cards:
        others = [b for b in sheets if b != box]
        crop = np.dstack([card_crop(image, box), box_mask(image.shape, box, others)])
        out.append((crop, LABELS.index(label.name)))
    nones = [lb for lb in labels if lb.cls != CARD]
    return out + _label_crops(image, nones, rng, NONE_SHARE)


def _sparse_crops(seed: int, detector: Path | None = None) -> list[tuple[np.ndarray, int]]:
    """Few objects on a wide table, so that most cards show whole: where the cluttered views
    teach what a neighbour's index looks like, these teach the suits apart (a club from a
    spade at 7 pixels a pip)."""
    return _few_card_crops(seed, SPARSE_CARD_PX, LIGHT_SHARE, 0.2, detector=detector)


def _pair_crops(seed: int, detector: Path | None = None) -> list[tuple[np.ndarray, int]]:
    """Cards at the table's scale, most lying under or over another (a hand held or shown): the
    lower card of a pair shows little more than its corner index beside the upper card's, and
    the classifier must read the index of its own box (most rendered misses are such cards,
    their index whole in view), laid as players leave them (``TIGHT_PAIRS``), some spread in a
    fan. A sixth of the views are on a light surface."""
    return _few_card_crops(
        seed,
        PAIR_CARD_PX,
        LIGHT_SHARE / 2,
        0.3,
        PAIR_SHARE,
        detector,
        2 * FAN_SHARE,
        TIGHT_PAIRS,
    )


VIDEO_FRAMES = 16
"""Frames picked from each rendered hand for ``--videos``: half anywhere, half in its last
two fifths (the board and the showdown: most face-up cards)."""
JPEG_QUALITY = (75, 95)


def _as_jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` as a camera's Motion-JPEG delivers it at ``quality``."""
    _, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))


def _video_crops(seed: int) -> list[tuple[np.ndarray, int]]:
    video = video_for(seed)
    rng = random.Random(seed ^ 0x1DC0)
    _, length = step_frames(video.script)
    half = VIDEO_FRAMES // 2
    late = range(length * 3 // 5, length)
    picked = set(rng.sample(range(length), half) + rng.sample(late, min(half, len(late))))
    out = []
    for frame in video.frames(draw=picked.__contains__):
        if frame.index not in picked:
            continue
        image = _as_jpeg(frame.image, rng.randint(*JPEG_QUALITY))
        labels = [Label(VIDEO_KINDS.get(obj.kind, -1), obj.box, obj.name) for obj in frame.objects]
        out += _label_crops(image, labels, rng, NONE_SHARE / 10)  # a table has many chips, backs
    return out


VIDEO_KINDS = {"card": CARD, "card_back": BACK}
"""A table video's objects as the scenes' labels' classes (the others are not cards: -1)."""


def _crops(
    make: Callable[[int], list[tuple[np.ndarray, int]]], seeds: list[int], jobs: int
) -> tuple[np.ndarray, np.ndarray]:
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(make, seeds, chunksize=max(1, min(16, len(seeds) // (4 * jobs))))
    else:
        parts = [make(s) for s in seeds]
    made = [pair for part in parts for pair in part]
    if not made:
        return _empty()
    return np.stack([c for c, _ in made]), np.array([k for _, k in made], np.int16)


def _empty() -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((0, CROP_PX, CROP_PX, 4), np.uint8), np.zeros(0, np.int16)


def synthetic(scenes: int, seed: int, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    return _crops(_scene_crops, [seed * 1_000_003 + i for i in range(scenes)], jobs)


def sparse(
    scenes: int, seed: int, jobs: int, detector: Path | None = None
) -> tuple[np.ndarray, np.ndarray]:
    return _crops(
        partial(_sparse_crops, detector=detector),
        [700_000_000 + seed * 1_000_003 + i for i in range(scenes)],
        jobs,
    )


def pairs(
    scenes: int, seed: int, jobs: int, detector: Path | None = None
) -> tuple[np.ndarray, np.ndarray]:
    return _crops(
        partial(_pair_crops, detector=detector),
        [800_000_000 + seed * 1_000_003 + i for i in range(scenes)],
        jobs,
    )


def table_videos(videos: int, seed: int, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops from frames of ``videos`` rendered hands (seeds apart from the demo's sessions)."""
    return _crops(_video_crops, [900_000 + seed * 10_000 + i for i in range(videos)], jobs)


def real(split: str, copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every labelled card of the real ``split`` (``train`` or ``valid``)."""
    rng = random.Random(seed)
    crops, labels = [], []
    for image_path, boxes in real_boxes(split):
        image = read_image(image_path)
        for i, (card, box) in enumerate(boxes):
            others = [b for j, (_, b) in enumerate(boxes) if j != i]
            for _ in range(copies):
                own = jitter(box, rng) if copies > 1 else box
                crops.append(crop_of(image, own, others, rng))
                labels.append(LABELS.index(card))
    return np.stack(crops), np.array(labels, np.int16)


def kept(
    out: Path, name: str, key: str, make: Callable[[], tuple[np.ndarray, np.ndarray]]
) -> tuple[np.ndarray, np.ndarray]:
    """``make()``'s crops and labels, kept in ``out/parts/NAME.npz`` with ``key`` (what made
    them): read back where the key is the same, made and kept otherwise."""
    path = out / "parts" / f"{name}.npz"
    if path.exists():
        with np.load(path) as part:
            if str(part["key"]) == key:
                return part["crops"], part["labels"]
    crops, labels = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, crops=crops, labels=labels, key=np.array(key))
    os.replace(tmp, path)
    return crops, labels


def _file_sha256(path: Path | None) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else "none"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenes", type=int, default=3000)
    parser.add_argument("--val-scenes", type=int, default=300)
    parser.add_argument("--videos", type=int, default=0, help="rendered hands on the table")
    parser.add_argument("--val-videos", type=int, default=0)
    parser.add_argument("--sparse-scenes", type=int, default=0, help="views of few objects")
    parser.add_argument("--val-sparse-scenes", type=int, default=0)
    parser.add_argument("--pair-scenes", type=int, default=0, help="views of overlapping cards")
    parser.add_argument("--val-pair-scenes", type=int, default=0)
    parser.add_argument(
        "--no-real", action="store_true", help="rendered crops only (to train beside another set)"
    )
    parser.add_argument(
        "--detector",
        type=Path,
        help="cut the sparse and pair views' cards at this detector's boxes (ONNX), not at"
        " their true boxes jittered",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    detector = _file_sha256(args.detector)
    for split, scenes, videos, few, two, real_split, copies, seed in (
        (
            "train",
            args.scenes,
            args.videos,
            args.sparse_scenes,
            args.pair_scenes,
            "train",
            0 if args.no_real else 3,
            args.seed,
        ),
        (
            "val",
            args.val_scenes,
            args.val_videos,
            args.val_sparse_scenes,
            args.val_pair_scenes,
            "valid",
            0 if args.no_real else 1,
            args.seed + 1,
        ),
    ):
        sx, sy = kept(
            args.out,
            f"{split}-scenes",
            f"{scenes} {seed}",
            partial(synthetic, scenes, seed, args.jobs),
        )
        vx, vy = kept(
            args.out,
            f"{split}-videos",
            f"{videos} {seed}",
            partial(table_videos, videos, seed, args.jobs),
        )
        px, py = kept(
            args.out,
            f"{split}-sparse",
            f"{few} {seed} {detector}",
            partial(sparse, few, seed, args.jobs, args.detector),
        )
        qx, qy = kept(
            args.out,
            f"{split}-pairs",
            f"{two} {seed} {detector}",
            partial(pairs, two, seed, args.jobs, args.detector),
        )
        sx, sy = np.concatenate([sx, vx, px, qx]), np.concatenate([sy, vy, py, qy])
        rx, ry = real(real_split, copies, seed) if copies else _empty()
        np.savez(
            args.out / f"{split}.npz",
            crops=np.concatenate([sx, rx]),
            labels=np.concatenate([sy, ry]),
            real=np.concatenate([np.zeros(len(sy), bool), np.ones(len(ry), bool)]),
        )
        print(
            f"{split}: {len(sy) - len(vy) - len(py) - len(qy)} rendered + {len(vy)} table-video"
            f" + {len(py)} sparse + {len(qy)} pair + {len(ry)} real"
            f" crops ({REAL})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
