"""Playing cards drawn from scratch: corner indices, pips in the standard layouts, court cards,
and several deck designs and back designs. One card is a BGR image of 250 x 350 pixels.

A ``DeckStyle`` says how a deck prints its faces: the index's font and size, the suits'
shapes, the pips' size and area, the court cards' picture, the border. ``STYLES`` are four
fixed decks; ``models.synth.varied`` draws styles at random."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

W, H = 250, 350
FONTS = Path("/usr/share/fonts/truetype/dejavu")
"""TrueType fonts of Debian's ``fonts-dejavu-core`` (never downloaded)."""
RANKS = "23456789TJQKA"
RED = {"h", "d"}


@dataclass(frozen=True, slots=True)
class SuitShapes:
    """The proportions of a deck's suit symbols (decks differ: a plumper heart, a slimmer
    spade, a club's leaves closer together)."""

    heart_width: float = 1.0
    spade_width: float = 1.0
    club_leaf: float = 0.25
    """A club leaf's radius, as a share of the symbol's height."""
    club_spread: float = 0.26
    """How far the side leaves sit from the middle, as a share of the height."""
    diamond_width: float = 0.72
    stem_width: float = 0.2
    """Half the foot of a spade's or a club's stem, as a share of the height."""


STANDARD_SHAPES = SuitShapes()


@dataclass(frozen=True, slots=True)
class DeckStyle:
    font: int
    """The index's Hershey font (``ttf`` None)."""
    thickness: int
    paper: tuple[int, int, int]
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    court: tuple[int, int, int]
    """Frame colour of the court cards."""
    ten_as: str
    """How the ten's index is printed: ``10`` or ``T``."""
    ttf: Path | None = None
    """A TrueType font the index is set in instead of ``font``."""
    index_scale: float = 1.0
    """The index's size against a standard one (jumbo indices are about twice as tall)."""
    index_x: int = 28
    """The index's centre, pixels from the card's left edge."""
    shapes: SuitShapes = STANDARD_SHAPES
    pip_scale: float = 1.0
    """The pips' size against ``PIP_PX`` (and the ace's)."""
    pip_area: tuple[int, int, int, int] | None = None
    """Where the pips' unit square lies (left, top, width, height); None: ``PIP_AREA``."""
    pip_frame: bool = False
    """A thin frame around the pip area, as jumbo-index decks print."""
    court_figure: int | None = None
    """Court cards show a two-headed figure drawn from this seed; None: the letter in a frame."""
    border: tuple[int, int, int] | None = (150, 150, 150)
    """The printed edge line; None: none."""
    back: int | None = None
    """The seed of the deck's own back (``models.synth.varied``); None: one of ``BACKS``."""


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


def _heart(size: float, width: float = 1.0) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, 60)
    x = 16 * np.sin(t) ** 3 * width
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return np.stack([x, y], axis=1) * size / 34


def _diamond(size: float, width: float) -> np.ndarray:
    s = size / 2
    return np.array([[0, -s], [s * width, 0], [0, s], [-s * width, 0]], dtype=float)


def _stem(size: float, width: float) -> np.ndarray:
    """The flared stem of a spade or a club, from its middle to its foot."""
    return np.array([[0, size * 0.1], [size * width, size * 0.5], [-size * width, size * 0.5]])


def draw_suit(
    img: np.ndarray,
    suit: str,
    centre: tuple[float, float],
    size: float,
    colour: tuple[int, int, int],
    flip: bool = False,
    shapes: SuitShapes = STANDARD_SHAPES,
) -> None:
    """A suit symbol ``size`` pixels tall centred at ``centre`` (upside down if ``flip``), in
    the proportions of ``shapes``."""
    cx, cy = centre
    sign = -1 if flip else 1
    outlines: list[np.ndarray] = []
    if suit == "h":
        outlines.append(_heart(size, shapes.heart_width))
    elif suit == "d":
        outlines.append(_diamond(size, shapes.diamond_width))
    elif suit == "s":  # a heart upside down, its point up, on a flared stem
        heart = _heart(size * 1.05, shapes.spade_width)
        heart[:, 1] *= -1
        heart[:, 1] -= size * 0.1
        outlines += [heart, _stem(size, shapes.stem_width)]
    else:  # clubs: three round leaves, apart enough that the notches between them show
        r = size * shapes.club_leaf
        t = np.linspace(0, 2 * math.pi, 30)
        spread = size * shapes.club_spread
        for dx, dy in ((0, -size * 0.24), (-spread, size * 0.1), (spread, size * 0.1)):
            outlines.append(np.stack([dx + r * np.cos(t), dy + r * np.sin(t)], axis=1))
        outlines.append(_stem(size, shapes.stem_width))
    for shape in outlines:
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


CARD_CACHE = 512
"""Faces kept drawn (a varied deck is drawn for one scene: the cache must not grow with them)."""


@lru_cache(maxsize=CARD_CACHE)
def draw_card(card: str, style: DeckStyle) -> np.ndarray:
    """The face of ``card`` (e.g. ``"Qh"``) in ``style`` (cached: do not modify it)."""
    rank, suit = card[0], card[1]
    img = np.full((H, W, 3), style.paper, dtype=np.uint8)
    ink = style.red if suit in RED else style.black
    corner = _index(_index_text(rank, style), suit, style)
    for flip in (False, True):
        mask = corner[:, :, 0] > 0
        alpha = corner[:, :, 0:1].astype(np.float32) / 255
        img[mask] = (img[mask] * (1 - alpha[mask]) + np.array(ink) * alpha[mask]).astype(np.uint8)
        if not flip:
            corner = cv2.rotate(corner, cv2.ROTATE_180)
    left, top, width, height = style.pip_area or PIP_AREA
    if style.pip_frame:
        cv2.rectangle(img, (left, top), (left + width, top + height), ink, 1, cv2.LINE_AA)
    if rank in PIPS:
        size = (PIP_PX if rank not in "9T" else PIP_PX * 0.83) * style.pip_scale
        for x, y in PIPS[rank]:
            centre = (left + x * width, top + y * height)
            draw_suit(img, suit, centre, size, ink, flip=y > 0.55, shapes=style.shapes)
    elif rank == "A":
        size = (110 if suit == "s" else 80) * style.pip_scale
        draw_suit(img, suit, (W / 2, H / 2), size, ink, shapes=style.shapes)
    elif style.court_figure is not None:
        court_figure(img, rank, suit, ink, style, (left, top, width, height))
    else:  # court card: a coloured frame, the letter and the suit
        cv2.rectangle(img, (58, 62), (W - 58, H - 62), style.court, 6, cv2.LINE_AA)
        cv2.rectangle(img, (70, 74), (W - 70, H - 74), ink, 2, cv2.LINE_AA)
        (lw, lh), _ = cv2.getTextSize(rank, style.font, 3.2, 6)
        cv2.putText(
            img, rank, ((W - lw) // 2, H // 2 + lh // 2 - 20), style.font, 3.2, ink, 6, cv2.LINE_AA
        )
        draw_suit(img, suit, (W / 2, H / 2 + 60), 50, ink, shapes=style.shapes)
    if style.border is not None:
        cv2.rectangle(img, (0, 0), (W - 1, H - 1), style.border, 2, cv2.LINE_AA)
    img.setflags(write=False)
    return img


FIGURE_INKS = ((30, 180, 230), (40, 40, 190), (150, 80, 30), (25, 25, 25), (60, 130, 40))
"""The colours court figures are printed in (BGR): gold, red, blue, black, green."""
SKIN = (160, 195, 235)


def court_figure(
    img: np.ndarray,
    rank: str,
    suit: str,
    ink: tuple[int, int, int],
    style: DeckStyle,
    area: tuple[int, int, int, int],
) -> None:
    """A court card's picture: a crowned figure in robes drawn from ``style.court_figure``,
    its lower half the upper turned (a two-headed court), in a frame with the suit beside it."""
    assert style.court_figure is not None
    rng = np.random.default_rng([style.court_figure, RANKS.index(rank), "cdhs".index(suit)])
    left, top, width, height = area
    half = np.zeros((height // 2, width, 3), np.uint8)
    mask = np.zeros(half.shape[:2], np.uint8)
    hw, hh = width, height // 2
    inks = [FIGURE_INKS[k] for k in rng.permutation(len(FIGURE_INKS))[:3]]
    robe = np.array(
        [[0.1, 1.0], [0.15, 0.62], [0.35, 0.5], [0.65, 0.5], [0.85, 0.62], [0.9, 1.0]]
    ) * (hw, hh)
    cv2.fillPoly(half, [robe.astype(np.int32)], inks[0], cv2.LINE_AA)
    cv2.fillPoly(mask, [robe.astype(np.int32)], 255, cv2.LINE_AA)
    for k in range(int(rng.integers(2, 6))):  # bands and folds of the robe
        y = hh * (0.6 + 0.08 * k + rng.uniform(0, 0.04))
        cv2.line(half, (int(hw * 0.15), int(y)), (int(hw * 0.85), int(y + rng.uniform(-8, 8))),
                 inks[1 + k % 2], int(rng.integers(2, 7)), cv2.LINE_AA)  # fmt: skip
    head = (int(hw * rng.uniform(0.42, 0.58)), int(hh * 0.34))
    radius = int(hw * rng.uniform(0.1, 0.14))
    cv2.circle(half, head, radius, SKIN, -1, cv2.LINE_AA)
    cv2.circle(half, head, radius, (30, 30, 30), 1, cv2.LINE_AA)
    crown = np.array([[-1.1, 0], [-1.1, -1.2], [-0.5, -0.6], [0, -1.4], [0.5, -0.6], [1.1, -1.2],
                      [1.1, 0]]) * radius + (head[0], head[1] - radius * 0.7)  # fmt: skip
    cv2.fillPoly(half, [crown.astype(np.int32)], FIGURE_INKS[0], cv2.LINE_AA)
    cv2.circle(mask, head, radius, 255, -1)
    cv2.fillPoly(mask, [crown.astype(np.int32)], 255)
    picture = np.vstack([half, cv2.rotate(half, cv2.ROTATE_180)])
    covered = np.vstack([mask, cv2.rotate(mask, cv2.ROTATE_180)]) > 0
    region = img[top : top + picture.shape[0], left : left + width]
    region[covered] = picture[covered]
    cv2.line(region, (0, hh), (width - 1, hh), ink, 1, cv2.LINE_AA)
    cv2.rectangle(img, (left, top), (left + width, top + height), style.court, 2, cv2.LINE_AA)
    draw_suit(img, suit, (left + width * 0.2, top + height * 0.12), 28, ink, shapes=style.shapes)


INDEX_MAX_PX = 70
"""The widest an index is printed (a jumbo deck's "10" as wide as its other ranks allow)."""


def _index(text: str, suit: str, style: DeckStyle) -> np.ndarray:
    """The top left index, rank over suit, as white on black (``H`` x ``W`` x 3)."""
    corner: np.ndarray = np.full((H, W, 3), 0, dtype=np.uint8)
    scale = (1.5 if len(text) == 1 else 1.2) * style.index_scale
    thickness = round(style.thickness * style.index_scale)
    (tw, th), _ = cv2.getTextSize(text, style.font, scale, thickness)
    if tw > INDEX_MAX_PX:  # a jumbo ten is printed narrower, not wider than the corner
        scale *= INDEX_MAX_PX / tw
        (tw, th), _ = cv2.getTextSize(text, style.font, scale, thickness)
    top = round(16 * style.index_scale)
    if style.ttf is None:
        origin = (max(4, style.index_x - tw // 2), top + th)
        white = (255, 255, 255)
        cv2.putText(corner, text, origin, style.font, scale, white, thickness, cv2.LINE_AA)
    else:
        th = _ttf_text(corner, text, style.ttf, th, (style.index_x, top))
    size = 26 * style.index_scale
    at = (style.index_x, top + th + 14 * style.index_scale + 14)
    draw_suit(corner, suit, at, size, (255, 255, 255), shapes=style.shapes)
    return corner


def _ttf_text(img: np.ndarray, text: str, font: Path, height_px: int, top: tuple[int, int]) -> int:
    """``text`` in the TrueType ``font``, its ink ``height_px`` tall, centred on ``top``'s x with
    its top at ``top``'s y, in white on ``img``; the ink's height drawn."""
    face = _font(font, height_px)
    left, upper, right, lower = face.getbbox(text)
    x, y = top[0] - (left + right) / 2, top[1] - upper
    canvas = Image.new("L", (W, H), 0)
    ImageDraw.Draw(canvas).text((max(4 - left, x), y), text, fill=255, font=face)
    np.maximum(img, np.asarray(canvas)[:, :, None], out=img)
    return int(lower - upper)


@lru_cache(maxsize=64)
def _font(path: Path, cap_px: int) -> ImageFont.FreeTypeFont:
    """``path`` at the size whose digits are ``cap_px`` tall."""
    probe = ImageFont.truetype(str(path), 100)
    _, upper, _, lower = probe.getbbox("8")
    return ImageFont.truetype(str(path), max(8, round(100 * cap_px / (lower - upper))))


BACKS = (
    ((40, 40, 170), (230, 230, 240)),  # red with white lattice
    ((140, 70, 20), (230, 230, 240)),  # blue
    ((30, 100, 30), (220, 230, 220)),  # green
    ((20, 20, 20), (40, 170, 200)),  # black and gold
)


@lru_cache(maxsize=16)
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
