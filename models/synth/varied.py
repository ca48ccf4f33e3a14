"""Decks drawn at random, one for each scene: what no fixed set of decks teaches is that a new
casino's deck differs in everything but the card it names. A seed draws the index's font and
size (standard to jumbo), the suits' proportions, the pips' size and area (with the frame
jumbo decks print around it), court pictures or letters, paper, inks, border and back.

The index fonts are OpenCV's Hershey faces and the DejaVu Serif and Sans Mono of Debian's
``fonts-dejavu-core``; never DejaVu Sans, the face the held-out jumbo-index deck's indices are
set in (``models.synth.designs``), so that deck stays one nobody trained on.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from models.synth.cards import FONTS, PIP_AREA, DeckStyle, H, SuitShapes, W

HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
TTF = ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf")
JUMBO_SHARE = 0.35
"""Decks whose indices are about twice the standard height."""
BACK_INKS = ((40, 40, 170), (140, 70, 20), (30, 100, 30), (20, 20, 20), (90, 30, 90),
             (30, 60, 110), (120, 110, 20))  # fmt: skip
"""Back colours (BGR): red, blue, green, black, purple, brown, teal."""


def varied_style(seed: int) -> DeckStyle:
    """The deck of ``seed``: the same seed, the same deck."""
    rng = random.Random(seed)
    jumbo = rng.random() < JUMBO_SHARE
    index_scale = rng.uniform(1.45, 1.9) if jumbo else rng.uniform(0.8, 1.2)
    paper_shade = rng.uniform(222, 252)
    tint = rng.uniform(-8, 8)
    blue, green, red_ = (int(np.clip(paper_shade + k * tint, 0, 255)) for k in (-1, 0, 1))
    red = (rng.randint(15, 70), rng.randint(10, 60), rng.randint(160, 235))
    grey = rng.randint(0, 50)
    pip_share = rng.uniform(0.5, 0.65) if jumbo else rng.uniform(0.75, 1.0)
    width, height = round(PIP_AREA[2] * pip_share), round(PIP_AREA[3] * pip_share)
    shift = rng.uniform(0, 12) if jumbo else 0
    area = (round((W - width) / 2 + shift), round((H - height) / 2), width, height)
    ttf = FONTS / rng.choice(TTF) if rng.random() < 0.5 else None
    edge = None if rng.random() < 0.4 else rng.randint(110, 190)
    return DeckStyle(
        font=rng.choice(HERSHEY),
        thickness=rng.randint(2, 4),
        paper=(blue, green, red_),
        red=red,
        black=(grey, grey, grey),
        court=rng.choice(BACK_INKS),
        ten_as="10" if rng.random() < 0.95 else "T",
        ttf=ttf,
        index_scale=index_scale,
        index_x=round(rng.uniform(26, 34) if jumbo else rng.uniform(24, 32)),
        shapes=SuitShapes(
            heart_width=rng.uniform(0.85, 1.15),
            spade_width=rng.uniform(0.85, 1.15),
            club_leaf=rng.uniform(0.22, 0.29),
            club_spread=rng.uniform(0.22, 0.3),
            diamond_width=rng.uniform(0.6, 0.8),
            stem_width=rng.uniform(0.13, 0.27),
        ),
        pip_scale=pip_share * rng.uniform(0.85, 1.05),
        pip_area=area,
        pip_frame=rng.random() < (0.6 if jumbo else 0.2),
        court_figure=rng.randrange(2**31) if rng.random() < 0.65 else None,
        border=None if edge is None else (edge, edge, edge),
        back=rng.randrange(2**31),
    )


def varied_back(seed: int) -> np.ndarray:
    """The back of the deck whose back seed is ``seed`` (BGR, ``H`` x ``W``, read-only; each
    deck keeps its own, ``CardDesign.back``): a lattice, stripes or dots in one ink on another,
    in a white margin or not."""
    rng = random.Random(seed)
    base = rng.choice(BACK_INKS)
    line = rng.choice(((230, 230, 240), (40, 170, 200), (200, 200, 200)))
    img = np.full((H, W, 3), base, np.uint8)
    step = rng.randint(8, 26)
    pattern = rng.choice(("lattice", "stripes", "dots"))
    if pattern == "dots":
        for y in range(step // 2, H, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, W, step):
                cv2.circle(img, (x, y), max(2, step // 4), line, -1, cv2.LINE_AA)
    else:
        for k in range(-H, W + H, step):
            cv2.line(img, (k, 0), (k + H, H), line, 2, cv2.LINE_AA)
            if pattern == "lattice":
                cv2.line(img, (k, H), (k + H, 0), line, 2, cv2.LINE_AA)
    margin = rng.choice((0, 0, rng.randint(6, 18)))
    if margin:
        cv2.rectangle(img, (0, 0), (W - 1, H - 1), (240, 240, 240), 2 * margin)
    inset = margin + rng.randint(6, 16)
    cv2.rectangle(img, (inset, inset), (W - 1 - inset, H - 1 - inset), line, rng.randint(2, 6))
    img.setflags(write=False)
    return img
