"""What a real room adds to a view of a table, drawn at random: the floor past the table's edge,
a chip rack at the dealer's side, white and light chips among the house's colours, the shadows
of players' arms, the light's colour (warm lamps to daylight), and a CCTV camera's softness,
colour noise and compression. None of it is labelled: the rack's chips seen from the side, the
floor and the shadows are what the detector must not box (the light chips are boxed as chips).
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

FLOOR_SHARE = 0.3
"""Views whose edge shows the floor past the table."""
RACK_SHARE = 0.3
"""Views with a chip rack at one edge."""
SHADOW_SHARE = 0.35
"""Views with the shadows of one or two arms."""
CCTV_SHARE = 0.25
"""Views as a CCTV camera gives them."""
LIGHT_CHIPS: dict[str, tuple[int, int, int]] = {
    "white": (236, 238, 238),
    "pink": (190, 160, 240),
    "light_blue": (235, 200, 150),
    "orange": (40, 140, 245),
}
"""Chip colours of other houses (BGR), the light ones the detector took for card backs."""
WARM_TO_DAYLIGHT = ((0.78, 0.92, 1.06), (1.06, 1.0, 0.9))
"""The light's tint (a factor for B, G, R) at the two ends: warm lamps, daylight."""
PLANK_COLOURS = ((60, 95, 140), (45, 70, 110), (90, 130, 170), (70, 80, 90))
"""Floor planks and tiles (BGR)."""


def floor(canvas: np.ndarray, rng: random.Random, reach_px: float) -> None:
    """Paint the floor past the table's edge along one side of ``canvas``, at most
    ``reach_px`` into it (where nothing on the table lies)."""
    height, width = canvas.shape[:2]
    depth = max(4, int(rng.uniform(0.4, 1.0) * reach_px))
    side = rng.randrange(4)
    length = width if side in (0, 1) else height
    band = np.empty((depth, length, 3), np.float32)
    band[:] = PLANK_COLOURS[rng.randrange(len(PLANK_COLOURS))]
    plank = max(6, int(rng.uniform(0.02, 0.06) * length))
    for start in range(0, length, plank):
        band[:, start : start + plank] *= rng.uniform(0.8, 1.15)
        band[:, start : start + 1] *= 0.5  # the joint
    grain = np.random.default_rng(rng.getrandbits(32)).normal(0, 6, (depth, length))
    band += cv2.GaussianBlur(grain.astype(np.float32), (0, 0), sigmaX=8.0, sigmaY=1.0)[:, :, None]
    edge = np.linspace(0.55, 1.0, depth, dtype=np.float32)[:, None, None]  # under the rail
    band *= edge[::-1]
    if side == 0:
        canvas[:depth] = band
    elif side == 1:
        canvas[-depth:] = band[::-1]
    elif side == 2:
        canvas[:, :depth] = band.transpose(1, 0, 2)
    else:
        canvas[:, -depth:] = band.transpose(1, 0, 2)[:, ::-1]


def rack(
    canvas: np.ndarray, rng: random.Random, chip_px: float, colours: list[tuple[int, int, int]]
) -> None:
    """A chip rack along one edge: columns of chips seen from the side (stripes)."""
    height, width = canvas.shape[:2]
    columns = rng.randint(4, 10)
    col_w = chip_px * rng.uniform(0.9, 1.1)
    rack_w, rack_h = int(columns * col_w + 8), int(chip_px * rng.uniform(1.5, 3.0))
    if rack_w >= width - 4 or rack_h >= height - 4:
        return
    x0 = rng.randint(2, width - rack_w - 2)
    y0 = 2 if rng.random() < 0.5 else height - rack_h - 2
    cv2.rectangle(canvas, (x0, y0), (x0 + rack_w, y0 + rack_h), (25, 25, 30), -1)
    for k in range(columns):
        colour = np.array(colours[rng.randrange(len(colours))], np.float32)
        left = int(x0 + 4 + k * col_w)
        right = int(left + col_w - 2)
        canvas[y0 + 3 : y0 + rack_h - 3, left:right] = colour
        step = max(2, int(chip_px * 0.08))
        for y in range(y0 + 3, y0 + rack_h - 3, step):  # the chips' edges, one over another
            canvas[y : y + 1, left:right] *= 0.6


def arm_shadows(canvas: np.ndarray, rng: random.Random) -> None:
    """One or two long soft shadows reaching in from the edge, as a player's arm casts."""
    height, width = canvas.shape[:2]
    shade: np.ndarray = np.zeros((height, width), np.float32)
    for _ in range(rng.randint(1, 2)):
        angle = rng.uniform(0, 2 * math.pi)
        start = (
            width / 2 - math.cos(angle) * width * 0.6,
            height / 2 - math.sin(angle) * height * 0.6,
        )
        reach = rng.uniform(0.3, 0.6) * max(width, height)
        end = (start[0] + math.cos(angle) * reach, start[1] + math.sin(angle) * reach)
        thickness = max(3, int(rng.uniform(0.05, 0.12) * min(width, height)))
        pts = (round(start[0]), round(start[1])), (round(end[0]), round(end[1]))
        cv2.line(shade, *pts, rng.uniform(0.25, 0.5), thickness, cv2.LINE_AA)
    shade = cv2.GaussianBlur(shade, (0, 0), max(2.0, min(width, height) * 0.03))
    canvas *= (1 - shade)[:, :, None]


def light_colour(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """``image`` (float BGR) under a light between warm lamps and daylight."""
    t = rng.random()
    warm, day = WARM_TO_DAYLIGHT
    tint = np.array([w + (d - w) * t for w, d in zip(warm, day, strict=True)], np.float32)
    return image * tint


def cctv(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """``image`` (8-bit BGR) as a CCTV camera gives it: soft (fewer pixels than it shows), with
    colour noise and strong compression."""
    height, width = image.shape[:2]
    shrink = rng.uniform(1.4, 2.5)
    small = cv2.resize(image, (max(8, int(width / shrink)), max(8, int(height / shrink))),
                       interpolation=cv2.INTER_AREA)  # fmt: skip
    soft = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    noise = np.random.default_rng(rng.getrandbits(32)).normal(
        0, rng.uniform(3, 9), (height // 2, width // 2, 3)
    )
    soft += cv2.resize(noise.astype(np.float32), (width, height))
    encoded = cv2.imencode(".jpg", np.clip(soft, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, rng.randint(25, 55)])[1]  # fmt: skip
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    assert decoded is not None  # our own JPEG
    return np.asarray(decoded)
