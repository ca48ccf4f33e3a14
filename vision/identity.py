"""The card identity classifier: names a face-up card from a full-resolution crop of its box.

The detector finds cards at low resolution (a tile of 320 pixels); the name comes from the
original pixels of the box, squared and scaled to the model's input side (``CROP_PX`` for the
classifiers trained now). The model is a small CNN
(``models/train_identity.py``) with one input ``crops`` [N, C, side, side] (RGB, 0..1, and for
a classifier of 4 channels the ``box_mask`` of the crop) and one output [N, 53] of logits: the
52 cards in ``engine.cards.DECK`` order, then ``none`` (not a card face: a back, a chip, a hand,
the felt), which the worker drops.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.detector import cpu_session

CROP_PX = 112
"""Side of the square crop the classifier reads: the crop of two cards lying one over the other
is about 100 pixels across at 1080p, and shrunk much further the lower card's corner index, all
there is to read of it, goes below 7 pixels."""
MARGIN = 0.08
"""Context around the box, as a fraction of its longer side, on each side."""
NONE = "none"


Box = tuple[float, float, float, float]

MASK_OWN, MASK_SHARED, MASK_OTHER = 255, 128, 64
"""The mask channel's values: the card's own box where no other card's box lies, where another
lies over it too, and the other cards' boxes outside its own (0: neither)."""


def crop_window(shape: tuple[int, ...], box: Box) -> tuple[int, int, int]:
    """Left, top and side in image pixels of the square window ``card_crop`` cuts for ``box``
    from an image of ``shape``: centred on the box (its centre kept inside the image), with
    ``MARGIN`` of context."""
    x1, y1, x2, y2 = box
    side = max(4, round(max(x2 - x1, y2 - y1) * (1 + 2 * MARGIN)))
    h, w = shape[:2]
    cx, cy = min(max((x1 + x2) / 2, 0), w), min(max((y1 + y2) / 2, 0), h)
    return round(cx - side / 2), round(cy - side / 2), side


def box_mask(
    shape: tuple[int, ...], box: Box, others: list[Box], size: int = CROP_PX
) -> np.ndarray:
    """The crop's mask channel [size, size] (uint8): where ``box`` lies, and where the boxes of
    the ``others`` (the other cards, face up or down, seen in the image) lie, in the window
    ``card_crop`` cuts. Where two cards overlap, the crop of each holds both; what of a card shows
    lies in its own box and not in the other's (the lower card's corner index, the upper card's
    body and its far index), which the mask tells the classifier."""
    left, top, side = crop_window(shape, box)
    scale = size / side
    grid = (np.arange(size, dtype=np.float32) + 0.5) / scale

    def inside(b: Box) -> np.ndarray:
        xs = (grid + left >= b[0]) & (grid + left < b[2])
        ys = (grid + top >= b[1]) & (grid + top < b[3])
        return ys[:, None] & xs[None, :]

    own = inside(box)
    other = np.zeros_like(own)
    for b in others:
        if b[0] < left + side and b[2] > left and b[1] < top + side and b[3] > top:
            other |= inside(b)
    mask = np.zeros((size, size), np.uint8)
    mask[other] = MASK_OTHER
    mask[own] = MASK_OWN
    mask[own & other] = MASK_SHARED
    return mask


def card_crop(image: np.ndarray, box: Box, size: int = CROP_PX) -> np.ndarray:
    """The square ``size`` crop of ``box`` (x1, y1, x2, y2) in ``image`` (BGR), centred on the
    box, with ``MARGIN`` of context; edges beyond the image repeat its border."""
    left, top, side = crop_window(image.shape, box)
    h, w = image.shape[:2]
    cl, ct = min(max(left, 0), w - 1), min(max(top, 0), h - 1)
    cr, cb = min(max(left + side, cl + 1), w), min(max(top + side, ct + 1), h)
    region = image[ct:cb, cl:cr]
    if region.shape[:2] != (side, side):
        region = cv2.copyMakeBorder(
            region,
            ct - top,
            side - (ct - top) - region.shape[0],
            cl - left,
            side - (cl - left) - region.shape[1],
            cv2.BORDER_REPLICATE,
        )
    shrink = side > size
    return cv2.resize(
        region, (size, size), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    )


@dataclass(frozen=True, slots=True)
class Identity:
    card: str
    """``"As"``… or ``NONE``."""
    conf: float


class IdentityClassifier:
    def __init__(self, model: Path, *, threads: int = 1, turns: int = 4) -> None:
        """``turns``: read each crop at this many quarter turns (1, 2 or 4) and average: the
        classifier learnt cards at every quarter turn, and several readings agree more often
        than one."""
        self.session = cpu_session(model, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names: list[str] = meta["names"].split(",")
        self.input = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape
        self.crop_px = shape[2] if isinstance(shape[2], int) else CROP_PX
        """The side of the crops this model reads (a candidate may read another than
        ``CROP_PX``)."""
        self.masked = shape[1] == 4
        """The model reads a fourth channel, the crop's ``box_mask``."""
        if turns not in (1, 2, 4):
            raise ValueError(f"turns: 1, 2 or 4, not {turns}")
        self.turns = turns

    def __call__(
        self, image: np.ndarray, boxes: list[Box], context: list[Box] | None = None
    ) -> list[Identity]:
        """The name of the card in each box of ``image`` (BGR, original resolution).
        ``context``: the boxes of every card seen in the image, face up or down (default
        ``boxes``), for the mask channel of a classifier that reads one."""
        if not boxes:
            return []
        return self.classify(self.crops(image, boxes, context))

    def crops(
        self, image: np.ndarray, boxes: list[Box], context: list[Box] | None = None
    ) -> np.ndarray:
        """The crops [N, side, side, C] this model reads of ``boxes`` in ``image``: BGR and, for
        a classifier of 4 channels, the ``box_mask`` of each among ``context`` (default
        ``boxes``)."""
        crops = np.stack([card_crop(image, box, self.crop_px) for box in boxes])
        if not self.masked:
            return crops
        seen = boxes if context is None else context
        masks = [
            box_mask(image.shape, box, [b for b in seen if b != box], self.crop_px) for box in boxes
        ]
        return np.concatenate([crops, np.stack(masks)[..., None]], axis=3)

    def classify(self, crops: np.ndarray) -> list[Identity]:
        """Names for ``crops`` [N, side, side, C] (BGR and, for a classifier of 4 channels, the
        ``box_mask``; uint8; ``self.crop_px``)."""
        probs = self.probabilities(crops)
        best = probs.argmax(axis=1)
        return [Identity(self.names[int(k)], float(probs[i, k])) for i, k in enumerate(best)]

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """[N, labels] probabilities of ``self.names`` for ``crops`` (as ``classify`` reads
        them): the mean of the readings at ``self.turns`` quarter turns."""
        step = 4 // self.turns
        turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(0, 4, step)])
        blob = np.ascontiguousarray(to_channels(turned).transpose(0, 3, 1, 2), dtype=np.float32)
        (logits,) = self.session.run(None, {self.input: blob / 255.0})
        logits = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        mean: np.ndarray = probs.reshape(self.turns, len(crops), -1).mean(axis=0)
        return mean


def to_channels(crops: np.ndarray) -> np.ndarray:
    """Crops [..., C] as the classifier reads their channels: BGR to RGB, a mask channel kept
    last."""
    return np.concatenate([crops[..., 2::-1], crops[..., 3:]], axis=-1)
