"""The real card photos of ``../shared/data/cards-real``: their labels in our card names.

Splits: ``train`` (training), ``valid`` (model selection), ``test`` (evaluation only: the
evaluation reads it, nothing that trains or tunes does).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import yaml

from models.image_file import read_image

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "data" / "cards-real"

RANK_WORDS = {
    "ace": "A", "king": "K", "queen": "Q", "jack": "J", "10": "T", "9": "9", "8": "8", "7": "7",
    "6": "6", "5": "5", "4": "4", "3": "3", "2": "2",
}  # fmt: skip
SUIT_WORDS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}

Box = tuple[float, float, float, float]


def real_class(name: str) -> str:
    """``'10 of clubs'`` -> ``'Tc'`` (the upstream list has ``'jack  of clubs'``)."""
    rank, _, suit = name.replace("  ", " ").partition(" of ")
    return RANK_WORDS[rank.strip()] + SUIT_WORDS[suit.strip()]


def datasets(root: Path = REAL) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "data.yaml").is_file())


def real_boxes(split: str, root: Path = REAL) -> Iterator[tuple[Path, list[tuple[str, Box]]]]:
    """Each image of ``split`` with its cards: (name, box in pixels)."""

    for dataset in datasets(root):
        names = yaml.safe_load((dataset / "data.yaml").read_text())["names"]
        for image in sorted((dataset / split / "images").glob("*.jpg")):
            label = dataset / split / "labels" / (image.stem + ".txt")
            h, w = read_image(image).shape[:2]
            boxes = []
            for line in label.read_text().splitlines():
                if not line.strip():
                    continue
                cls, cx, cy, bw, bh = line.split()
                x, y, bw_px, bh_px = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
                box = (x - bw_px / 2, y - bh_px / 2, x + bw_px / 2, y + bh_px / 2)
                boxes.append((real_class(names[int(cls)]), box))
            yield image, boxes
