"""Reading a face-up card turned upright, as a dealer would.

Where one card lies over another, the crop of the lower card's box (``vision.identity``) holds
both, turned as they lie, and the classifier reads its corner index from a few pixels in the
corner of a square. Two more networks read such a card as a dealer would, turned upright:

- the corner regressor (``models/corners.onnx``) reads the classifier's crop and mask of a card
  and gives the card's outline as a rectangle: its centre, its two sides and the angle of its
  long side (``quad_of_pose``);
- the upright reader (``models/upright.onnx``) reads the card cut out along that outline and
  warped upright to ``VIEW_W_PX`` x ``VIEW_H_PX`` (``upright_view``), with a fourth channel that
  says where the other cards' outlines lie over it, at both half turns, and names it.

Its reading is fused with the classifier's (``fused_names``, the geometric mean of their
probabilities) for every face-up card, not only those whose box touches another's: for a card
alone too, the two readings are wrong on different cards. Two touching boxes never name the
same card (``one_each``): one deck holds each card once, and the box of a card under another
can read the upper card. Both networks are trained on rendered tables only
(``models/train_upright.py``; the renderer draws every card's corners).
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from engine.cards import DECK
from vision.detector import cpu_session
from vision.identity import (
    MASK_OTHER,
    MASK_OWN,
    MASK_SHARED,
    NONE,
    Box,
    Identity,
    IdentityClassifier,
    crop_window,
    to_channels,
)

VIEW_W_PX, VIEW_H_PX = 64, 90
"""The upright view of a card (its short side across, as a card is 63 x 88 mm)."""
VIEW_MARGIN_PX = 4
"""Pixels of table the view keeps around the card's outline on each side."""
POSE = ("cx", "cy", "a", "b", "cos2phi", "sin2phi")
"""The corner regressor's outputs: the outline's centre, short side ``a`` and long side ``b`` as
fractions of the crop's side, and the angle ``phi`` of the long side (doubled: a card turned by
a half turn has the same outline)."""

Quad = np.ndarray
"""[4, 2] float32 image pixels: a card's corners, top left, top right, bottom right, bottom left
of the card held upright (up to a half turn)."""


def quad_of_pose(pose: np.ndarray, window: tuple[int, int, int]) -> Quad:
    """The corners in image pixels of the rectangle ``pose`` (``POSE``, one row of the corner
    regressor) read from the crop cut at ``window`` (``crop_window``: left, top, side)."""
    cx, cy, a, b, cos2, sin2 = (float(v) for v in pose)
    phi = math.atan2(sin2, cos2) / 2
    along = np.array([math.cos(phi), math.sin(phi)])  # the long side, top to bottom
    across = np.array([along[1], -along[0]])  # the short side, left to right
    top_left = np.array([cx, cy]) - a / 2 * across - b / 2 * along
    quad = np.array(
        [top_left, top_left + a * across, top_left + a * across + b * along, top_left + b * along]
    )
    left, top, side = window
    return (quad * side + [left, top]).astype(np.float32)


def pose_of_quad(quad: Quad, window: tuple[int, int, int]) -> np.ndarray:
    """The regressor's target (``POSE``) for a card's true corners ``quad`` in the crop cut at
    ``window``: the inverse of ``quad_of_pose`` for a rectangle."""
    left, top, side = window
    q = (np.asarray(quad, np.float64) - [left, top]) / side
    along = (q[3] - q[0] + q[2] - q[1]) / 2
    long_side = float(np.linalg.norm(along))
    short_side = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    angle = 2 * math.atan2(along[1], along[0])
    centre = q.mean(axis=0)
    return np.array(
        [centre[0], centre[1], short_side, long_side, math.cos(angle), math.sin(angle)],
        np.float32,
    )


def upright_view(
    image: np.ndarray, quad: Quad, others: list[Quad], *, turned: bool = False
) -> np.ndarray:
    """The card of corners ``quad`` in ``image`` (BGR) warped upright to [``VIEW_H_PX``,
    ``VIEW_W_PX``, 4] uint8: BGR and a mask of the card's outline (``MASK_OWN``), where one of
    ``others`` (the other cards' corners) lies over it (``MASK_SHARED``) and where they lie
    beside it (``MASK_OTHER``). ``turned``: the view turned by a half turn."""
    src = np.asarray(quad, np.float32)
    if turned:
        src = src[[2, 3, 0, 1]]
    m = VIEW_MARGIN_PX
    dst = np.array(
        [[m, m], [VIEW_W_PX - m, m], [VIEW_W_PX - m, VIEW_H_PX - m], [m, VIEW_H_PX - m]], np.float32
    )
    warp = cv2.getPerspectiveTransform(src, dst)
    size = (VIEW_W_PX, VIEW_H_PX)
    view = cv2.warpPerspective(
        image, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    mask = np.zeros((VIEW_H_PX, VIEW_W_PX), np.uint8)
    cv2.fillConvexPoly(mask, np.round(dst).astype(np.int32), MASK_OWN)
    for other in others:
        corners = cv2.perspectiveTransform(np.asarray(other, np.float32)[None], warp)[0]
        if not np.isfinite(corners).all():
            continue  # a quad behind the warp's horizon: nowhere near the card
        over = np.zeros_like(mask)
        cv2.fillConvexPoly(over, np.round(corners).astype(np.int32), 1)
        mask[(over > 0) & (mask == MASK_OWN)] = MASK_SHARED
        mask[(over > 0) & (mask == 0)] = MASK_OTHER
    return np.dstack([view, mask])


def touches(a: Box, b: Box) -> bool:
    """The two boxes share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class UprightReader:
    """The corner regressor and the upright reader in onnxruntime."""

    def __init__(self, corners: Path, reader: Path, *, threads: int = 1) -> None:
        self.corners = cpu_session(corners, threads)
        self.reader = cpu_session(reader, threads)
        names = self.reader.get_modelmeta().custom_metadata_map.get("names", "").split(",")
        if names != list(DECK):
            raise ValueError(f"{reader}: names in its metadata are not the 52 cards in DECK order")
        self.corners_input = self.corners.get_inputs()[0].name
        self.reader_input = self.reader.get_inputs()[0].name

    def quads(self, crops: np.ndarray, windows: list[tuple[int, int, int]]) -> list[Quad]:
        """Each card's corners in image pixels from its classifier crop and mask ``crops`` [N,
        side, side, 4] (BGR and ``box_mask``) cut at ``windows``."""
        blob = np.ascontiguousarray(to_channels(crops).transpose(0, 3, 1, 2), dtype=np.float32)
        (poses,) = self.corners.run(None, {self.corners_input: blob / 255.0})
        return [quad_of_pose(p, w) for p, w in zip(poses, windows, strict=True)]

    def probabilities(
        self, image: np.ndarray, quads: list[Quad], others: list[list[Quad]]
    ) -> np.ndarray:
        """[N, 52] probabilities of each card in ``DECK`` order for the cards of corners
        ``quads`` in ``image``, each with the corners of the cards around it (``others``): the
        mean of its readings at both half turns."""
        views = [
            upright_view(image, quad, near, turned=turned)
            for turned in (False, True)
            for quad, near in zip(quads, others, strict=True)
        ]
        blob = np.ascontiguousarray(
            to_channels(np.stack(views)).transpose(0, 3, 1, 2), dtype=np.float32
        )
        (log_probs,) = self.reader.run(None, {self.reader_input: blob / 255.0})
        mean: np.ndarray = np.exp(log_probs).reshape(2, len(quads), -1).mean(axis=0)
        return mean


def outlines(
    classifier: IdentityClassifier,
    upright: UprightReader,
    image: np.ndarray,
    boxes: list[Box],
    seen: list[Box],
    crops: np.ndarray | None = None,
) -> tuple[list[Quad], list[list[Quad]]]:
    """The corners of the card in each box of ``boxes`` and of the cards of ``seen`` that touch
    it (their outlines say what lies over it), from the corner regressor's reading of each
    one's classifier crop; ``crops``: those of ``boxes``, where cut already."""
    near = [[o for o in seen if o != box and touches(box, o)] for box in boxes]
    # Every card to read and every card that touches one: its outline tells where it lies.
    pairs = zip(boxes, near, strict=True)
    outlined = list(dict.fromkeys(b for box, around in pairs for b in [box, *around]))
    cropped = {} if crops is None else dict(zip(boxes, crops, strict=True))
    others = [b for b in outlined if b not in cropped]
    if others:
        cropped.update(zip(others, classifier.crops(image, others, seen), strict=True))
    windows = [crop_window(image.shape, b) for b in outlined]
    quads = dict(
        zip(outlined, upright.quads(np.stack([cropped[b] for b in outlined]), windows), strict=True)
    )
    return [quads[b] for b in boxes], [[quads[o] for o in around] for around in near]


def fused_names(
    classifier: IdentityClassifier,
    upright: UprightReader | None,
    image: np.ndarray,
    boxes: list[Box],
    context: list[Box] | None = None,
) -> list[Identity]:
    """The name of the card in each box of ``image`` (BGR, original resolution): ``classifier``'s
    reading fused with ``upright``'s reading of the card turned upright (the geometric mean of
    the two networks' probabilities of the 52 cards), where the outlines of the cards of
    ``context`` that touch it (every card seen, face up or down; default ``boxes``) say what lies
    over it. A face the classifier calls ``none`` stays ``none``; without ``upright``, the
    classifier's reading. No two touching boxes name the same card (``one_each``)."""
    if not boxes:
        return []
    seen = boxes if context is None else context
    crops = classifier.crops(image, boxes, seen)
    probs = classifier.probabilities(crops)
    names = [classifier.names[int(k)] for k in probs.argmax(axis=1)]
    out = [Identity(name, float(p.max())) for name, p in zip(names, probs, strict=True)]
    faces = [i for i, name in enumerate(names) if name != NONE]
    if not faces:
        return out
    cards = [classifier.names.index(card) for card in DECK]
    deck = probs[faces][:, cards]
    deck /= deck.sum(axis=1, keepdims=True)
    if upright is not None:
        quads, near = outlines(
            classifier, upright, image, [boxes[i] for i in faces], seen, crops[faces]
        )
        deck = np.sqrt(deck * upright.probabilities(image, quads, near))
        deck /= deck.sum(axis=1, keepdims=True)
        for i, p in zip(faces, deck, strict=True):
            k = int(p.argmax())
            out[i] = Identity(DECK[k], float(p[k]))
    for i, identity in zip(faces, one_each([boxes[i] for i in faces], deck), strict=True):
        if identity is not None:
            out[i] = identity
    return out


def one_each(boxes: list[Box], probs: np.ndarray) -> list[Identity | None]:
    """Where two touching boxes name the same card (``probs`` [N, 52] in ``DECK`` order), the
    new name of one of them, None for the others: the box of a card under another holds both,
    and both readings can name the upper card, but one deck holds each card once. Of the two,
    the box that keeps the card is the one that leaves the pair the likelier (the product of
    the card's probability in it and the other's best other card); the other names its best
    other card, with its probabilities given that it is not that card (the rest renormalised).
    """
    taken = np.array(probs, np.float64)
    named = taken.argmax(axis=1)
    changed: list[Identity | None] = [None] * len(boxes)
    pairs = [
        (i, j)
        for i in range(len(boxes))
        for j in range(i + 1, len(boxes))
        if touches(boxes[i], boxes[j])
    ]
    for _ in range(len(boxes) * len(DECK)):  # each round takes a card from one box for good
        clash = next(((i, j) for i, j in pairs if named[i] == named[j]), None)
        if clash is None:
            break
        i, j = clash
        card = named[i]
        rest_i, rest_j = np.delete(taken[i], card).max(), np.delete(taken[j], card).max()
        loser = j if taken[i, card] * rest_j >= taken[j, card] * rest_i else i
        taken[loser, card] = 0.0
        left = taken[loser].sum()
        if left <= 0:
            break
        taken[loser] /= left
        named[loser] = int(taken[loser].argmax())
        changed[loser] = Identity(DECK[named[loser]], float(taken[loser, named[loser]]))
    return changed
