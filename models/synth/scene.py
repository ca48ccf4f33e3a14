"""Overhead views of a poker table: felt, cards face up and face down, chip stacks and spreads,
shadows, light, blur, noise and a camera tilt; with the box and class of every object.

Classes: the 52 cards (``engine.cards.DECK`` order), ``card_back``, then one class per chip
colour (``CHIP_COLOURS``; the table configuration maps colours to denominations).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.cards import DECK
from models.synth.cards import STYLES, W, draw_back, draw_card

CHIP_COLOURS: dict[str, tuple[int, int, int]] = {
    "gray": (150, 150, 150),
    "red": (40, 40, 190),
    "blue": (170, 80, 30),
    "green": (60, 140, 40),
    "black": (35, 35, 35),
    "purple": (130, 40, 110),
    "yellow": (40, 200, 230),
}
CLASSES: list[str] = [*DECK, "card_back", *(f"chip_{c}" for c in CHIP_COLOURS)]
FELTS = ((40, 110, 30), (110, 70, 20), (40, 40, 120), (70, 90, 40))


@dataclass(slots=True)
class Label:
    cls: int
    box: tuple[float, float, float, float]
    """x1, y1, x2, y2 in pixels of the final image."""


@dataclass(slots=True)
class Scene:
    image: np.ndarray
    labels: list[Label] = field(default_factory=list)


def _felt(width: int, height: int, rng: random.Random) -> np.ndarray:
    base = np.array(FELTS[rng.randrange(len(FELTS))], dtype=np.float32)
    base *= rng.uniform(0.75, 1.2)
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, 6, (height // 4, width // 4, 1))
    noise = cv2.resize(noise.astype(np.float32), (width, height))[:, :, None]
    img = np.clip(base[None, None, :] + noise, 0, 255)
    # The table's rail and betting line.
    centre = (width // 2, height // 2)
    axes = (int(width * 0.47), int(height * 0.45))
    cv2.ellipse(img, centre, axes, 0, 0, 360, (30, 40, 60), max(6, width // 120), cv2.LINE_AA)
    inner = (int(axes[0] * 0.78), int(axes[1] * 0.72))
    cv2.ellipse(img, centre, inner, 0, 0, 360, tuple(float(v) * 1.3 for v in base), 2, cv2.LINE_AA)
    return img.astype(np.float32)


def _paste(
    canvas: np.ndarray,
    sprite: np.ndarray,
    centre: tuple[float, float],
    angle: float,
    scale: float,
    shadow: bool = True,
) -> np.ndarray:
    """Rotate, scale and alpha-paste ``sprite``; returns its four corners on the canvas."""
    h, w = sprite.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    matrix[0, 2] += centre[0] - w / 2
    matrix[1, 2] += centre[1] - h / 2
    size = (canvas.shape[1], canvas.shape[0])
    warped = cv2.warpAffine(sprite.astype(np.float32), matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.ones((h, w), np.float32), matrix, size, flags=cv2.INTER_LINEAR)
    if shadow:
        offset = np.float32([[1, 0, 3 * scale * 4], [0, 1, 4 * scale * 4]])
        shade = cv2.warpAffine(mask, offset, size)
        shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, 6 * scale))
        canvas *= (1 - 0.35 * shade)[:, :, None]
    canvas[:] = canvas * (1 - mask[:, :, None]) + warped * mask[:, :, None]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float32)
    return corners @ matrix.T


def chip_sprite(colour: str, size: int = 120) -> np.ndarray:
    """A chip seen from above: the colour, white edge spots, an inner ring."""
    img = np.zeros((size, size, 3), np.float32)
    c = size / 2
    body = CHIP_COLOURS[colour]
    cv2.circle(img, (int(c), int(c)), int(c) - 1, body, -1, cv2.LINE_AA)
    for k in range(6):
        a = k * math.pi / 3
        pts = []
        for da, r in ((-0.18, c - 1), (0.18, c - 1), (0.18, c * 0.78), (-0.18, c * 0.78)):
            pts.append([c + r * math.cos(a + da), c + r * math.sin(a + da)])
        cv2.fillPoly(img, [np.int32(pts)], (235, 235, 235), cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(c * 0.62), (230, 230, 230), 2, cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(c * 0.56), tuple(v * 0.85 for v in body), -1, cv2.LINE_AA)
    return img


def _box(points: np.ndarray) -> tuple[float, float, float, float]:
    return (
        float(points[:, 0].min()),
        float(points[:, 1].min()),
        float(points[:, 0].max()),
        float(points[:, 1].max()),
    )


def render(
    rng: random.Random,
    width: int = 1280,
    height: int = 720,
    *,
    card_px: float | None = None,
    cards_up: int | None = None,
    cards_down: int | None = None,
    chip_piles: int | None = None,
) -> Scene:
    """A random table view; ``card_px`` is the card width in pixels (default: 40 to 160)."""
    canvas = _felt(width, height, rng)
    card_w = card_px if card_px is not None else rng.uniform(40, 160)
    scale = card_w / W
    style = STYLES[rng.randrange(len(STYLES))]
    back = draw_back(rng.randrange(8)).astype(np.float32)
    deck = list(DECK)
    rng.shuffle(deck)
    placed: list[tuple[int, np.ndarray]] = []
    up = cards_up if cards_up is not None else rng.randint(1, 9)
    down = cards_down if cards_down is not None else rng.randint(0, 6)
    margin = card_w
    for i in range(up + down):
        x = rng.uniform(margin, width - margin)
        y = rng.uniform(margin, height - margin)
        angle = rng.uniform(-180, 180) if rng.random() < 0.5 else rng.uniform(-12, 12)
        if i < up:
            card = deck.pop()
            sprite = draw_card(card, style).astype(np.float32)
            cls = DECK.index(card)
        else:
            sprite, cls = back, 52
        corners = _paste(canvas, sprite, (x, y), angle, scale)
        placed.append((cls, corners))
        if i < up and rng.random() < 0.25 and deck:  # a second card overlapping (a hand)
            card = deck.pop()
            dx, dy = card_w * rng.uniform(0.3, 0.5), card_w * rng.uniform(-0.1, 0.1)
            corners = _paste(
                canvas,
                draw_card(card, style).astype(np.float32),
                (x + dx, y + dy),
                angle + rng.uniform(-8, 8),
                scale,
            )
            placed.append((DECK.index(card), corners))
    piles = chip_piles if chip_piles is not None else rng.randint(0, 6)
    chip_d = card_w * rng.uniform(0.45, 0.6)
    colours = list(CHIP_COLOURS)
    for _ in range(piles):
        colour = rng.choice(colours)
        x = rng.uniform(margin, width - margin)
        y = rng.uniform(margin, height - margin)
        sprite = chip_sprite(colour)
        if rng.random() < 0.5:  # a stack seen from above and a little aside
            stack = []
            for k in range(rng.randint(1, 8)):
                stack.append(
                    _paste(
                        canvas,
                        sprite,
                        (x + k * 0.6, y - k * chip_d * 0.08),
                        0,
                        chip_d / sprite.shape[0],
                        shadow=k == 0,
                    )
                )
            placed.append((53 + colours.index(colour), np.concatenate(stack)))
        else:  # a spread
            for _ in range(rng.randint(1, 5)):
                cx, cy = x + rng.uniform(-chip_d, chip_d), y + rng.uniform(-chip_d, chip_d)
                corners = _paste(
                    canvas, sprite, (cx, cy), rng.uniform(0, 360), chip_d / sprite.shape[0]
                )
                placed.append((53 + colours.index(colour), corners))
    # Light, a camera tilt, blur and noise.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    lx, ly = rng.uniform(0, width), rng.uniform(0, height)
    light = 1.15 - 0.35 * np.sqrt(((xx - lx) / width) ** 2 + ((yy - ly) / height) ** 2)
    canvas *= (light * rng.uniform(0.7, 1.15))[:, :, None]
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    j = 0.06
    dst = src + np.float32(
        [[rng.uniform(-j, j) * width, rng.uniform(-j, j) * height] for _ in range(4)]
    )
    homography = cv2.getPerspectiveTransform(src, dst)
    canvas = cv2.warpPerspective(canvas, homography, (width, height), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.5:
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.4))
    canvas += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 7), canvas.shape)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    labels = []
    for cls, corners in placed:
        pts = cv2.perspectiveTransform(corners[None, :, :].astype(np.float32), homography)[0]
        x1, y1, x2, y2 = _box(pts)
        x1, y1, x2, y2 = max(0, x1), max(0, y1), min(width, x2), min(height, y2)
        if x2 - x1 > 4 and y2 - y1 > 4:
            labels.append(Label(cls, (x1, y1, x2, y2)))
    return Scene(image, labels)


def yolo_lines(scene: Scene) -> str:
    h, w = scene.image.shape[:2]
    out = []
    for label in scene.labels:
        x1, y1, x2, y2 = label.box
        out.append(
            f"{label.cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
            f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
        )
    return "\n".join(out) + ("\n" if out else "")
