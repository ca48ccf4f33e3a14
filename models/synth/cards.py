"""Playing cards drawn from scratch: corner indices, pips in the standard layouts, court cards,
and several deck designs and back designs. One card is a BGR image of 250 x 350 pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

W, H = 250, 350
RANKS = "23456789TJQKA"
RED = {"h", "d"}


@dataclass(frozen=True, slots=True)
class DeckStyle:
    font: int
    thickness: int
    paper: tuple[int, int, int]
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    court: tuple[int, int, int]
    """Frame colour of the court cards."""
    ten_as: str
    """How the ten's index is printed: ``10`` or ``T``."""


STYLES = (
    DeckStyle(
        cv2.FONT_HERSHEY_DUPLEX,
        3,
        (245, 248, 250),
        (30, 30, 200),
        (20, 20, 20),
        (40, 150, 210),
        "10",
    ),
    DeckStyle(
        cv2.FONT_HERSHEY_SIMPLEX,
        4,
        (235, 240, 240),
        (40, 20, 180),
        (35, 30, 30),
        (160, 90, 30),
        "10",
    ),
    DeckStyle(
        cv2.FONT_HERSHEY_TRIPLEX,
        3,
        (250, 250, 250),
        (20, 40, 220),
        (10, 10, 10),
        (30, 120, 40),
        "10",
    ),
    DeckStyle(
        cv2.FONT_HERSHEY_COMPLEX,
        3,
        (225, 235, 240),
        (50, 50, 190),
        (40, 40, 40),
        (120, 40, 150),
        "10",
    ),
)


def _heart(size: float) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, 60)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return np.stack([x, y], axis=1) * size / 34


def _diamond(size: float) -> np.ndarray:
    s = size / 2
    return np.array([[0, -s], [s * 0.72, 0], [0, s], [-s * 0.72, 0]], dtype=float)


def _stem(size: float) -> np.ndarray:
    """The flared stem of a spade or a club, from its middle to its foot."""
    return np.array([[0, size * 0.1], [size * 0.2, size * 0.5], [-size * 0.2, size * 0.5]])


def draw_suit(
    img: np.ndarray,
    suit: str,
    centre: tuple[float, float],
    size: float,
    colour: tuple[int, int, int],
    flip: bool = False,
) -> None:
    """A suit symbol ``size`` pixels tall centred at ``centre`` (upside down if ``flip``)."""
    cx, cy = centre
    sign = -1 if flip else 1
    shapes: list[np.ndarray] = []
    if suit == "h":
        shapes.append(_heart(size))
    elif suit == "d":
        shapes.append(_diamond(size))
    elif suit == "s":  # a heart upside down, its point up, on a flared stem
        heart = _heart(size * 1.05)
        heart[:, 1] *= -1
        heart[:, 1] -= size * 0.1
        shapes += [heart, _stem(size)]
    else:  # clubs: three round leaves, apart enough that the notches between them show
        r = size * 0.25
        t = np.linspace(0, 2 * math.pi, 30)
        for dx, dy in ((0, -size * 0.24), (-size * 0.26, size * 0.1), (size * 0.26, size * 0.1)):
            shapes.append(np.stack([dx + r * np.cos(t), dy + r * np.sin(t)], axis=1))
        shapes.append(_stem(size))
    for shape in shapes:
        pts = np.stack([cx + shape[:, 0], cy + sign * shape[:, 1]], axis=1)
        cv2.fillPoly(img, [np.round(pts * 8).astype(np.int32)], colour, cv2.LINE_AA, shift=3)


PIP_PX = 58
"""A pip's height on a card 250 pixels wide: 0.23 of the width, as on a real poker card (a
sixth less on the crowded 9 and 10). At this size a pip is about 12 pixels in a 1080p view of a
whole table, where a club and a spade differ (at 8 pixels a club looks like a spade)."""
PIP_AREA = (35, 40, 180, 270)
"""Where ``PIPS``' unit square lies on the card: left, top, width, height in pixels."""
# Pip centres for 2..10 on a unit card (x, y in 0..1), the standard layouts.
_COL = {"l": 0.3, "c": 0.5, "r": 0.7}
PIPS: dict[str, list[tuple[float, float]]] = {
    "2": [(0.5, 0.2), (0.5, 0.8)],
    "3": [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    "4": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    "5": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "6": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "7": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "8": [
        (0.3, 0.2),
        (0.7, 0.2),
        (0.5, 0.35),
        (0.3, 0.5),
        (0.7, 0.5),
        (0.5, 0.65),
        (0.3, 0.8),
        (0.7, 0.8),
    ],
    "9": [
        (0.3, 0.2),
        (0.7, 0.2),
        (0.3, 0.4),
        (0.7, 0.4),
        (0.5, 0.5),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.3, 0.8),
        (0.7, 0.8),
    ],
    "T": [
        (0.3, 0.2),
        (0.7, 0.2),
        (0.5, 0.3),
        (0.3, 0.4),
        (0.7, 0.4),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.5, 0.7),
        (0.3, 0.8),
        (0.7, 0.8),
    ],
}


def _index_text(rank: str, style: DeckStyle) -> str:
    return style.ten_as if rank == "T" else rank


@cache
def draw_card(card: str, style: DeckStyle) -> np.ndarray:
    """The face of ``card`` (e.g. ``"Qh"``) in ``style`` (cached: do not modify it)."""
    rank, suit = card[0], card[1]
    img = np.full((H, W, 3), style.paper, dtype=np.uint8)
    ink = style.red if suit in RED else style.black
    text = _index_text(rank, style)
    scale = 1.5 if len(text) == 1 else 1.2
    (tw, th), _ = cv2.getTextSize(text, style.font, scale, style.thickness)
    for flip in (False, True):
        corner: np.ndarray = np.full((H, W, 3), 0, dtype=np.uint8)
        x0 = 28 - tw // 2
        cv2.putText(
            corner,
            text,
            (max(4, x0), 16 + th),
            style.font,
            scale,
            (255, 255, 255),
            style.thickness,
            cv2.LINE_AA,
        )
        draw_suit(corner, suit, (28, 30 + th + 14), 26, (255, 255, 255))
        if flip:
            corner = cv2.rotate(corner, cv2.ROTATE_180)
        mask = corner[:, :, 0] > 0
        alpha = corner[:, :, 0:1].astype(np.float32) / 255
        img[mask] = (img[mask] * (1 - alpha[mask]) + np.array(ink) * alpha[mask]).astype(np.uint8)
    if rank in PIPS:
        size = PIP_PX if rank not in "9T" else PIP_PX * 0.83
        left, top, width, height = PIP_AREA
        for x, y in PIPS[rank]:
            draw_suit(img, suit, (left + x * width, top + y * height), size, ink, flip=y > 0.55)
    elif rank == "A":
        draw_suit(img, suit, (W / 2, H / 2), 110 if suit == "s" else 80, ink)
    else:  # court card: a coloured frame, the letter and the suit
        cv2.rectangle(img, (58, 62), (W - 58, H - 62), style.court, 6, cv2.LINE_AA)
        cv2.rectangle(img, (70, 74), (W - 70, H - 74), ink, 2, cv2.LINE_AA)
        (lw, lh), _ = cv2.getTextSize(rank, style.font, 3.2, 6)
        cv2.putText(
            img, rank, ((W - lw) // 2, H // 2 + lh // 2 - 20), style.font, 3.2, ink, 6, cv2.LINE_AA
        )
        draw_suit(img, suit, (W / 2, H / 2 + 60), 50, ink)
    cv2.rectangle(img, (0, 0), (W - 1, H - 1), (150, 150, 150), 2, cv2.LINE_AA)
    img.setflags(write=False)
    return img


BACKS = (
    ((40, 40, 170), (230, 230, 240)),  # red with white lattice
    ((140, 70, 20), (230, 230, 240)),  # blue
    ((30, 100, 30), (220, 230, 220)),  # green
    ((20, 20, 20), (40, 170, 200)),  # black and gold
)


@cache
def draw_back(design: int) -> np.ndarray:
    """A card back of ``design`` (cached: do not modify it)."""
    base, line = BACKS[design % len(BACKS)]
    img = np.full((H, W, 3), base, dtype=np.uint8)
    for k in range(-H, W + H, 18):
        cv2.line(img, (k, 0), (k + H, H), line, 2, cv2.LINE_AA)
        cv2.line(img, (k, H), (k + H, 0), line, 2, cv2.LINE_AA)
    cv2.rectangle(img, (12, 12), (W - 13, H - 13), line, 5)
    cv2.rectangle(img, (0, 0), (W - 1, H - 1), (240, 240, 240), 10)
    img.setflags(write=False)
    return img
