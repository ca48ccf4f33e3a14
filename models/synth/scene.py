"""Overhead views of a poker table: felt, cards face up and face down (in one of the card designs,
each card with its grain, glare, wear and bend), chip stacks and spreads, shadows, light, blur,
noise and a camera tilt; with the box and class of every object.

The detector's classes are ``DETECTOR_CLASSES``: a face-up card, a card back, a chip and a
dealer's hand. Every label also keeps what the object is (the card, e.g. ``"Qh"``; the chip's
colour), which the identity classifier and the evaluation use: the detector finds boxes at low
resolution, the classifier names each face-up card from a full-resolution crop.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.cards import DECK
from models.synth.cards import H, W
from models.synth.designs import TRAINING_MIX, CardDesign, Sprite
from models.synth.printing import PRINT_SHARE, TRAINING_PRINTS, PrintStyle, print_layout
from models.synth.room import (
    CCTV_SHARE,
    FLOOR_SHARE,
    LIGHT_CHIPS,
    RACK_SHARE,
    SHADOW_SHARE,
    arm_shadows,
    cctv,
    floor,
    light_colour,
    rack,
)
from models.synth.wear import weathered
from vision.chips import DEFAULT_CHIP_SET

CHIP_COLOURS: dict[str, tuple[int, int, int]] = {c.name: c.bgr for c in DEFAULT_CHIP_SET}
"""The chips drawn: the default chip set of the configuration (``vision.chips``)."""
DETECTOR_CLASSES: tuple[str, ...] = ("card", "card_back", "chip", "hand")
CARD, BACK, CHIP, HAND = range(4)
FELTS = ((40, 110, 30), (110, 70, 20), (40, 40, 120), (70, 90, 40))
"""Felt colours (BGR) of the rendered tables."""
LIGHT_SURFACES = ((228, 228, 228), (196, 202, 206), (120, 160, 200), (200, 190, 170))
"""Light surfaces (BGR: a white cloth, grey, light wood, pale blue) that some real card photos
are taken on; only the detector's extra training frames use them (``make_dataset --surfaces
any``), so the frames of the default palette stay the same for a seed."""


PAIR_SHARE = 0.25
"""The share of face-up cards and backs that ``render`` lays a second card over (a hand)."""


@dataclass(frozen=True, slots=True)
class PairLay:
    """How ``render`` lays the second card of a pair over the first."""

    shift: tuple[float, float] = (0.3, 0.5)
    """How far off the first it lies, in card widths (drawn in this range)."""
    along_card: bool = False
    """Off along the first card's short side, as a hand is held and left; else across the
    view, whichever way the card lies."""


LOOSE_PAIRS = PairLay()
TIGHT_PAIRS = PairLay((0.15, 0.5), along_card=True)
"""Pairs as players leave them: the upper card a sixth to a half of a card's width along the
lower card's short side (their boxes overlap up to 0.75), the lower card's index just beside
the upper card's edge."""


FAN_CARDS = (2, 4)
"""How many cards a fan adds over its first (a hand of three to five held or shown spread)."""


@dataclass(slots=True)
class Label:
    cls: int
    """Index into ``DETECTOR_CLASSES``."""
    box: tuple[float, float, float, float]
    """x1, y1, x2, y2 in pixels of the final image."""
    name: str
    """What it is: the card (``"Qh"``), ``"card_back"``, the chip's colour, or ``"hand"``."""
    index_shown: float = 1.0
    """A face-up card: the fraction of its better corner index (rank and suit) not covered by
    later objects; under about a half nobody could name it from the view."""
    corners: tuple[tuple[float, float], ...] = ()
    """A card (face up or down): its four corners in pixels of the final image, in the order of
    the drawn card's top left, top right, bottom right and bottom left."""


@dataclass(slots=True)
class Scene:
    image: np.ndarray
    labels: list[Label] = field(default_factory=list)
    design: str = ""
    """The name of the deck its cards are drawn in."""
    printed_boxes: int = 0
    """How many empty card boxes the cloth has printed on it (``models.synth.printing``)."""


def felt(
    width: int, height: int, rng: random.Random, surfaces: Sequence[tuple[int, int, int]] = FELTS
) -> np.ndarray:
    base = np.array(surfaces[rng.randrange(len(surfaces))], dtype=np.float32)
    base *= rng.uniform(0.75, 1.2)
    noise: np.ndarray = np.random.default_rng(rng.randrange(2**32)).normal(
        0, 6, (height // 4, width // 4, 1)
    )
    noise = cv2.resize(noise.astype(np.float32), (width, height))[:, :, None]
    img = np.clip(base[None, None, :] + noise, 0, 255)
    # The table's rail and betting line.
    centre = (width // 2, height // 2)
    axes = (int(width * 0.47), int(height * 0.45))
    cv2.ellipse(img, centre, axes, 0, 0, 360, (30, 40, 60), max(6, width // 120), cv2.LINE_AA)
    inner = (int(axes[0] * 0.78), int(axes[1] * 0.72))
    cv2.ellipse(img, centre, inner, 0, 0, 360, tuple(float(v) * 1.3 for v in base), 2, cv2.LINE_AA)
    return np.asarray(img, np.float32)


def rotated_box(
    width: float, height: float, centre: tuple[float, float], angle: float
) -> np.ndarray:
    """The four corners of a ``width`` x ``height`` rectangle turned by ``angle`` degrees
    (counter-clockwise, as ``cv2.getRotationMatrix2D``) about its centre."""
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - width / 2
    matrix[1, 2] += centre[1] - height / 2
    box = np.array([[0, 0, 1], [width, 0, 1], [width, height, 1], [0, height, 1]], np.float32)
    return box @ matrix.T


def paste(
    canvas: np.ndarray,
    sprite: np.ndarray,
    centre: tuple[float, float],
    angle: float,
    scale: float,
    shadow: bool = True,
    owner: tuple[np.ndarray, int] | None = None,
    alpha: np.ndarray | None = None,
) -> np.ndarray:
    """Rotate, scale and alpha-paste ``sprite``; returns its four corners on the canvas.
    ``owner`` (an id map and an id) records which object each pixel now shows; ``alpha`` (0 to
    1, the sprite's height and width) is its shape (a chip's disc), default the whole sprite."""
    full_h, full_w = sprite.shape[:2]
    if canvas.size == 0:  # nothing to paint on: where it would go
        return rotated_box(full_w * scale, full_h * scale, centre, angle)
    if scale < 1:  # shrink first with area averaging, as a camera's sensor does
        small = (max(2, round(full_w * scale)), max(2, round(full_h * scale)))
        sprite = cv2.resize(sprite, small, interpolation=cv2.INTER_AREA)
        if alpha is not None:
            alpha = cv2.resize(alpha, small, interpolation=cv2.INTER_AREA)
    h, w = sprite.shape[:2]
    fx, fy = full_w * scale / w, full_h * scale / h
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 0] *= fx
    matrix[:, 1] *= fy
    matrix[0, 2] = centre[0] - (matrix[0, 0] * w / 2 + matrix[0, 1] * h / 2)
    matrix[1, 2] = centre[1] - (matrix[1, 0] * w / 2 + matrix[1, 1] * h / 2)
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float32) @ matrix.T
    # Work only in the region the sprite and its shadow cover.
    reach = 3 * scale * 4 + 4 * max(1.0, 6 * scale) + 2
    x0 = max(0, int(corners[:, 0].min() - reach))
    y0 = max(0, int(corners[:, 1].min() - reach))
    x1 = min(canvas.shape[1], int(corners[:, 0].max() + reach) + 1)
    y1 = min(canvas.shape[0], int(corners[:, 1].max() + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return corners
    local = matrix.copy()
    local[0, 2] -= x0
    local[1, 2] -= y0
    size = (x1 - x0, y1 - y0)
    roi = canvas[y0:y1, x0:x1]
    warped = cv2.warpAffine(sprite.astype(np.float32), local, size, flags=cv2.INTER_LINEAR)
    shape = np.ones((h, w), np.float32) if alpha is None else alpha.astype(np.float32)
    mask = cv2.warpAffine(shape, local, size, flags=cv2.INTER_LINEAR)
    if shadow:
        offset = np.array([[1, 0, 3 * scale * 4], [0, 1, 4 * scale * 4]], np.float32)
        shade = cv2.warpAffine(mask, offset, size)
        shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, 6 * scale))
        roi *= (1 - 0.35 * shade)[:, :, None]
    roi[:] = roi * (1 - mask[:, :, None]) + warped * mask[:, :, None]
    if owner is not None:
        owner[0][y0:y1, x0:x1][mask > 0.5] = owner[1]
    return corners


def chip_alpha(size: int = 120) -> np.ndarray:
    """The shape of ``chip_sprite(colour, size)`` for ``paste``: its disc, edges antialiased."""
    alpha = np.zeros((size, size), np.float32)
    c = size / 2
    cv2.circle(alpha, (int(c), int(c)), int(c) - 1, 1.0, -1, cv2.LINE_AA)
    return alpha


def chip_sprite(
    colour: str, size: int = 120, body: tuple[int, int, int] | None = None
) -> np.ndarray:
    """A chip seen from above: the colour (``body``, default the chip set's ``colour``), white
    edge spots, an inner ring (on black: paste it with ``chip_alpha``)."""
    img = np.zeros((size, size, 3), np.float32)
    c = size / 2
    body = body if body is not None else CHIP_COLOURS[colour]
    cv2.circle(img, (int(c), int(c)), int(c) - 1, body, -1, cv2.LINE_AA)
    for k in range(6):
        a = k * math.pi / 3
        pts = []
        for da, r in ((-0.18, c - 1), (0.18, c - 1), (0.18, c * 0.78), (-0.18, c * 0.78)):
            pts.append([c + r * math.cos(a + da), c + r * math.sin(a + da)])
        cv2.fillPoly(img, [np.array(pts, np.int32)], (235, 235, 235), cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(c * 0.62), (230, 230, 230), 2, cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(c * 0.56), tuple(v * 0.85 for v in body), -1, cv2.LINE_AA)
    return img


def lay_card(
    canvas: np.ndarray,
    ids: np.ndarray,
    placed: list[tuple[int, str, np.ndarray]],
    rng: random.Random,
    sprite: Sprite,
    name: str | None,
    at: tuple[float, float],
    angle: float,
    scale: float,
) -> None:
    """``sprite`` (the face of the card ``name``, or a back where ``name`` is None) weathered
    and pasted at ``at``, turned by ``angle`` degrees; added to ``placed`` and to the canvas's
    id map ``ids``."""
    face = weathered(sprite, rng)
    corners = paste(canvas, face.bgr, at, angle, scale, owner=(ids, len(placed)), alpha=face.alpha)
    placed.append((CARD, name, corners) if name is not None else (BACK, "card_back", corners))


def lay_fan(
    canvas: np.ndarray,
    ids: np.ndarray,
    placed: list[tuple[int, str, np.ndarray]],
    rng: random.Random,
    design: CardDesign,
    deck: list[str],
    at: tuple[float, float],
    angle: float,
    scale: float,
) -> None:
    """Cards of ``deck`` laid over the card at ``at`` (turned ``angle``) as a hand is spread in
    a fan: each turned a little further about a point near the cards' foot and slid aside, over
    the one before, so mostly its corner index shows (usually to the right: the index at the top
    left shows; a fan spread the other way hides it)."""
    x, y = at
    reach = H * scale * rng.uniform(0.3, 0.45)  # from the card's centre to the point turned about
    rad = math.radians(angle)
    pivot = (x + math.sin(rad) * reach, y + math.cos(rad) * reach)
    way = -1 if rng.random() < 0.75 else 1  # clockwise on the screen: the right hand's fan
    step, slide = rng.uniform(6, 18), W * scale * rng.uniform(0.0, 0.12)
    for k in range(1, rng.randint(*FAN_CARDS) + 1):
        if not deck:
            return
        turn = angle + way * step * k + rng.uniform(-2, 2)
        r = math.radians(turn)
        along = -way * slide * k
        centre = (
            pivot[0] - math.sin(r) * reach + math.cos(r) * along,
            pivot[1] - math.cos(r) * reach - math.sin(r) * along,
        )
        card = deck.pop()
        lay_card(canvas, ids, placed, rng, design.face(card), card, centre, turn, scale)


def chip_pile(
    canvas: np.ndarray,
    ids: np.ndarray,
    placed: list[tuple[int, str, np.ndarray]],
    rng: random.Random,
    centre: tuple[float, float],
    chip_d: float,
    colour: str,
    body: tuple[int, int, int],
) -> None:
    """Chips of one ``colour`` (``body``) ``chip_d`` pixels across about ``centre``: a stack
    seen from above and a little aside, or a spread; each added to ``placed`` (a stack as one
    object) and to the canvas's id map ``ids``."""
    x, y = centre
    sprite, disc = chip_sprite(colour, body=body), chip_alpha()
    if rng.random() < 0.5:
        stack = []
        for k in range(rng.randint(1, 8)):
            at = (x + k * 0.6, y - k * chip_d * 0.08)
            size = chip_d / sprite.shape[0]
            owner = (ids, len(placed))
            stack.append(paste(canvas, sprite, at, 0, size, k == 0, owner, disc))
        placed.append((CHIP, colour, np.concatenate(stack)))
        return
    for _ in range(rng.randint(1, 5)):
        cx, cy = x + rng.uniform(-chip_d, chip_d), y + rng.uniform(-chip_d, chip_d)
        turn, size = rng.uniform(0, 360), chip_d / sprite.shape[0]
        paste(canvas, sprite, (cx, cy), turn, size, owner=(ids, len(placed)), alpha=disc)
        placed.append((CHIP, colour, rotated_box(chip_d, chip_d, (cx, cy), 0)))


def _box(points: np.ndarray) -> tuple[float, float, float, float]:
    return (
        float(points[:, 0].min()),
        float(points[:, 1].min()),
        float(points[:, 0].max()),
        float(points[:, 1].max()),
    )


def dealer_hand(
    canvas: np.ndarray,
    rng: random.Random,
    tip: tuple[float, float],
    size_px: float,
    reach_from: tuple[float, float] | None = None,
) -> np.ndarray:
    """Draw a dealer's hand reaching in from ``reach_from`` (default: the nearest edge, with
    some slant), fingers at ``tip``; returns the outline points of the hand (the sleeve is not
    part of its box)."""
    h, w = canvas.shape[:2]
    x, y = tip
    if reach_from is None:
        edges = [(x, -h), (x, 2 * h), (-w, y), (2 * w, y)]
        dists = [y, h - y, x, w - x]
        ex, ey = edges[int(np.argmin(dists))]
        angle = math.atan2(ey - y, ex - x) + rng.uniform(-0.5, 0.5)
    else:
        angle = math.atan2(reach_from[1] - y, reach_from[0] - x)
    ux, uy = math.cos(angle), math.sin(angle)  # from the fingertips towards the arm
    px, py = -uy, ux
    skin = np.array(rng.choice(SKINS), np.float32) * rng.uniform(0.8, 1.1)
    sleeve = tuple(float(v) for v in rng.choice(SLEEVES))
    palm = (x + ux * size_px * 0.55, y + uy * size_px * 0.55)
    wrist = (palm[0] + ux * size_px * 0.5, palm[1] + uy * size_px * 0.5)
    far = (wrist[0] + ux * w * 2, wrist[1] + uy * w * 2)
    cv2.line(canvas, _pt(wrist), _pt(far), sleeve, max(2, int(size_px * 0.75)), cv2.LINE_AA)
    outline = []
    spread = rng.uniform(0.12, 0.22)
    for k in range(4):  # fingers, index to little
        off = (k - 1.5) * spread * size_px
        base = (palm[0] + px * off - ux * size_px * 0.2, palm[1] + py * off - uy * size_px * 0.2)
        length = size_px * (0.42 - 0.05 * abs(k - 1.2)) * rng.uniform(0.7, 1.0)
        end = (base[0] - ux * length, base[1] - uy * length)
        cv2.line(
            canvas, _pt(base), _pt(end), skin.tolist(), max(2, int(size_px * 0.13)), cv2.LINE_AA
        )
        outline += [base, end]
    thumb_side = rng.choice((-1, 1))
    tb = (palm[0] + px * thumb_side * size_px * 0.3, palm[1] + py * thumb_side * size_px * 0.3)
    te = (
        tb[0] + px * thumb_side * size_px * 0.25 - ux * size_px * 0.2,
        tb[1] + py * thumb_side * size_px * 0.25 - uy * size_px * 0.2,
    )
    cv2.line(canvas, _pt(tb), _pt(te), skin.tolist(), max(2, int(size_px * 0.14)), cv2.LINE_AA)
    axes = (max(2, int(size_px * 0.36)), max(2, int(size_px * 0.3)))
    cv2.ellipse(
        canvas, _pt(palm), axes, math.degrees(angle), 0, 360, skin.tolist(), -1, cv2.LINE_AA
    )
    outline += [tb, te, wrist]
    for a in range(0, 360, 45):  # the palm's outline
        r = math.radians(a)
        outline.append((palm[0] + axes[0] * math.cos(r), palm[1] + axes[0] * math.sin(r)))
    return np.array(outline, np.float32)


VISIBLE = 0.3
"""An object shows at least this fraction of its area to be labelled (or, a face-up card, its
corner index: ``INDEX_READABLE``)."""
INDEX_READABLE = 0.6
"""A face-up card is labelled, however little else of it shows, when this much of a corner index
shows: a dealer names the lower card of a pair by its index alone, and so must the appliance
(unlabelled, the rendered views' readings of such a card would count as false)."""
INDEX_CORNER = (58 / W, 100 / 350)
"""The corner index (rank over suit) of a drawn card, as fractions of its width and height."""
SKINS = ((120, 150, 200), (90, 120, 170), (60, 90, 140), (150, 175, 220), (45, 65, 100))
SLEEVES = ((20, 20, 20), (240, 240, 240), (30, 30, 110), (60, 40, 20))


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def index_shown(ids: np.ndarray, index: int, corners: np.ndarray) -> float:
    """The fraction of the better of a card's two corner indices that shows object ``index`` in
    the id map ``ids``; ``corners``: the card's four corners in the map. What lies beyond the
    map does not show."""
    top_left, top_right, _, bottom_left = corners.astype(np.float64)
    across, down = top_right - top_left, bottom_left - top_left
    u, v = INDEX_CORNER
    best = 0.0
    e = 0.02  # inside the card's edge (whose pixels are partly the table's)
    height, width = ids.shape
    for a, b in (((e, e), (u, v)), ((1 - u, 1 - v), (1 - e, 1 - e))):
        quad = [
            top_left + x * across + y * down
            for x, y in ((a[0], a[1]), (b[0], a[1]), (b[0], b[1]), (a[0], b[1]))
        ]
        pts = np.round(np.array(quad)).astype(np.int32)
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0) + 1
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, pts - np.array([x0, y0]), 1)
        region = np.full(mask.shape, -1, ids.dtype)  # the map under the quad, -1 beyond it
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if cx1 > cx0 and cy1 > cy0:
            region[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = ids[cy0:cy1, cx0:cx1]
        inside = mask.astype(bool)
        if inside.any():
            best = max(best, float(np.mean(region[inside] == index)))
    return best


def seen_ids(ids: np.ndarray, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The id map of the canvas as the camera sees it (``finish``'s tilt); -1 beyond the canvas,
    where the image shows the bare table (no object to find there)."""
    warped = cv2.warpPerspective(
        ids.astype(np.float32),
        homography,
        size,
        flags=cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=-1,
    )
    return warped.astype(np.int32)


def labelled(
    placed: Sequence[tuple[int, str, np.ndarray]], ids: np.ndarray, homography: np.ndarray
) -> list[Label]:
    """The labels of the ``placed`` objects (class, name, outline on the canvas) that the camera
    sees: ``ids`` (the canvas's id map) and each outline taken through ``homography`` into the
    image, an object labelled when ``VISIBLE`` of its area shows in the image (or ``INDEX_READABLE``
    of a face-up card's corner index), its box clipped to the image."""
    h, w = ids.shape
    seen = seen_ids(ids, homography, (w, h))
    shown = np.bincount(seen.ravel() + 1, minlength=len(placed) + 1)[1:]
    labels = []
    for index, (cls, name, corners) in enumerate(placed):
        pts = cv2.perspectiveTransform(corners[None, :, :].astype(np.float32), homography)[0]
        full = cv2.contourArea(cv2.convexHull(pts))
        shows = index_shown(seen, index, pts) if cls == CARD else 1.0
        if shown[index] < VISIBLE * full and not (cls == CARD and shows >= INDEX_READABLE):
            continue  # (almost) hidden under later objects or beyond the image
        x1, y1, x2, y2 = _box(pts)
        x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
        if x2 - x1 > 4 and y2 - y1 > 4:
            quad = tuple((float(x), float(y)) for x, y in pts) if cls in (CARD, BACK) else ()
            labels.append(Label(cls, (x1, y1, x2, y2), name, shows, quad))
    return labels


def render(
    rng: random.Random,
    width: int = 1280,
    height: int = 720,
    *,
    card_px: float | None = None,
    card_px_range: tuple[float, float] = (40, 160),
    cards_up: int | None = None,
    cards_down: int | None = None,
    chip_piles: int | None = None,
    hands: int | None = None,
    surfaces: Sequence[tuple[int, int, int]] = FELTS,
    pair_share: float = PAIR_SHARE,
    pairs: PairLay = LOOSE_PAIRS,
    fan_share: float = 0.0,
    designs: Sequence[CardDesign] = TRAINING_MIX,
    room: bool = False,
    prints: Sequence[PrintStyle] = TRAINING_PRINTS,
    printed: bool | None = None,
) -> Scene:
    """A random table view; ``card_px`` is the card width in pixels (default: drawn from
    ``card_px_range``); the table's colour is one of ``surfaces``; ``pair_share`` of the cards
    have a second card lying over them (a hand held or shown) as ``pairs`` says, ``fan_share``
    of the face-up ones a fan of cards (``lay_fan``); the deck is one of ``designs``; ``room``:
    by chance what a real room adds (``models.synth.room``) and a layout printed on the cloth
    in one of ``prints`` (``models.synth.printing``); ``printed`` True or False: a printed
    layout or none, whatever ``room``."""
    canvas = felt(width, height, rng, surfaces)
    card_w = card_px if card_px is not None else rng.uniform(*card_px_range)
    boxes = 0
    if printed or (printed is None and room and rng.random() < PRINT_SHARE):
        boxes = print_layout(canvas, rng, card_w, prints)
    if room and rng.random() < FLOOR_SHARE:
        floor(canvas, rng, max(card_w * 0.6, 0.12 * min(width, height)))
    table = canvas.copy()  # the bare table: what the camera sees past the canvas's edge
    chip_colours = {**CHIP_COLOURS, **(LIGHT_CHIPS if room else {})}
    if room and rng.random() < RACK_SHARE:
        rack(canvas, rng, card_w * 0.55, list(chip_colours.values()))
    scale = card_w / W
    deck_design = designs[rng.randrange(len(designs))].for_scene(rng)
    back = deck_design.back(rng.randrange(8))
    deck = list(DECK)
    rng.shuffle(deck)
    placed: list[tuple[int, str, np.ndarray]] = []
    ids = np.full((height, width), -1, np.int32)

    def mine() -> tuple[np.ndarray, int]:
        return ids, len(placed)

    up = cards_up if cards_up is not None else rng.randint(1, 9)
    down = cards_down if cards_down is not None else rng.randint(0, 6)
    margin = card_w * 0.6
    for i in range(up + down):
        x = rng.uniform(margin, width - margin)
        y = rng.uniform(margin, height - margin)
        angle = rng.uniform(-180, 180) if rng.random() < 0.5 else rng.uniform(-12, 12)
        if i < up:
            card = deck.pop()
            lay_card(canvas, ids, placed, rng, deck_design.face(card), card, (x, y), angle, scale)
        else:
            lay_card(canvas, ids, placed, rng, back, None, (x, y), angle, scale)
        if rng.random() < pair_share and deck:  # a second card overlapping (a hand)
            card = deck.pop()
            dx, dy = card_w * rng.uniform(*pairs.shift), card_w * rng.uniform(-0.1, 0.1)
            if pairs.along_card:  # the card's short side and long side in the view
                t = math.radians(angle)
                dx, dy = dx * math.cos(t) + dy * math.sin(t), -dx * math.sin(t) + dy * math.cos(t)
            face = weathered(deck_design.face(card) if i < up else back, rng)
            at, turn = (x + dx, y + dy), angle + rng.uniform(-8, 8)
            corners = paste(canvas, face.bgr, at, turn, scale, owner=mine(), alpha=face.alpha)
            placed.append((CARD, card, corners) if i < up else (BACK, "card_back", corners))
        if fan_share and i < up and rng.random() < fan_share:
            lay_fan(canvas, ids, placed, rng, deck_design, deck, (x, y), angle, scale)
    piles = chip_piles if chip_piles is not None else rng.randint(0, 6)
    chip_d = card_w * rng.uniform(0.5, 0.65)
    colours = list(chip_colours)
    for _ in range(piles):
        colour = rng.choice(colours)
        x = rng.uniform(margin, width - margin)
        y = rng.uniform(margin, height - margin)
        chip_pile(canvas, ids, placed, rng, (x, y), chip_d, colour, chip_colours[colour])
    for _ in range(hands if hands is not None else int(rng.random() < 0.3)):
        tip = (rng.uniform(0, width), rng.uniform(0, height))
        before = canvas.copy()
        outline = dealer_hand(canvas, rng, tip, card_w * rng.uniform(1.2, 1.6))
        ids[np.any(canvas != before, axis=2)] = len(placed)
        placed.append((HAND, "hand", outline))
    if room and rng.random() < SHADOW_SHARE:
        arm_shadows(canvas, rng)
    if room:
        canvas = light_colour(canvas, rng)
        table = light_colour(table, rng)
    image, homography = finish(canvas, rng, beyond=table)
    if room and rng.random() < CCTV_SHARE:
        image = cctv(image, rng)
    return Scene(image, labelled(placed, ids, homography), deck_design.name, boxes)


def finish(
    canvas: np.ndarray,
    rng: random.Random,
    homography: np.ndarray | None = None,
    beyond: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Light, a camera tilt (random unless given), blur and noise; returns the 8-bit image and
    the tilt's homography. Where the tilt shows past the canvas's edge the image shows
    ``beyond`` (the bare table) reflected there, not the canvas: the canvas's cards, chips and
    hands reflected would be mirror images no camera sees, and the readers would name some of
    them)."""
    height, width = canvas.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    lx, ly = rng.uniform(0, width), rng.uniform(0, height)
    light = 1.15 - 0.35 * np.sqrt(((xx - lx) / width) ** 2 + ((yy - ly) / height) ** 2)
    light = (light * rng.uniform(0.7, 1.15))[:, :, None]
    if homography is None:
        src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        j = 0.06
        dst = src + np.array(
            [[rng.uniform(-j, j) * width, rng.uniform(-j, j) * height] for _ in range(4)],
            np.float32,
        )
        homography = cv2.getPerspectiveTransform(src, dst)
    size = (width, height)
    image: np.ndarray = cv2.warpPerspective(
        canvas * light, homography, size, borderMode=cv2.BORDER_REFLECT
    )
    if beyond is not None:
        past = cv2.warpPerspective(
            np.zeros((height, width), np.uint8), homography, size, borderValue=1
        ).astype(bool)
        table = cv2.warpPerspective(beyond * light, homography, size, borderMode=cv2.BORDER_REFLECT)
        image[past] = table[past]
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.4))
    image += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 7), image.shape)
    return np.clip(image, 0, 255).astype(np.uint8), homography


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
