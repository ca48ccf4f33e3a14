"""A phone's still of a real table seen from above: a wooden, light or felt table, a board of
3 to 5 cards in a row, players' pairs lying as people leave them (the second card over the
first, some pairs face down), chips in the middle and before the players (white and light ones
among the house's), by chance a layout printed on the cloth (``models.synth.printing``), a chip
rack at the edge, the floor past the table, an arm's shadow, warm or daylight light. Cards are
300 to 500 pixels wide by default, as in a 6000 x 4000 photo from above a table for four.

``models.eval`` reads such stills in the held-out deck design: how a new casino's deck, cloth
and light come out on the kind of photo a surveillance officer takes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import cv2
import numpy as np

from engine.cards import DECK
from models.synth.cards import W
from models.synth.designs import TRAINING, CardDesign
from models.synth.printing import PRINT_SHARE, TRAINING_PRINTS, PrintStyle, print_layout
from models.synth.room import LIGHT_CHIPS, arm_shadows, floor, light_colour, rack
from models.synth.scene import (
    CHIP_COLOURS,
    FELTS,
    LIGHT_SURFACES,
    Scene,
    chip_pile,
    felt,
    finish,
    labelled,
    lay_card,
)

STILL_CARD_PX = (300.0, 500.0)
FACE_DOWN_SHARE = 0.3
"""The share of players' pairs left face down."""


def wood_grain(canvas: np.ndarray, rng: random.Random) -> None:
    """Streaks of a wooden top's grain along the table's length."""
    height, width = canvas.shape[:2]
    small = np.random.default_rng(rng.getrandbits(32)).normal(0, 1, (height // 8, width // 64))
    grain = cv2.resize(small.astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    canvas *= (1 + 0.06 * grain)[:, :, None]


def table_still(
    rng: random.Random,
    width: int = 6000,
    height: int = 4000,
    *,
    designs: Sequence[CardDesign] = TRAINING,
    card_px_range: tuple[float, float] = STILL_CARD_PX,
    prints: Sequence[PrintStyle] = TRAINING_PRINTS,
) -> Scene:
    """A still of a table mid-hand (see the module's description), with every object's label;
    by chance a layout printed on the cloth in one of ``prints``."""
    surfaces = (*LIGHT_SURFACES, *FELTS)
    canvas = felt(width, height, rng, surfaces)
    if rng.random() < 0.5:
        wood_grain(canvas, rng)
    card_w = rng.uniform(*card_px_range)
    boxes = print_layout(canvas, rng, card_w, prints) if rng.random() < PRINT_SHARE else 0
    if rng.random() < 0.5:
        floor(canvas, rng, 0.1 * min(width, height))
    table = canvas.copy()
    chip_colours = {**CHIP_COLOURS, **LIGHT_CHIPS}
    if rng.random() < 0.5:
        rack(canvas, rng, card_w * 0.55, list(chip_colours.values()))
    design = designs[rng.randrange(len(designs))].for_scene(rng)
    back = rng.randrange(8)
    deck = list(DECK)
    rng.shuffle(deck)
    placed: list[tuple[int, str, np.ndarray]] = []
    ids = np.full((height, width), -1, np.int32)
    centre = (width / 2 + rng.uniform(-0.05, 0.05) * width, height / 2)
    chip_d = card_w * rng.uniform(0.55, 0.65)
    colours = list(chip_colours)
    for _ in range(rng.randint(2, 5)):  # the pot, between the board and the players
        at = (
            centre[0] + rng.uniform(-0.18, 0.18) * width,
            centre[1] + rng.choice((-1, 1)) * rng.uniform(0.1, 0.16) * height,
        )
        colour = rng.choice(colours)
        chip_pile(canvas, ids, placed, rng, at, chip_d, colour, chip_colours[colour])
    board = rng.randint(3, 5)
    row_angle = rng.uniform(-8, 8)
    step = card_w * rng.uniform(1.05, 1.2)
    along = (math.cos(math.radians(row_angle)), -math.sin(math.radians(row_angle)))
    for k in range(board):
        offset = (k - (board - 1) / 2) * step
        at = (centre[0] + along[0] * offset, centre[1] + along[1] * offset)
        tilt, card = row_angle + rng.uniform(-3, 3), deck.pop()
        lay_card(canvas, ids, placed, rng, design.face(card), card, at, tilt, card_w / W)
    players = rng.randint(2, 6)
    first = rng.uniform(0, 360)
    for p in range(players):
        seat = math.radians(first + p * 360 / players + rng.uniform(-15, 15))
        at = (
            centre[0] + 0.36 * width * math.cos(seat),
            centre[1] + 0.36 * height * math.sin(seat),
        )
        facing = -math.degrees(seat) + 90 + rng.uniform(-25, 25)  # the long side to the middle
        down = rng.random() < FACE_DOWN_SHARE
        shift = card_w * rng.uniform(0.2, 0.5)
        turn = math.radians(facing)
        for k in range(2):
            spot = (at[0] + k * shift * math.cos(turn), at[1] - k * shift * math.sin(turn))
            name = None if down else deck.pop()
            tilt = facing + k * rng.uniform(-15, 15)
            sprite = design.back(back) if name is None else design.face(name)
            lay_card(canvas, ids, placed, rng, sprite, name, spot, tilt, card_w / W)
        if rng.random() < 0.6:  # the player's stack before the cards
            before = (
                centre[0] + 0.27 * width * math.cos(seat),
                centre[1] + 0.27 * height * math.sin(seat),
            )
            colour = rng.choice(colours)
            chip_pile(canvas, ids, placed, rng, before, chip_d, colour, chip_colours[colour])
    if rng.random() < 0.35:
        arm_shadows(canvas, rng)
    canvas = light_colour(canvas, rng)
    table = light_colour(table, rng)
    image, homography = finish(canvas, rng, beyond=table)
    return Scene(image, labelled(placed, ids, homography), design.name, boxes)
