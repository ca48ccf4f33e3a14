"""Two stages: the detector finds cards, card backs, chips and hands in 320-pixel tiles; the card
identity classifier names each face-up card from its full-resolution crop, fused with its reading
turned upright (``vision.upright``), and the chip reader names each chip's
colour and denomination.

``Recogniser.frame`` reads a camera frame at its own resolution (tiles, optionally only those
that changed); ``Recogniser.image`` reads a still of any size (a phone photo to a 24-megapixel
overhead still) at a few scales, so a card is found at the scale where it is 16 to 110 pixels
wide.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.chips import DEFAULT_CHIP_SET, ChipColour, ChipReader
from vision.detector import BACK, FACE, OVERLAP, SAME_IOU, Detection, Detector
from vision.identity import CROP_PX, NONE, IdentityClassifier
from vision.paths import CORNERS_MODEL, DETECTOR_MODEL, IDENTITY_MODEL, UPRIGHT_MODEL
from vision.tiles import Tile, iou, tile_grid, touches_edge
from vision.upright import UprightReader, fused_names

log = logging.getLogger(__name__)

Box = tuple[float, float, float, float]

CARD, CHIP, HAND = FACE, "chip", "hand"
SHEETS = (CARD, BACK)
"""The detector's labels of a card, face up or down."""
LARGEST = 0.4
"""The largest object a tile's reading is trusted with, as a fraction of the input (training
frames had cards up to 110 of 320 pixels)."""


@dataclass(frozen=True, slots=True)
class Sighting:
    kind: str
    """``card`` (face up), ``card_back``, ``chip`` or ``hand``."""
    conf: float
    """The detector's confidence in the box."""
    box: Box
    """x1, y1, x2, y2 in the pixels of the frame or image given."""
    card: str | None = None
    """A face-up card's identity, when the classifier is sure enough."""
    card_conf: float = 0.0
    colour: str | None = None
    denomination: int | None = None
    moving: bool = False
    """Seen where something is moving (a hand, a card in flight): not at rest."""

    @property
    def label(self) -> str:
        """What ``feltwatch detect`` prints: the card (``"As"``), ``card_back``, ``chip``,
        ``hand``, or ``card`` for a face whose identity is not sure."""
        return self.card if self.kind == CARD and self.card else self.kind

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "label": self.label,
            "conf": round(self.conf * (self.card_conf if self.card else 1.0), 4),
            "box": [round(v, 1) for v in self.box],
        }
        if self.kind == CHIP:
            out["colour"], out["denomination"] = self.colour, self.denomination
        return out


class Recogniser:
    def __init__(
        self,
        detector: Path = DETECTOR_MODEL,
        identity: Path = IDENTITY_MODEL,
        chip_set: tuple[ChipColour, ...] = DEFAULT_CHIP_SET,
        *,
        threads: int = 1,
        conf: float = 0.3,
        card_conf: float = 0.3,
        overlap_px: int = 64,
        turns: int = 4,
        upright: tuple[Path, Path] | None = (CORNERS_MODEL, UPRIGHT_MODEL),
    ) -> None:
        """``upright``: the corner regressor and the upright reader that read each face-up card
        turned upright (``vision.upright``), or None for the classifier alone."""
        self.detector = Detector(detector, threads=threads, conf=conf)
        self.identity = IdentityClassifier(identity, threads=threads, turns=turns)
        self.upright = self._upright(upright, threads)
        self.chips = ChipReader(chip_set)
        self.tile_px = self.detector.size
        self.overlap_px = overlap_px
        self.card_conf = card_conf

    def _upright(self, models: tuple[Path, Path] | None, threads: int) -> UprightReader | None:
        if models is None:
            return None
        missing = [str(path) for path in models if not Path(path).is_file()]
        if missing:
            log.warning(
                "%s: model file missing: cards are named by the identity classifier alone",
                ", ".join(missing),
            )
            return None
        if not (self.identity.masked and self.identity.crop_px == CROP_PX):
            log.warning(
                "the identity classifier reads no mask channel at %d pixels: the upright "
                "reader is not used with it",
                CROP_PX,
            )
            return None
        return UprightReader(*models, threads=threads)

    # -- detection ---------------------------------------------------------------------------

    def grid(self, width: int, height: int) -> list[Tile]:
        return tile_grid(width, height, self.tile_px, self.overlap_px)

    def detect_tiles(
        self, frame: np.ndarray, tiles: Iterable[Tile], *, drop_cut: bool = False
    ) -> list[Detection]:
        """Detections of the given tiles of ``frame`` (read at full resolution), in frame pixels.
        A box cut by an inner tile edge has its confidence halved, so the neighbour that holds
        the object whole wins the merge (a cut card or back counts only where another tile saw
        one there too: ``merge``); with ``drop_cut`` it is dropped (another scale holds the
        object), and so is a cut chip smaller than the tiles' overlap (``_whole_beside``)."""
        h, w = frame.shape[:2]
        out = []
        for tile in tiles:
            x1, y1, x2, y2 = tile.box
            for d in self.detector(frame[y1:y2, x1:x2]):
                box = (d.box[0] + x1, d.box[1] + y1, d.box[2] + x1, d.box[3] + y1)
                cut = touches_edge(box, tile, w, h)
                if cut and (drop_cut or self._whole_beside(d.label, box)):
                    continue
                conf = d.conf / 2 if cut else d.conf
                found = Detection(d.label, conf, box, cut=cut, tile=(tile.x, tile.y))
                out.append(_clipped(found, w, h))
        return out

    def _whole_beside(self, label: str, box: Box) -> bool:
        """Whether a ``label`` cut by a tile's edge at ``box`` lies whole in the neighbour tile:
        a chip (round: its cut box is no longer than it is wide) smaller than the tiles'
        overlap. The detector also fires on a sliver of felt beside a chip at a tile's edge,
        which no whole box holds: kept, such a sliver would be read as one more chip (a 25 of
        the rake in the winner's stack at the push)."""
        return label == CHIP and max(box[2] - box[0], box[3] - box[1]) < self.overlap_px

    def detect_image(self, image: np.ndarray, finest_px: int = 2048) -> list[Detection]:
        """Detections in a still of any size: the whole image at one input, then tiles of the
        image scaled so its longer side is 2, 4, ... times the input, up to ``finest_px`` (or
        the image's own size). A tile keeps only the whole objects of the sizes the detector
        was trained on (up to ``LARGEST`` of the input): larger ones are found at a coarser
        scale, and the detector's guesses at them from a tile are unreliable."""
        h, w = image.shape[:2]
        longest = max(h, w)
        found = [_clipped(d, w, h) for d in self.detector(image)]
        side = self.tile_px * 2
        while True:
            scale = min(1.0, side / longest)
            scaled = (
                image
                if scale == 1.0
                else cv2.resize(
                    image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
                )
            )
            sh, sw = scaled.shape[:2]
            largest = LARGEST * self.tile_px
            for d in self.detect_tiles(scaled, self.grid(sw, sh), drop_cut=True):
                if max(d.box[2] - d.box[0], d.box[3] - d.box[1]) <= largest:
                    x1, y1, x2, y2 = (v / scale for v in d.box)
                    box = (x1, y1, x2, y2)
                    # Clipped again: the scaled side was rounded, so a box at its edge can
                    # reach a few pixels past the image's once scaled back.
                    scaled_back = Detection(d.label, d.conf, box)
                    found.append(_clipped(scaled_back, w, h))
            if scale == 1.0 or side >= finest_px:
                break
            side *= 2
        return merge(found)

    # -- naming ------------------------------------------------------------------------------

    def name(
        self,
        image: np.ndarray,
        detections: list[Detection],
        context: list[Detection] | None = None,
    ) -> list[Sighting]:
        """Sightings for ``detections`` of ``image``: cards named, chips coloured; a face the
        classifier calls ``none`` (not a card face) is dropped. ``context``: everything seen in
        the image (default ``detections``), whose cards, face up or down, the classifier is told
        of where they overlap the card it names."""
        cards = [d for d in detections if d.label == CARD]
        seen = [d.box for d in (detections if context is None else context) if d.label in SHEETS]
        identities = fused_names(self.identity, self.upright, image, [d.box for d in cards], seen)
        named = dict(zip((id(d) for d in cards), identities, strict=True))
        out = []
        for d in detections:
            if d.label == CARD:
                identity = named[id(d)]
                if identity.card == NONE:
                    continue
                sure = identity.conf >= self.card_conf
                out.append(
                    Sighting(CARD, d.conf, d.box, identity.card if sure else None, identity.conf)
                )
            elif d.label == CHIP:
                chip = self.chips.read(_crop(image, d.box))
                out.append(
                    Sighting(CHIP, d.conf, d.box, colour=chip.name, denomination=chip.denomination)
                )
            else:
                out.append(Sighting(d.label, d.conf, d.box))
        return out

    def image(self, image: np.ndarray) -> list[Sighting]:
        return self.name(image, self.detect_image(image))

    def frame(self, frame: np.ndarray, tiles: Iterable[Tile] | None = None) -> list[Sighting]:
        return self.name(frame, self.detect_frame(frame, tiles))

    def detect_frame(
        self, frame: np.ndarray, tiles: Iterable[Tile] | None = None
    ) -> list[Detection]:
        """One box per object of ``frame`` read in ``tiles`` (default: the whole grid) at full
        resolution, as the worker reads a camera's frame."""
        h, w = frame.shape[:2]
        chosen = self.grid(w, h) if tiles is None else tiles
        return merge(self.detect_tiles(frame, chosen))


def _clipped(d: Detection, width: int, height: int) -> Detection:
    """``d`` with its box inside the image (the network may reach a little past an edge)."""
    x1, y1, x2, y2 = d.box
    box = (max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2))
    return d if box == d.box else replace(d, box=box)


def _crop(image: np.ndarray, box: Box) -> np.ndarray:
    h, w = image.shape[:2]
    x1, y1 = max(0, int(box[0])), max(0, int(box[1]))
    x2, y2 = min(w, int(np.ceil(box[2]))), min(h, int(np.ceil(box[3])))
    return image[y1 : max(y2, y1 + 1), x1 : max(x2, x1 + 1)]


CHIP_IOU = 0.3
"""Chips lie side by side under an overhead camera (what is stacked shows its top chip only):
two chip boxes overlapping this much are one chip seen twice (the detector also fires, weakly,
on the gap between four chips of a square)."""
CHIP_COVERED = 0.5
"""A chip box whose area is this much covered by better chip boxes is the gap between them."""
CHIP_AS_SHEET_IOU = 0.5
"""A face-up card's or a back's box that overlaps a better chip box this much is that chip
taken for a card (a white or light chip, a small stack). A card with a chip on it (a card
protector) overlaps the chip's box far less: a chip is about 0.6 of a card's width, 0.26 of its
box's area."""


CUT_SEEN_BESIDE = 0.2
"""A card or back box cut by a tile's edge is kept only where a card or back box read in
another tile covers this share of it: a card across the edge shows in both tiles (they overlap),
while what the detector takes for a card in one tile only, cut by its edge, is something else
(the curve of the rail, a printed line across a tile's corner). On every 20th frame of two
demo sessions no test plays, read by the recipe's detector, the rule keeps 865 of 877 true cut
boxes and drops 741 of 1,161 false ones, and all 80 on the bare table."""


INSIDE = 0.8
"""A box that lies this much inside a better box of its class is part of that object: cut by a
tile's edge (the next tile holds it whole), or seen at a finer scale."""
FACE_INSIDE = 0.95
"""A face-up card's box no tile's edge cuts is dropped only when it lies this much inside a
better one: the lower card of a hand lies 0.7 to 0.85 inside the upper card's box (dropped at
``INSIDE``, its name would be lost)."""
BETWEEN_COVERED = 0.8
BETWEEN_ONE = 0.7
BETWEEN_CONF = 0.5
"""A weak face-up card's box (below ``BETWEEN_CONF``) that lies ``BETWEEN_COVERED`` under two or
more better faces' and backs' boxes together, no one of them holding ``BETWEEN_ONE`` of it, is
the detector's guess at the gap between two cards lying side by side (half of one and a sliver
of the next, seen from one tile): a card the board does not hold. The lower card of a hand lies
0.7 to 0.85 under its upper card alone; cards spread in a row lie half under each neighbour, but
the detector is sure of them. On every 20th frame of demo sessions no test plays, read by the
recipe's detector: sessions 101 and 202 (where the figures were chosen), 146 false face boxes
dropped and 6 true ones (all below 0.33, their boxes at IoU 0.56 to 0.74 of the card); sessions
303 and 404, 245 false and 1 true (of 6,229)."""


def merge(detections: list[Detection]) -> list[Detection]:
    """One box per object from overlapping tiles and scales: per-class suppression
    (the detector's ``OVERLAP``: face-up cards and backs their own, ``CHIP_IOU`` for chips,
    ``SAME_IOU`` for the others), then a box inside a better box of its class (``INSIDE``;
    ``FACE_INSIDE`` for a face no tile's edge cuts), or a chip box mostly covered by better
    ones, is dropped; so is a face's or a back's box on a better chip box
    (``CHIP_AS_SHEET_IOU``), a face or a back cut by a tile's edge that no other tile saw
    (``CUT_SEEN_BESIDE``), and a weak face between two cards (``BETWEEN_COVERED``)."""
    detections = _seen_beside(detections)
    kept = []
    for label in sorted({d.label for d in detections} - {CHIP}):
        group = [d for d in detections if d.label == label]
        inside = FACE_INSIDE if label == CARD else INSIDE
        kept += _suppressed(group, OVERLAP.get(label, SAME_IOU), inside)
    chips = _suppressed([d for d in detections if d.label == CHIP], CHIP_IOU, INSIDE)
    sheets = _between(sorted((d for d in kept if not _a_chip(d, chips)), key=lambda d: -d.conf))
    return sheets + chips


def _between(sheets: list[Detection]) -> list[Detection]:
    """``sheets`` (best first) less each weak face between better ones (``BETWEEN_COVERED``)."""
    if len(sheets) < 3:
        return sheets
    inside = _inside(np.array([d.box for d in sheets], np.float64))
    out: list[int] = []
    for i, d in enumerate(sheets):
        if d.label == CARD and d.conf < BETWEEN_CONF:
            under = inside[i, [j for j in out if sheets[j].conf > d.conf]]
            if (
                (under > 0).sum() >= 2
                and under.sum() >= BETWEEN_COVERED
                and under.max() < BETWEEN_ONE
            ):
                continue
        out.append(i)
    return [sheets[i] for i in out]


def _seen_beside(detections: list[Detection]) -> list[Detection]:
    """``detections`` less each face or back cut by a tile's edge that no face's or back's box
    read in another tile covers ``CUT_SEEN_BESIDE`` of."""
    sheets = [d for d in detections if d.label in SHEETS]
    if not any(d.cut for d in sheets):
        return detections
    covered = _inside(np.array([d.box for d in sheets], np.float64)) >= CUT_SEEN_BESIDE
    tiles = [d.tile for d in sheets]
    unseen = {
        id(d)
        for i, d in enumerate(sheets)
        if d.cut and not any(c and t != d.tile for c, t in zip(covered[i], tiles, strict=True))
    }
    return [d for d in detections if id(d) not in unseen]


def _a_chip(detection: Detection, chips: list[Detection]) -> bool:
    """Whether a face's or a back's ``detection`` is one of ``chips`` taken for a card."""
    if detection.label not in (CARD, BACK):
        return False
    return any(
        chip.conf > detection.conf and iou(detection.box, chip.box) >= CHIP_AS_SHEET_IOU
        for chip in chips
    )


def _suppressed(detections: list[Detection], iou: float, whole_inside: float) -> list[Detection]:
    """``merge`` of detections of one class or more that share ``iou`` and ``whole_inside``:
    the inside rule for a box no tile's edge cuts (``INSIDE`` for a cut one)."""
    if not detections:
        return []
    boxes = [[d.box[0], d.box[1], d.box[2] - d.box[0], d.box[3] - d.box[1]] for d in detections]
    scores = [d.conf for d in detections]
    labels = sorted({d.label for d in detections})
    classes = [labels.index(d.label) for d in detections]
    keep = cv2.dnn.NMSBoxesBatched(boxes, scores, classes, 0.0, iou)
    kept = sorted((detections[i] for i in np.array(keep, int).reshape(-1)), key=lambda d: -d.conf)
    inside = _inside(np.array([d.box for d in kept], np.float64).reshape(-1, 4))
    label = np.array([d.label for d in kept])
    out: list[int] = []
    for i, d in enumerate(kept):
        if out:
            share = inside[i, out]
            if (share[label[out] == d.label] >= (INSIDE if d.cut else whole_inside)).any():
                continue
            if d.label == "chip" and share.sum() >= CHIP_COVERED:
                continue  # the gap between chips, covered by the chips around it
        out.append(i)
    return [kept[i] for i in out]


def _inside(boxes: np.ndarray) -> np.ndarray:
    """[i, j]: the fraction of box i's area inside box j (``boxes`` [N, 4] x1, y1, x2, y2)."""
    x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
    w = np.clip(np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]), 0, None)
    h = np.clip(np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]), 0, None)
    area = np.maximum(1e-6, (x2 - x1) * (y2 - y1))
    covered: np.ndarray = w * h / area[:, None]
    return covered
