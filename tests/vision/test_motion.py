"""The motion gate on rendered frames: still, noisy, and a card that moves."""

from __future__ import annotations

import random

import cv2
import numpy as np

from models.synth.cards import STYLES, draw_card
from models.synth.scene import render
from vision.motion import MotionGate, differs


def _frame() -> np.ndarray:
    return render(random.Random(9), 960, 540, cards_up=0, cards_down=0, chip_piles=0).image


def test_a_still_table_with_sensor_noise_wakes_nothing() -> None:
    gate = MotionGate()
    base = _frame()
    assert gate(base) == [(0, 0, 960, 540)]  # the first frame is looked at whole
    noise = np.random.default_rng(1).normal(0, 3, base.shape)
    assert gate(np.clip(base + noise, 0, 255).astype(np.uint8)) == []


def test_a_card_dealt_wakes_the_region_it_landed_in() -> None:
    gate = MotionGate()
    base = _frame()
    gate(base)
    card = draw_card("Kd", STYLES[0])[::4, ::4]  # 63 x 88 px
    frame = base.copy()
    frame[300:388, 500:563] = card
    regions = gate(frame)
    assert len(regions) == 1
    x1, y1, x2, y2 = regions[0]
    assert x1 <= 500 and y1 <= 300 and x2 >= 563 and y2 >= 388
    assert (x2 - x1) * (y2 - y1) < 0.05 * 960 * 540


def test_a_hand_as_bright_as_the_felt_wakes_the_gate() -> None:
    """A skin-coloured hand on green felt: the same grey, other colours (the demo's dealer hand
    left bet:6 unseen by a grey-level gate, and its cached detection kept the chips it had put
    down from being counted)."""
    gate = MotionGate()
    base = _frame()
    gate(base)
    felt = base[200:260, 400:460].reshape(-1, 3).mean(axis=0)
    b, g, r = felt
    skin = np.array([b, g - 40, r + 40 * 0.587 / 0.299])  # BT.601 grey unchanged
    assert abs((skin - felt) @ np.array([0.114, 0.587, 0.299])) < 1
    frame = base.copy()
    frame[200:260, 400:460] = np.clip(skin, 0, 255).astype(np.uint8)
    regions = gate(frame)
    assert len(regions) == 1
    x1, y1, x2, y2 = regions[0]
    assert x1 <= 400 and y1 <= 200 and x2 >= 460 and y2 >= 260


def test_a_card_swapped_where_it_lay_differs_and_sensor_noise_does_not() -> None:
    """What the worker asks before it takes a tile's last reading again (``differs``): the same
    pixels with a camera's noise are the same; a 45-pixel card swapped for another of the same
    colour, in the same place, is not (7h for 8h: 144 pixels; Kc for Ks, the closest pair of
    the renderer's court cards, 37)."""
    base = _frame()[100:420, 300:620].copy()  # one 320-pixel tile
    rng = np.random.default_rng(2)
    noisy = np.clip(base + rng.normal(0, 3, base.shape), 0, 255).astype(np.uint8)
    assert not differs(base, noisy)
    shots = {}
    for name in ("7h", "8h", "Kc", "Ks"):
        shots[name] = base.copy()
        card = cv2.resize(draw_card(name, STYLES[0]), (45, 63), interpolation=cv2.INTER_AREA)
        shots[name][120:183, 140:185] = card
    assert differs(base, shots["7h"])
    assert differs(shots["7h"], shots["8h"]) and differs(shots["Kc"], shots["Ks"])
    assert not differs(shots["Kc"], shots["Kc"].copy())
