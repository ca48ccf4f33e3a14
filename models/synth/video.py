"""Video of scripted hands seen by an overhead camera, with the ground truth of every frame.

A ``Layout`` is the standard table of ``vision.layout`` (seats, board, burn, muck, pot, bets,
stacks, shoe, tray in table millimetres) seen by a camera: it gives the calibration (where the
table's corners fall in the frame), so the same zones configure the vision worker. A script is
a list of steps (deal a card from the shoe, turn it, move it, slide chips, pause);
``HandVideo`` renders it at 30 frames/s: the dealer's hand carries each card or stack from
where it is to where it goes.

    from models.synth.video import HandVideo, Layout, demo_script
    video = HandVideo(Layout(), demo_script(seed=1), seed=1)
    for frame in video.frames():  # frame.image (BGR), frame.ts_ns, frame.objects
        ...
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from models.synth.cards import STYLES, draw_back, draw_card
from models.synth.scene import FELTS, chip_alpha, chip_sprite, dealer_hand, paste
from vision.chips import DEFAULT_CHIP_SET
from vision.layout import CARD_MM, CHIP_MM, TableLayout

FPS = 30
RENDERING = 3
"""Bumped whenever the frames drawn change (3: round chips, pips of a real card's size, clubs
and spades of their real shapes): the renders cached on disk (the demo's session, the vision
bench's hand) carry it in their names, so a render made by an older renderer is not played to
models trained on the newer one."""
_NO_IMAGE = np.zeros((0, 0, 3), np.uint8)
CHIP_SLOTS = sorted(
    ((c - 1.5, r - 1.5) for r in range(4) for c in range(4)), key=lambda p: (abs(p[1]), abs(p[0]))
)
"""Chip places in a zone (across, along), from the middle out, across first: 8 fit a bet zone,
16 a stack zone."""


@dataclass(frozen=True, slots=True)
class Layout(TableLayout):
    """A table (``vision.layout.TableLayout``) seen by a camera of ``frame`` pixels."""

    frame: tuple[int, int] = (1920, 1080)
    tilt: float = 0.04
    """How far the camera looks askew (fraction of the frame the far corners move in)."""

    def homography(self) -> np.ndarray:
        """Table mm -> frame pixels."""
        fw, fh = self.frame
        src = np.array(
            [[0, 0], [self.width_mm, 0], [self.width_mm, self.height_mm], [0, self.height_mm]],
            np.float32,
        )
        t = self.tilt
        dst = np.array(
            [
                [fw * (0.03 + t), fh * 0.02],
                [fw * (0.97 - t), fh * 0.02],
                [fw * 0.99, fh * 0.98],
                [fw * 0.01, fh * 0.98],
            ],
            np.float32,
        )
        return cv2.getPerspectiveTransform(src, dst)

    def zone_config(self) -> dict[str, object]:
        """The vision worker's zone configuration (``vision.zones.ZoneMap.from_config``)."""
        corners = cv2.perspectiveTransform(
            np.array(
                [
                    [
                        [0, 0],
                        [self.width_mm, 0],
                        [self.width_mm, self.height_mm],
                        [0, self.height_mm],
                    ]
                ],
                np.float32,
            ),
            self.homography(),
        )[0]
        return {
            "corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "zones": self.zones(),
        }

    def to_frame(self, point_mm: tuple[float, float]) -> tuple[float, float]:
        x, y = cv2.perspectiveTransform(np.array([[point_mm]], np.float32), self.homography())[0, 0]
        return float(x), float(y)

    def rail_mm(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The rail: the far half of an ellipse (centre, half axes in mm); it stops at the
        dealer's cut-out, at both ends of the major axis."""
        centre = (self.width_mm / 2, self.height_mm * 0.55)
        return centre, (self.width_mm * 0.46, self.height_mm * 0.5)

    def rail_ends(self) -> list[tuple[float, float]]:
        """Where the rail stops (frame pixels)."""
        (cx, cy), (ax, _) = self.rail_mm()
        return [self.to_frame((cx - ax, cy)), self.to_frame((cx + ax, cy))]

    def px_per_mm(self, point_mm: tuple[float, float]) -> float:
        a = self.to_frame(point_mm)
        b = self.to_frame((point_mm[0] + 10, point_mm[1]))
        return math.dist(a, b) / 10


# -- the script ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    card: str
    zone: str
    face: str = "down"
    duration_s: float = 0.5


@dataclass(frozen=True, slots=True)
class Turn:
    card: str
    duration_s: float = 0.4


@dataclass(frozen=True, slots=True)
class Move:
    card: str
    zone: str
    face: str | None = None
    """The face it lands with (default: as it was)."""
    duration_s: float = 0.5


@dataclass(frozen=True, slots=True)
class Chips:
    source: str
    zone: str
    counts: dict[int, int]
    """Denomination -> chips moved (taken from ``source``; new chips when it is ``tray``)."""
    duration_s: float = 0.6


@dataclass(frozen=True, slots=True)
class Amount:
    """Chips worth ``amount`` slid from ``source`` to ``zone`` (``tray``: new chips from the
    dealer's tray). The dealer makes change in ``source`` first, as dealers do."""

    source: str
    zone: str
    amount: int
    duration_s: float = 0.6


@dataclass(frozen=True, slots=True)
class Pause:
    duration_s: float


@dataclass(frozen=True, slots=True)
class Clear:
    """The dealer gathers every card on the table into the muck and off the table."""

    duration_s: float = 0.8


Step = Deal | Turn | Move | Chips | Amount | Pause | Clear


def step_frames(script: list[Step]) -> tuple[list[int], int]:
    """The frame at which each step of ``script`` begins, and the video's length in frames
    (``HandVideo.frames`` yields exactly these), without rendering anything."""
    starts, index = [], 0
    for step in script:
        starts.append(index)
        index += max(1, round(step.duration_s * FPS))
    return starts, index + FPS


def in_chips(amount: int) -> dict[int, int]:
    """The fewest chips of the default set that make ``amount``."""
    out: dict[int, int] = {}
    for denomination in sorted(DENOMINATION_COLOURS, reverse=True):
        count, amount = divmod(amount, denomination)
        if count:
            out[denomination] = count
    if amount:
        raise ValueError(f"{amount} cannot be paid in chips of {sorted(DENOMINATION_COLOURS)}")
    return out


DENOMINATION_COLOURS = {c.denomination: c.name for c in DEFAULT_CHIP_SET}


# -- the renderer -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Object:
    kind: str  # "card" or "chip"
    name: str  # the card, or the chip's colour
    zone: str
    at: tuple[float, float]  # mm
    angle: float
    face: str = "down"
    denomination: int = 0


@dataclass(frozen=True, slots=True)
class Truth:
    """One object in a frame: kind ``card``/``card_back``/``chip``/``hand``, its name (card or
    chip colour), zone, and box in frame pixels."""

    kind: str
    name: str
    zone: str
    box: tuple[float, float, float, float]
    moving: bool


@dataclass(frozen=True, slots=True)
class Frame:
    index: int
    ts_ns: int
    image: np.ndarray
    objects: tuple[Truth, ...]
    step: int
    """Index of the script step being played (or just played)."""


@dataclass
class HandVideo:
    layout: Layout
    script: list[Step]
    seed: int = 0
    start: dict[str, dict[int, int]] = field(default_factory=dict)
    """Chips resting before the first step: zone -> denomination -> count."""
    images: bool = True
    """False: frames carry the ground truth only (``image`` is empty), for fast tests."""

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        self._rng = rng
        self.style = STYLES[rng.randrange(len(STYLES))]
        self.back = np.asarray(draw_back(rng.randrange(4)), np.float32)
        self.hand_seed = rng.randrange(2**31)
        fw, fh = self.layout.frame
        self.background: np.ndarray = _NO_IMAGE.astype(np.float32)
        self.noise: list[np.ndarray] = []
        if self.images:
            # Past the drawn table the cloth goes on, mirrored: its last row repeated would
            # draw stripes at the frame's edge that no camera sees.
            self.background = cv2.warpPerspective(
                self._felt_mm(),
                self.layout.homography(),
                (fw, fh),
                borderMode=cv2.BORDER_REFLECT_101,
            )
            noise = np.random.default_rng(self.seed)
            self.noise = [noise.normal(0, 3, (fh, fw, 3)).astype(np.float32) for _ in range(4)]
        self.objects: list[_Object] = []
        for zone, counts in self.start.items():
            self._add_chips(zone, counts)
        self._sprites: dict[tuple[str, str], np.ndarray] = {}
        self._chip_alpha = chip_alpha()

    def _felt_mm(self) -> np.ndarray:
        """The empty table at 1 px per mm with the zones' printed lines."""
        w, h = int(self.layout.width_mm), int(self.layout.height_mm)
        base = np.array(FELTS[0], np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        grain = np.random.default_rng(self.seed + 1).normal(0, 5, (h // 8, w // 8, 1))
        img += cv2.resize(grain.astype(np.float32), (w, h))[:, :, None]
        (cx, cy), (ax, ay) = self.layout.rail_mm()
        cv2.ellipse(
            img, (int(cx), int(cy)), (int(ax), int(ay)), 0, 180, 360, (30, 40, 60), 40, cv2.LINE_AA
        )
        cv2.ellipse(
            img,
            (w // 2, int(h * 0.6)),
            (int(w * 0.3), int(h * 0.32)),
            0,
            180,
            360,
            tuple(float(v) * 1.3 for v in base),
            3,
            cv2.LINE_AA,
        )
        for name in ("board", "burn", "muck"):
            (x1, y1), _, (x2, y2), _ = self.layout.zones()[name]
            cv2.rectangle(
                img,
                (int(x1), int(y1)),
                (int(x2), int(y2)),
                tuple(float(v) * 1.2 for v in base),
                2,
                cv2.LINE_AA,
            )
        return np.clip(img, 0, 255)

    # -- objects --

    def _slot(self, zone: str, kind: str) -> tuple[float, float]:
        x, y = self.layout.places[zone]
        same = [o for o in self.objects if o.zone == zone and o.kind == kind]
        n = len(same)
        if kind == "chip":  # spread side by side: a camera overhead counts only what it sees
            (ax, ay), (lx, ly) = self.layout.axes(zone)
            col, row = CHIP_SLOTS[n % len(CHIP_SLOTS)]
            pitch = CHIP_MM + 2
            return x + (col * ax + row * lx) * pitch, y + (col * ay + row * ly) * pitch
        if zone == "board":
            return x + (n - 2) * (CARD_MM[0] + 12), y
        if zone.startswith("seat:"):
            return x + (n - 0.5) * (CARD_MM[0] * 0.55), y + n * 4
        if zone == "burn":  # staggered, so the burns can be counted
            return x + (n - 1) * 28, y + (n - 1) * 10
        return x + self._rng.uniform(-45, 45), y + self._rng.uniform(-30, 30)  # untidy piles

    def _add_chips(self, zone: str, counts: dict[int, int]) -> None:
        for denomination, count in sorted(counts.items()):
            for _ in range(count):
                at = self._slot(zone, "chip")
                colour = DENOMINATION_COLOURS[denomination]
                self.objects.append(_Object("chip", colour, zone, at, 0.0, "up", denomination))

    def _card(self, card: str) -> _Object:
        for o in self.objects:
            if o.kind == "card" and o.name == card:
                return o
        raise KeyError(f"the script moves {card}, which is not on the table")

    # -- drawing --

    def _sprite(self, obj: _Object) -> np.ndarray:
        key = (obj.name, obj.face) if obj.kind == "card" else ("chip", obj.name)
        sprite = self._sprites.get(key)
        if sprite is None:
            if obj.kind == "chip":
                sprite = chip_sprite(obj.name)
            elif obj.face == "up":
                sprite = np.asarray(draw_card(obj.name, self.style), np.float32)
            else:
                sprite = self.back
            self._sprites[key] = sprite
        return sprite

    def _draw(self, canvas: np.ndarray, obj: _Object, moving: bool, zone: str) -> Truth:
        centre = self.layout.to_frame(obj.at)
        ppm = self.layout.px_per_mm(obj.at)
        sprite = self._sprite(obj)
        size_mm = CARD_MM[0] if obj.kind == "card" else CHIP_MM
        corners = paste(
            canvas,
            sprite,
            centre,
            obj.angle,
            size_mm * ppm / sprite.shape[1],
            shadow=obj.kind == "card" or moving,
            alpha=self._chip_alpha if obj.kind == "chip" else None,
        )
        box = (
            float(corners[:, 0].min()),
            float(corners[:, 1].min()),
            float(corners[:, 0].max()),
            float(corners[:, 1].max()),
        )
        if obj.kind == "card":
            kind = "card" if obj.face == "up" else "card_back"
            return Truth(kind, obj.name if obj.face == "up" else "card_back", zone, box, moving)
        return Truth("chip", obj.name, zone, box, moving)

    def _frame(
        self,
        index: int,
        step: int,
        carried: list[_Object],
        hand_at: tuple[float, float] | None,
        draw: bool = True,
    ) -> Frame:
        ts_ns = index * 1_000_000_000 // FPS
        if not draw:  # the scene moves on; nothing is drawn (a camera that drops the frame)
            return Frame(index, ts_ns, _NO_IMAGE, (), step)
        if not self.images:  # the ground truth only: every object placed, nothing painted
            canvas = np.zeros((0, 0, 3), np.float32)
            resting = sorted(self.objects, key=lambda o: o.kind == "card")
            placed = [self._draw(canvas, o, False, o.zone) for o in resting if o not in carried]
            placed += [self._draw(canvas, o, True, "moving") for o in carried]
            return Frame(index, ts_ns, _NO_IMAGE, tuple(placed), step)
        canvas = self.background.copy()
        truths = []
        for obj in sorted(self.objects, key=lambda o: o.kind == "card"):  # chips under cards
            if obj not in carried:
                truths.append(self._draw(canvas, obj, False, obj.zone))
        for obj in carried:
            truths.append(self._draw(canvas, obj, True, "moving"))
        if hand_at is not None:
            tip = self.layout.to_frame(hand_at)
            dealer = self.layout.to_frame((self.layout.width_mm / 2, self.layout.height_mm * 1.3))
            size = 95 * self.layout.px_per_mm(hand_at)
            outline = dealer_hand(canvas, random.Random(self.hand_seed), tip, size, dealer)
            box = (
                float(outline[:, 0].min()),
                float(outline[:, 1].min()),
                float(outline[:, 0].max()),
                float(outline[:, 1].max()),
            )
            truths.append(Truth("hand", "hand", "moving", box, True))
        canvas += self.noise[index % len(self.noise)]
        image = np.clip(canvas, 0, 255).astype(np.uint8)
        return Frame(index, ts_ns, image, tuple(truths), step)

    def frames(self, draw: Callable[[int], bool] | None = None) -> Iterator[Frame]:
        """Every frame of the script, then a second of the final table. ``draw(index)`` False:
        that frame is skipped (its ``image`` is empty and it has no ground truth)."""
        index = 0
        for number, step in enumerate(self.script):
            n = max(1, round(step.duration_s * FPS))
            moves = self._begin(step)
            for k in range(n):
                t = (k + 1) / n
                carried = [obj for obj, _, _ in moves]
                hand = None
                for obj, a, b in moves:
                    ease = 0.5 - 0.5 * math.cos(math.pi * min(1.0, t * 1.15))
                    obj.at = (a[0] + (b[0] - a[0]) * ease, a[1] + (b[1] - a[1]) * ease)
                    hand = obj.at
                if isinstance(step, Turn) and k < n - 1:  # the dealer's hand turns it over
                    turning = self._card(step.card)
                    hand = turning.at
                    carried = [turning]
                if moves and k == n - 1:
                    carried, hand = [], None
                yield self._frame(index, number, carried, hand, draw is None or draw(index))
                index += 1
            self._end(step)
        for _ in range(FPS):
            last = len(self.script) - 1
            yield self._frame(index, last, [], None, draw is None or draw(index))
            index += 1

    def _begin(self, step: Step) -> list[tuple[_Object, tuple[float, float], tuple[float, float]]]:
        """The objects a step carries, each with where it starts and where it ends (mm)."""
        if isinstance(step, Deal):
            shoe = self.layout.places["shoe"]
            target = self._slot(step.zone, "card")
            obj = _Object("card", step.card, "moving", shoe, self._rng.uniform(-6, 6), step.face)
            self.objects.append(obj)
            obj.zone = step.zone
            return [(obj, shoe, target)]
        if isinstance(step, Move):
            obj = self._card(step.card)
            start = obj.at
            obj.zone = "moving"
            target = self._slot(step.zone, "card")
            obj.zone = step.zone
            if step.face is not None:
                obj.face = step.face
            return [(obj, start, target)]
        if isinstance(step, Chips):
            moved = []
            for denomination, count in sorted(step.counts.items()):
                colour = DENOMINATION_COLOURS[denomination]
                if step.source == "tray":
                    taken = []
                    for _ in range(count):
                        obj = _Object(
                            "chip",
                            colour,
                            step.zone,
                            self.layout.places["tray"],
                            0.0,
                            "up",
                            denomination,
                        )
                        self.objects.append(obj)
                        taken.append(obj)
                else:
                    pool = [
                        o
                        for o in self.objects
                        if o.kind == "chip"
                        and o.zone == step.source
                        and o.denomination == denomination
                    ]
                    if len(pool) < count:
                        raise ValueError(f"{step.source} has {len(pool)} chips of {denomination}")
                    taken = pool[-count:]
                for obj in taken:
                    start = obj.at
                    obj.zone = "moving"
                    target = self._slot(step.zone, "chip")
                    obj.zone = step.zone
                    moved.append((obj, start, target))
            return moved
        if isinstance(step, Amount):
            return self._begin(Chips(step.source, step.zone, self._change(step), step.duration_s))
        if isinstance(step, Clear):
            muck = self.layout.places["muck"]
            return [(o, o.at, muck) for o in self.objects if o.kind == "card"]
        return []

    def _change(self, step: Amount) -> dict[int, int]:
        """Lay out ``step.source`` so that chips worth ``step.amount`` can be taken: the
        chips it needs, in the fewest chips; returns them by denomination."""
        paid = in_chips(step.amount)
        if step.source == "tray":
            return paid
        here = [o for o in self.objects if o.kind == "chip" and o.zone == step.source]
        total = sum(o.denomination for o in here)
        if total < step.amount:
            raise ValueError(f"{step.source} holds {total}, cannot pay {step.amount}")
        for obj in here:
            self.objects.remove(obj)
        self._add_chips(step.source, in_chips(total - step.amount))
        self._add_chips(step.source, paid)
        return paid

    def _colour_up(self, zone: str) -> None:
        """More chips than the zone's places (8 in a bet zone, 16 elsewhere): the dealer
        changes them for the fewest chips of the same value, as dealers do with a big bet."""
        here = [o for o in self.objects if o.kind == "chip" and o.zone == zone]
        if len(here) <= (8 if zone.startswith("bet:") else len(CHIP_SLOTS)):
            return
        for obj in here:
            self.objects.remove(obj)
        self._add_chips(zone, in_chips(sum(o.denomination for o in here)))

    def _relayout(self, zone: str) -> None:
        """Tidy a zone's chips into their places (the dealer squares the stacks)."""
        chips = [o for o in self.objects if o.kind == "chip" and o.zone == zone]
        for obj in chips:
            obj.zone = "moving"
        for obj in chips:
            obj.at = self._slot(zone, "chip")
            obj.zone = zone

    def _end(self, step: Step) -> None:
        if isinstance(step, Chips | Amount):
            self._relayout(step.source)
            self._colour_up(step.zone)
            self._relayout(step.zone)
        if isinstance(step, Turn):
            obj = self._card(step.card)
            obj.face = "up" if obj.face == "down" else "down"
        if isinstance(step, Clear):
            self.objects = [o for o in self.objects if o.kind != "card"]


def demo_script(seed: int, seats: int = 6, *, expose: int | None = None) -> list[Step]:
    """A whole hand: hole cards face down to every seat (with seat ``expose``'s first card
    dealt face up, if given), burn and flop, burn and turn, burn and river, a fold to the muck,
    bets into the pot and the pot pushed to a seat, then the table cleared."""
    rng = random.Random(seed)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    steps: list[Step] = []
    holes: dict[int, list[str]] = {}
    for _ in range(2):
        for seat in range(1, seats + 1):
            card = deck.pop()
            holes.setdefault(seat, []).append(card)
            face = "up" if expose == seat and len(holes[seat]) == 1 else "down"
            steps.append(Deal(card, f"seat:{seat}", face))
    steps.append(Pause(0.3))
    for seat in (1, 2):
        steps.append(Chips("stack:" + str(seat), f"bet:{seat}", {25: 2}))
    steps.append(Move(holes[3][0], "muck"))
    steps.append(Move(holes[3][1], "muck"))
    steps.append(Chips("bet:1", "pot", {25: 2}))
    steps.append(Chips("bet:2", "pot", {25: 2}))
    for street in (3, 1, 1):
        steps.append(Deal(deck.pop(), "burn"))
        for _ in range(street):
            steps.append(Deal(deck.pop(), "board", "up"))
    steps.append(Pause(0.3))
    steps.append(Chips("pot", "stack:1", {25: 4}))
    steps.append(Pause(0.3))
    return steps


def demo_start(seats: int = 6) -> dict[str, dict[int, int]]:
    """Every seat's chips before the hand."""
    return {f"stack:{seat}": {25: 4, 5: 2} for seat in range(1, seats + 1)}
