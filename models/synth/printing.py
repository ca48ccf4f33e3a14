"""What a table's cloth has printed on it: a box for each card of the board, boxes for the burn
and the muck (a card's shape or any, alone or in a row, some with their word inside), betting
circles, the betting line's arc, straight lines and words, printed lighter or darker than the
cloth, in white or in gold, faded and soft at the edge. Nothing printed is labelled: an empty
box printed for a card is cloth, and the detector must not box it (a box it takes for a card
back keeps a folded card seen there).

The boxes are drawn in one of the ``PrintStyle`` shapes: the training views print
``TRAINING_PRINTS``, the evaluation also ``HELD_OUT_PRINTS`` (rounded boxes, boxes marked by their
corners only), shapes no training view shows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from models.synth.cards import H, W

CARD_ASPECT = H / W
"""A card's height over its width."""
WORDS = ("BURN", "MUCK", "DEALER", "TEXAS HOLD'EM", "NO LIMIT", "POT", "BET", "ANTE", "BLINDS",
         "INSURANCE", "DISCARD", "BOARD", "BAD BEAT JACKPOT")  # fmt: skip
"""Words printed on cloths."""
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX)  # fmt: skip
GOLD, WHITE = (60.0, 170.0, 215.0), (232.0, 232.0, 228.0)
ZONE_BOX_SHARE = 0.5
"""Of the printed boxes, the share drawn for a zone (a burn, a muck: one to three cards across,
half to twice as long as wide); the others are a card's size and shape."""
PRINT_SHARE = 0.5
"""The share of a real room's views (``render(room=True)``) and of phone stills whose cloth has
a layout printed."""


@dataclass(frozen=True, slots=True)
class PrintStyle:
    """How a cloth's card boxes are drawn."""

    name: str
    corner_share: float = 0.0
    """The corners' radius as a share of the box's width (0: square corners)."""
    dashed: bool = False
    double: bool = False
    """A second outline inside the first."""
    filled: bool = False
    """A patch a shade off the cloth, with no outline."""
    corners_only: bool = False
    """Only the corners marked, a short stroke along each side."""


TRAINING_PRINTS = (
    PrintStyle("square"),
    PrintStyle("double", double=True),
    PrintStyle("dashed", dashed=True),
    PrintStyle("filled", filled=True),
)
HELD_OUT_PRINTS = (
    PrintStyle("rounded", corner_share=0.22),
    PrintStyle("corners", corners_only=True),
)
"""Box shapes only the evaluation prints."""


def _outline(width: float, height: float, radius: float) -> np.ndarray:
    """The closed outline of a ``width`` x ``height`` box centred on 0 with corners of
    ``radius``, as points in order (the first corner's start repeated at the end)."""
    r = min(radius, width / 2, height / 2)
    hw, hh = width / 2 - r, height / 2 - r
    points = []
    for (cx, cy), start in (((hw, -hh), -90), ((hw, hh), 0), ((-hw, hh), 90), ((-hw, -hh), 180)):
        for a in np.linspace(start, start + 90, 7 if r > 0 else 1):
            t = math.radians(float(a))
            points.append((cx + r * math.cos(t), cy + r * math.sin(t)))
    points.append(points[0])
    return np.array(points, np.float32)


def _placed(points: np.ndarray, centre: tuple[float, float], angle: float) -> np.ndarray:
    t = math.radians(angle)
    turn = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]], np.float32)
    return points @ turn.T + np.array(centre, np.float32)


def _pieces(points: np.ndarray, keep: np.ndarray) -> list[np.ndarray]:
    """The runs of the polyline ``points`` (sampled densely) where ``keep`` holds."""
    runs, start = [], None
    for i, k in enumerate(keep):
        if k and start is None:
            start = i
        if (not k or i == len(keep) - 1) and start is not None:
            end = i + 1 if k else i
            if end - start >= 2:
                runs.append(points[start:end])
            start = None
    return runs


def _dense(points: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """``points`` resampled every ``step`` pixels along the line, and each one's distance along
    it."""
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    along = np.concatenate([[0.0], np.cumsum(seg)])
    at = np.arange(0.0, float(along[-1]) + 1e-6, max(step, 0.5))
    xs = np.interp(at, along, points[:, 0])
    ys = np.interp(at, along, points[:, 1])
    return np.stack([xs, ys], axis=1).astype(np.float32), at


def _box(
    ink: np.ndarray,
    rng: random.Random,
    style: PrintStyle,
    size: tuple[float, float],
    centre: tuple[float, float],
    angle: float,
    line: int,
) -> None:
    """One box of ``style`` into the ink mask ``ink`` (255 where printed)."""
    width, height = size
    local = _outline(width, height, style.corner_share * width)
    shapes = [local]
    if style.double:
        gap = line + max(2.0, width * rng.uniform(0.04, 0.1))
        shapes.append(_outline(width - 2 * gap, height - 2 * gap, style.corner_share * width))
    for shape in shapes:
        placed = _placed(shape, centre, angle)
        if style.filled:
            cv2.fillPoly(ink, [np.round(placed).astype(np.int32)], 255, cv2.LINE_AA)
            continue
        if not (style.dashed or style.corners_only):
            cv2.polylines(ink, [np.round(placed).astype(np.int32)], True, 255, line, cv2.LINE_AA)
            continue
        dense, along = _dense(placed, 1.0)
        if style.dashed:
            period = max(4.0, width * rng.uniform(0.08, 0.2))
            keep = (along % period) < period * rng.uniform(0.4, 0.65)
        else:  # the corners: within a share of each side from a corner
            reach = min(width, height) * rng.uniform(0.15, 0.3)
            ends = _placed(_outline(width, height, 0.0)[:4], centre, angle)
            near = np.min(np.linalg.norm(dense[:, None, :] - ends[None, :, :], axis=2), axis=1)
            keep = near <= reach
        for piece in _pieces(dense, keep):
            cv2.polylines(ink, [np.round(piece).astype(np.int32)], False, 255, line, cv2.LINE_AA)


def _word(ink: np.ndarray, rng: random.Random, at: tuple[float, float], height_px: float) -> None:
    text = rng.choice(WORDS)
    font = rng.choice(FONTS)
    scale = max(0.2, height_px / 22)
    stroke = max(1, round(height_px / rng.uniform(8, 14)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, stroke)
    origin = (round(at[0] - tw / 2), round(at[1] + th / 2))
    cv2.putText(ink, text, origin, font, scale, 255, stroke, cv2.LINE_AA)


def print_layout(
    canvas: np.ndarray,
    rng: random.Random,
    card_w: float,
    styles: Sequence[PrintStyle] = TRAINING_PRINTS,
) -> int:
    """Print a layout on the cloth of ``canvas`` (float BGR, changed in place) for cards about
    ``card_w`` pixels wide, its boxes in one of ``styles``; returns how many card boxes."""
    height, width = canvas.shape[:2]
    style = styles[rng.randrange(len(styles))]
    ink = np.zeros((height, width), np.uint8)
    line = max(1, round(card_w * rng.uniform(0.015, 0.06)))
    boxes = 0
    for _ in range(rng.randint(1, 4)):  # rows of boxes: the board's, a burn, a muck
        count = rng.choice((1, 1, 2, 3, 5))
        if rng.random() < ZONE_BOX_SHARE:  # a zone's box, of any proportions
            across = card_w * rng.uniform(1.0, 3.0)
            size = (across, across * rng.uniform(0.5, 2.0))
        else:  # a box for one card
            scale = rng.uniform(1.0, 1.35)
            size = (card_w * scale, card_w * CARD_ASPECT * scale)
            if rng.random() < 0.25:
                size = size[::-1]  # a card lying sideways
        angle = rng.uniform(-180, 180) if rng.random() < 0.3 else rng.uniform(-10, 10)
        pitch = size[0] * rng.uniform(1.05, 1.35)
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        t = math.radians(angle)
        worded = rng.random() < 0.3
        for k in range(count):
            offset = (k - (count - 1) / 2) * pitch
            at = (x + offset * math.cos(t), y + offset * math.sin(t))
            _box(ink, rng, style, size, at, angle, line)
            if worded:
                _word(ink, rng, at, size[0] * rng.uniform(0.12, 0.2))
            boxes += 1
    for _ in range(rng.randint(0, 5)):  # betting circles
        centre = (round(rng.uniform(0, width)), round(rng.uniform(0, height)))
        radius = round(card_w * rng.uniform(0.35, 0.8))
        cv2.circle(ink, centre, radius, 255, line, cv2.LINE_AA)
    if rng.random() < 0.6:  # the betting line: an arc across the table
        centre = (round(width * rng.uniform(0.3, 0.7)), round(height * rng.uniform(0.3, 0.9)))
        axes = (round(width * rng.uniform(0.25, 0.5)), round(height * rng.uniform(0.2, 0.5)))
        cv2.ellipse(ink, centre, axes, 0, 180, 360, 255, line, cv2.LINE_AA)
    for _ in range(rng.randint(0, 2)):
        a = (round(rng.uniform(0, width)), round(rng.uniform(0, height)))
        b = (round(rng.uniform(0, width)), round(rng.uniform(0, height)))
        cv2.line(ink, a, b, 255, line, cv2.LINE_AA)
    for _ in range(rng.randint(0, 3)):
        at = (rng.uniform(0, width), rng.uniform(0, height))
        _word(ink, rng, at, card_w * rng.uniform(0.15, 0.5))
    printed: np.ndarray = ink.astype(np.float32) / 255
    softness = rng.uniform(0.0, 1.2)
    if softness > 0.3:
        printed = cv2.GaussianBlur(printed, (0, 0), softness)
    cloth = np.median(canvas.reshape(-1, 3)[:: max(1, canvas.size // 3 // 4000)], axis=0)
    kind = rng.random()
    colour: np.ndarray
    if kind < 0.45:  # lighter than the cloth
        colour = np.clip(cloth * rng.uniform(1.2, 1.7), 0, 255)
    elif kind < 0.7:  # darker
        colour = cloth * rng.uniform(0.45, 0.8)
    else:
        colour = np.array(WHITE if kind < 0.85 else GOLD, np.float32)
    strength = printed[:, :, None] * rng.uniform(0.35, 0.9)
    canvas *= 1 - strength
    canvas += strength * colour.astype(np.float32)
    return boxes
