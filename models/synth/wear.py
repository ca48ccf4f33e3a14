"""A card as it lies on a real table rather than as it was printed: the paper's grain, a gloss
that catches the light (a glare band), edges whitened by shuffling, a slight bend that shades
one side. Applied to each card the renderer pastes, drawn from the scene's generator."""

from __future__ import annotations

import random

import cv2
import numpy as np

from models.synth.designs import Sprite

GRAIN_LEVELS = (1.5, 5.0)
"""The paper grain's standard deviation, in grey levels (a range to draw from)."""
GLARE_SHARE = 0.3
"""The share of cards that catch a glare band."""
GLARE_STRENGTH = (0.25, 0.7)
"""How far toward white the middle of a glare band goes."""
WORN_SHARE = 0.3
"""The share of cards with whitened edges."""
BEND = 0.12
"""The most a bend darkens or lightens one side of the card, as a fraction."""


def weathered(card: Sprite, rng: random.Random) -> Sprite:
    """``card`` (left as it is) with grain, and by chance a glare band, worn edges, a bend."""
    bgr = card.bgr.copy()
    h, w = bgr.shape[:2]
    noise = np.random.default_rng(rng.getrandbits(32)).normal(0, 1, (h, w)).astype(np.float32)
    grain = cv2.GaussianBlur(noise, (0, 0), 0.8) * rng.uniform(*GRAIN_LEVELS)
    bgr += grain[:, :, None]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xs / w - 0.5, ys / h - 0.5
    turn = rng.uniform(0, np.pi)
    across = u * np.cos(turn) + v * np.sin(turn)
    bgr *= (1 + rng.uniform(-BEND, BEND) * 2 * across)[:, :, None]
    if rng.random() < GLARE_SHARE:
        along = rng.uniform(0, np.pi)
        offset = u * np.cos(along) + v * np.sin(along) - rng.uniform(-0.35, 0.35)
        band = np.exp(-((offset / rng.uniform(0.04, 0.15)) ** 2)) * rng.uniform(*GLARE_STRENGTH)
        bgr += (255 - bgr) * band[:, :, None]
    if rng.random() < WORN_SHARE:
        edge = np.minimum(np.minimum(xs, w - 1 - xs), np.minimum(ys, h - 1 - ys))
        depth = rng.uniform(2, 6)
        chipped = np.random.default_rng(rng.getrandbits(32)).random((h, w)) < 0.5
        worn: np.ndarray = np.where(chipped & (edge < depth), rng.uniform(0.3, 0.8), 0)
        worn = worn.astype(np.float32)
        worn = cv2.GaussianBlur(worn, (0, 0), 1.0)
        bgr += (245 - bgr) * worn[:, :, None]
    np.clip(bgr, 0, 255, out=bgr)
    return Sprite(bgr, card.alpha)
