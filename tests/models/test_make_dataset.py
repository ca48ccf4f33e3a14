"""The detector's rendered dataset (``models.synth.make_dataset``): the card sizes and the share
of cards lying in pairs that a split is drawn with."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.synth.make_dataset import write_split
from models.synth.scene import CARD


def _boxes(folder: Path) -> list[np.ndarray]:
    """Each frame's face-up card boxes (x1, y1, x2, y2 as fractions of the frame)."""
    out = []
    for label in sorted((folder / "labels" / "train").glob("*.txt")):
        rows = [[float(v) for v in line.split()] for line in label.read_text().splitlines()]
        cards = np.array([r[1:] for r in rows if int(r[0]) == CARD]).reshape(-1, 4)
        out.append(np.hstack([cards[:, :2] - cards[:, 2:] / 2, cards[:, :2] + cards[:, 2:] / 2]))
    return out


def _overlapping(boxes: np.ndarray) -> int:
    """Pairs of boxes that overlap."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    w = np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None])
    h = np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None])
    return int(np.triu((w > 0) & (h > 0), 1).sum())


def test_a_split_is_drawn_with_the_card_sizes_and_pair_share_asked(tmp_path: Path) -> None:
    paired, apart = tmp_path / "paired", tmp_path / "apart"
    write_split(paired, "train", 12, seed=5, size=(320, 320), card_px=(40, 70), pair_share=0.9)
    write_split(apart, "train", 12, seed=5, size=(320, 320), card_px=(40, 70), pair_share=0.0)
    assert len(list((paired / "images" / "train").glob("*.jpg"))) == 12
    paired_boxes, apart_boxes = _boxes(paired), _boxes(apart)
    # A card's box is at least its width across (less where the frame's edge cuts it) and at
    # most 1.7 times it (turned by 45 degrees).
    widths = np.concatenate(
        [np.minimum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) for b in paired_boxes]
    )
    assert 40 <= np.median(widths) * 320 <= 70 * 1.7
    pairs = sum(_overlapping(b) for b in paired_boxes)
    assert pairs > 2 * sum(_overlapping(b) for b in apart_boxes) and pairs >= 10
