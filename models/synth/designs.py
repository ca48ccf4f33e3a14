"""The card designs the renderer draws: the decks drawn from scratch (``cards.STYLES``), a deck
drawn at random for each scene (``VARIED``, ``models.synth.varied``) and the real decks of
``../shared/data/card-art`` (a French-pattern deck with court card art, PNG; a jumbo-index deck
in the casino style, SVG rasterised with resvg).

``HELD_OUT`` is never drawn in training frames: it is how the evaluation measures what a deck
nobody trained on does (a new casino brings a new deck). Every face is ``cards.W`` x ``cards.H``
(a real deck's own proportions are stretched to the poker size) with its shape as an alpha
mask (the real decks' rounded corners show the table).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import cv2
import numpy as np

from models.synth.cards import FONTS, STYLES, DeckStyle, H, W, draw_back, draw_card
from models.synth.varied import varied_back, varied_style

ART = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "card-art"

RANK_FILES = {
    "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "T": "10",
    "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip
SUIT_FILES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
JUMBO_RANKS = {**RANK_FILES, "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
JUMBO_SUITS = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}

FRENCH = "french-pattern"
JUMBO = "jumbo-index"
HELD_OUT = JUMBO
"""The design no training frame shows."""


class DesignMissing(FileNotFoundError):
    """A real deck's files are not where ``ART`` says."""


@dataclass(frozen=True, slots=True)
class Sprite:
    """A card as the renderer pastes it: BGR (float32, ``H`` x ``W``) and its shape (0 to 1)."""

    bgr: np.ndarray
    alpha: np.ndarray | None
    """None: the whole rectangle."""


@dataclass(frozen=True, slots=True)
class CardDesign:
    name: str
    style: DeckStyle | None = None
    """A deck drawn from scratch; None: a real deck of ``ART`` or ``varies``."""
    varies: bool = False
    """A new deck for each scene (``for_scene``)."""

    def for_scene(self, rng: random.Random) -> CardDesign:
        """The deck a scene is drawn in: this one, or, if it ``varies``, one drawn from ``rng``
        under the same name."""
        if not self.varies:
            return self
        return CardDesign(self.name, varied_style(rng.randrange(2**31)))

    def face(self, card: str) -> Sprite:
        """The face of ``card`` (e.g. ``"Qh"``), cached: do not modify it."""
        return _face(self, card)

    def back(self, variant: int) -> Sprite:
        """A back of this deck (the drawn decks have several colours, the real ones their own)."""
        return _back(self, variant)


DRAWN = tuple(CardDesign(f"drawn-{k}", style) for k, style in enumerate(STYLES))
VARIED = CardDesign("varied", varies=True)
REAL = (CardDesign(FRENCH), CardDesign(JUMBO))
ALL = (*DRAWN, VARIED, *REAL)
TRAINING = tuple(d for d in ALL if d.name != HELD_OUT)
"""The decks training frames are drawn in."""
TRAINING_MIX = (*DRAWN, *(REAL[0],) * 3, *(VARIED,) * 5)
"""What a training scene draws its deck from, one entry at random: a third the fixed drawn
decks, a quarter the real French-pattern deck, the rest a deck of its own."""


def design(name: str) -> CardDesign:
    for candidate in ALL:
        if candidate.name == name:
            return candidate
    raise KeyError(f"no card design {name!r} (designs: {', '.join(d.name for d in ALL)})")


def _read_png(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise DesignMissing(f"{path}: missing or not an image (the card-art of ../shared/data)")
    return image


def _rasterise(path: Path) -> np.ndarray:
    """The SVG face at ``path``. The jumbo-index deck prints its indices in Arial, which the
    appliance's system lacks: its text is set in DejaVu Sans (``FONTS``), never downloaded."""
    import resvg_py

    if not path.is_file():
        raise DesignMissing(f"{path}: missing (the card-art of ../shared/data)")
    svg = re.sub(r"font-family:\s*Arial", "font-family:DejaVu Sans", path.read_text())
    png = resvg_py.svg_to_bytes(
        svg_string=svg, width=W, height=H, skip_system_fonts=True, font_dirs=[str(FONTS)]
    )
    image = cv2.imdecode(np.frombuffer(bytes(png), np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise DesignMissing(f"{path}: resvg gave no image")
    return np.asarray(image)


PAPER = (238, 244, 246)
"""The French-pattern deck's files hold its ink only: it is printed on this paper (BGR)."""
CORNER_RADIUS = 0.06
"""A printed card's rounded corners, as a fraction of its width."""


@cache
def _rounded_card() -> np.ndarray:
    """The shape of a card with rounded corners, ``H`` x ``W``, 0 to 1 (antialiased; cached:
    the same for every face)."""
    scale = 4
    r = round(CORNER_RADIUS * W * scale)
    big = np.zeros((H * scale, W * scale), np.uint8)
    cv2.rectangle(big, (r, 0), (W * scale - 1 - r, H * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (W * scale - 1, H * scale - 1 - r), 255, -1)
    for cx in (r, W * scale - 1 - r):
        for cy in (r, H * scale - 1 - r):
            cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (W, H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _on_paper(bgra: np.ndarray) -> np.ndarray:
    """Ink (BGRA) printed on ``PAPER``: an opaque card with rounded corners (BGRA)."""
    ink = cv2.resize(bgra, (W, H), interpolation=cv2.INTER_AREA).astype(np.float32)
    a = ink[:, :, 3:] / 255
    bgr = ink[:, :, :3] * a + np.array(PAPER, np.float32) * (1 - a)
    return np.dstack([bgr, _rounded_card() * 255]).round().astype(np.uint8)


def _sprite(bgra: np.ndarray) -> Sprite:
    bgra = cv2.resize(bgra, (W, H), interpolation=cv2.INTER_AREA)
    bgr = bgra[:, :, :3].astype(np.float32)
    alpha = bgra[:, :, 3].astype(np.float32) / 255
    bgr.setflags(write=False)
    alpha.setflags(write=False)
    return Sprite(bgr, alpha)


@lru_cache(maxsize=256)
def _face(deck: CardDesign, card: str) -> Sprite:
    rank, suit = card[0], card[1]
    if deck.varies:
        raise ValueError(f"{deck.name}: a new deck for each scene: draw one with for_scene")
    if deck.style is not None:
        bgr = draw_card(card, deck.style).astype(np.float32)
        bgr.setflags(write=False)
        return Sprite(bgr, None)
    if deck.name == FRENCH:
        path = ART / "vector-playing-cards" / f"{RANK_FILES[rank]}_of_{SUIT_FILES[suit]}.png"
        return _sprite(_on_paper(_read_png(path)))
    name = f"{JUMBO_SUITS[suit]}{JUMBO_RANKS[rank]}.svg"
    return _sprite(_rasterise(ART / "svgcards-jumbo-index" / name))


@lru_cache(maxsize=64)
def _back(deck: CardDesign, variant: int) -> Sprite:
    if deck.varies:
        raise ValueError(f"{deck.name}: a new deck for each scene: draw one with for_scene")
    if deck.style is not None:
        drawn = draw_back(variant) if deck.style.back is None else varied_back(deck.style.back)
        bgr = drawn.astype(np.float32)
        bgr.setflags(write=False)
        return Sprite(bgr, None)
    if deck.name == FRENCH:
        return _sprite(_on_paper(_read_png(ART / "vector-playing-cards" / "back.png")))
    colour = ("blueBack", "redBack")[variant % 2]
    return _sprite(_rasterise(ART / "svgcards-jumbo-index" / f"{colour}.svg"))
