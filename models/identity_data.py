"""Crops for the card identity classifier: rendered table views and the real card photos.

    .venv/bin/python -m models.identity_data build/identity [--scenes 3000] [--seed 0]

Writes ``train.npz`` and ``val.npz`` (``crops`` [N, CROP_PX, CROP_PX, 3] BGR uint8, ``labels``
[N] index into ``LABELS``, ``real`` [N] bool). Each face-up card gives a crop of its box with the
box jittered the way a detector's box is off; backs, chips, hands and bare felt give ``none``
crops. Real photos: ``../shared/data/cards-real/*/train`` for training and ``valid/`` for
selection; ``test/`` is never read here.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
from pathlib import Path

import cv2
import numpy as np

from engine.cards import DECK
from models.real import REAL, real_boxes
from models.synth.scene import CARD, render
from vision.identity import NONE, card_crop

LABELS: tuple[str, ...] = (*DECK, NONE)
CARD_PX = (40.0, 220.0)
"""Card widths of the rendered views: from a 1080p view of a whole table (45 to 60 pixels) to
a close still. Smaller cards cannot be named reliably and only teach the classifier noise."""
NONE_SHARE = 0.35
"""Of the objects that are not face-up cards, the share kept as ``none`` crops."""


def jitter(
    box: tuple[float, float, float, float], rng: random.Random, amount: float = 0.08
) -> tuple[float, float, float, float]:
    """``box`` moved and resized by up to ``amount`` of its size, as a detector's box is off."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx, dy = rng.uniform(-amount, amount) * w, rng.uniform(-amount, amount) * h
    sw, sh = rng.uniform(-amount, amount) * w, rng.uniform(-amount, amount) * h
    return x1 + dx - sw / 2, y1 + dy - sh / 2, x2 + dx + sw / 2, y2 + dy + sh / 2


def _scene_crops(seed: int) -> list[tuple[np.ndarray, int]]:
    rng = random.Random(seed)
    size = rng.choice((480, 640, 800))
    scene = render(rng, size, size, card_px_range=CARD_PX, hands=int(rng.random() < 0.4))
    out = []
    for label in scene.labels:
        if label.cls == CARD:
            out.append((card_crop(scene.image, jitter(label.box, rng)), LABELS.index(label.name)))
        elif rng.random() < NONE_SHARE:
            out.append((card_crop(scene.image, jitter(label.box, rng, 0.25)), len(DECK)))
    side = rng.uniform(20, 160)  # bare felt, or whatever is there
    x, y = rng.uniform(0, size - side), rng.uniform(0, size - side)
    out.append((card_crop(scene.image, (x, y, x + side, y + side * 1.4)), len(DECK)))
    return out


def synthetic(scenes: int, seed: int, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    seeds = [seed * 1_000_003 + i for i in range(scenes)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(_scene_crops, seeds, chunksize=16)
    else:
        parts = [_scene_crops(s) for s in seeds]
    pairs = [pair for part in parts for pair in part]
    return np.stack([c for c, _ in pairs]), np.array([k for _, k in pairs], np.int16)


def real(split: str, copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every labelled card of the real ``split`` (``train`` or ``valid``)."""
    rng = random.Random(seed)
    crops, labels = [], []
    for image_path, boxes in real_boxes(split):
        image = cv2.imread(str(image_path))
        for card, box in boxes:
            for _ in range(copies):
                crops.append(card_crop(image, jitter(box, rng) if copies > 1 else box))
                labels.append(LABELS.index(card))
    return np.stack(crops), np.array(labels, np.int16)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenes", type=int, default=3000)
    parser.add_argument("--val-scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for split, scenes, real_split, copies, seed in (
        ("train", args.scenes, "train", 3, args.seed),
        ("val", args.val_scenes, "valid", 1, args.seed + 1),
    ):
        sx, sy = synthetic(scenes, seed, args.jobs)
        rx, ry = real(real_split, copies, seed)
        np.savez(
            args.out / f"{split}.npz",
            crops=np.concatenate([sx, rx]),
            labels=np.concatenate([sy, ry]),
            real=np.concatenate([np.zeros(len(sy), bool), np.ones(len(ry), bool)]),
        )
        print(f"{split}: {len(sy)} rendered + {len(ry)} real crops ({REAL})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
