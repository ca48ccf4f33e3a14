"""From tracks to debounced observations in table zones (``engine.observations``).

A card is reported once it has rested in the same zone with the same face for ``settle_passes``
detection passes (a card sliding across the felt, or under a moving hand, is not reported at
every zone it crosses): first as ``CardAppeared``, later as ``CardMoved`` (another zone) or
``CardTurned`` (other face, or a name once the classifier has one, or a clearly better one). A
face-up card is reported at rest even before it is named (the shoe's read names it). A card
carried away loses its track on the way: the observer pairs the card that went out of view
with the one that comes to rest elsewhere (a card landing in a seat, the board or the burn is a
new card from the shoe, unless it lands where one was lost from view; cards landing on the
muck are paired first folded, first found; a card found where one was lost from view is that
one, the nearest if cards overlap), and reports ``CardGone`` if none lands in time. A card
first seen at the pass another was last seen at rest far away is not that one. A card whose
track is lost while a card is still seen where it lay (two overlapping cards read as one box)
has not left yet. A seat's card thrown on the muck pile often never comes to rest apart from
it: one that left its seat while the pile moved is reported moved to the muck, and gone when
the muck is cleared (a pile missed for a pass, or under the dealer's hand, is still there).
Chips are counted per zone by denomination once at rest and reported when a zone's count
changed and held (not while a hand or a card in transit lies over them, nor where something
moved that the detector has not read since); a dealer's hand when it enters or leaves a zone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from engine.observations import (
    OFF_TABLE,
    CardAppeared,
    CardGone,
    CardMoved,
    CardTurned,
    ChipsInZone,
    DealerHand,
    Face,
    Observation,
)
from engine.zones import Place, zone_of
from vision.detector import BACK
from vision.recognise import CARD, CHIP, HAND, Sighting
from vision.tiles import iou
from vision.tracker import Track, Tracker

ZoneOf = Callable[[tuple[float, float]], str | None]
ChipPlaces = Callable[[str], int | None]


class _CardFields(TypedDict):
    """What every observation of a card at rest says."""

    ts_ns: int
    camera: str
    track: int
    zone: str
    face: Face
    card: str | None
    conf: float


DEALT_TO = ("seat:", "board", "burn")
"""Zones a card reaches from the shoe; cards carried from elsewhere go to the muck (or off)."""
MUCK = "muck"
PLAYERS = "seat:"
"""The only cards carried among chips (toward a player's stack or bet) are a player's own: the
board, burn and muck are collected to the muck or off the table (a spot in a pushed pot read as
a card back is not the burn or muck card collected meanwhile)."""
COVERED = 1 / 3
"""A chip this much under a hand or a card in transit is hidden (its zone's count waits)."""
PILE_WAIT_NS = 1_500_000_000
"""A seat's card picked up this long ago, not found at rest elsewhere nor still where it lay,
was thrown on the muck if the pile there moved meanwhile."""
STILL_THERE = 0.6
"""A card seen this much (IoU) over where a lost one lay is that card, still there."""
PUT_BACK = 0.3
"""A card lost from view is back if one rests within this much of its size of where it lay."""
NEAR = 1.5
"""A carried card first seen within this much of its size of where a card was last seen, a
moment before that one was lost, can be that card."""
Box = tuple[float, float, float, float]


@dataclass(slots=True)
class _CardState:
    candidate: tuple[str, Face] | None = None
    passes: int = 0
    """Consecutive passes at rest in ``candidate``."""
    centre: tuple[float, float] | None = None
    settled: tuple[str, Face] | None = None
    reported_card: str | None = None
    card_id: int = 0
    """The id reported for this physical card (the first track's id, kept across a move)."""
    unseen: int = 0
    """Consecutive passes the tracker did not match this card."""
    first_ns: int = 0
    """When the tracker first matched it (for a carried card: somewhere on its way)."""
    seen_ns: int = 0
    """When the tracker last matched it."""
    first_at: tuple[float, float] | None = None
    """Where (box centre) the tracker first matched it."""
    seen_at: tuple[float, float] | None = None
    """Where the tracker last matched it."""
    rest: tuple[float, float] | None = None
    """Where it lies (box centre) once reported at rest."""
    rest_box: Box | None = None
    """Its box there."""
    pending_card: str | None = None
    """Its name as it comes to rest (face up), before it is reported."""
    disturbed: bool = False
    """It moved, or something moved over it, since it last came to rest: only then can it have
    been turned over. A face change on an undisturbed card is a misreading of the other face."""


@dataclass(slots=True)
class _Departure:
    state: _CardState
    ts_ns: int
    track: int
    """The tracker's id of the card when it was lost (the tracker may find it again)."""


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _distance(a: tuple[float, float] | None, b: tuple[float, float] | None) -> float:
    """City-block distance between two centres (infinite if either is unknown)."""
    if a is None or b is None:
        return float("inf")
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _intersection(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _covered(chips: Sequence[Box], covers: Sequence[Box]) -> np.ndarray:
    """For each of ``chips``, whether one of ``covers`` lies over a third of it or more."""
    if not chips or not covers:
        return np.zeros(len(chips), bool)
    a, b = np.asarray(chips, np.float64)[:, None, :], np.asarray(covers, np.float64)[None]
    w = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0])
    h = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1])
    inter = np.where((w > 0) & (h > 0), w * h, 0.0)
    area = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    covered: np.ndarray = np.asarray(((inter > 0) & (inter >= COVERED * area)).any(axis=1))
    return covered


class Observer:
    def __init__(
        self,
        camera: str,
        zone_of: ZoneOf,
        *,
        settle_passes: int = 3,
        depart_passes: int = 2,
        move_window_ns: int = 2_500_000_000,
        rest_fraction: float = 0.15,
        sure_share: float = 0.6,
        tracker: Tracker | None = None,
        speed: float = 1.0,
        chip_places: ChipPlaces | None = None,
    ) -> None:
        """``depart_passes``: passes a resting card may be unseen before it counts as picked up;
        ``move_window_ns``: how long a picked-up card may travel before it lands elsewhere (then
        it is ``CardMoved``; if nothing lands, ``CardGone``); ``rest_fraction``: how far (of the
        card's size) its centre may shift between passes and still be at rest; ``speed``: how
        many times faster than real time the table plays (a demo played fast: the times above
        shrink by as much); ``chip_places``: how many chips lie side by side in a zone
        (``ZoneMap.chip_places``): a zone that holds as many is reported ``full``."""
        self.camera = camera
        self.zone_of = zone_of
        self.chip_places = chip_places
        self.settle_passes = settle_passes
        self.depart_passes = depart_passes
        self.move_window_ns = int(move_window_ns / speed)
        self.rest_fraction = rest_fraction
        self.sure_share = sure_share
        """A card's name changes (``CardTurned``) only when the new name has this share of the
        votes."""
        self.tracker = tracker or Tracker()
        self._cards: dict[int, _CardState] = {}
        self._departed: list[_Departure] = []
        self._pile_wait_ns = int(PILE_WAIT_NS / speed)
        self._slack_ns = int(150_000_000 / speed)
        """Tolerance between a departure's last sighting and its carried card's first one."""
        self._chips: dict[str, Counter[int]] = {}
        self._chip_candidate: dict[str, tuple[Counter[int], int]] = {}
        self._boxes: list[Box] = []
        """The cards in view at this pass."""
        self._muck_moved_ns = -1
        """When a card was last seen moving on the muck."""
        self._muck_seen_ns = -1
        """When a card was last seen on the muck."""
        self._muck_since_ns = -1
        """Since when cards have been seen on the muck at every pass (-1: none now)."""
        self._muck_boxes: list[Box] = []
        """Where the muck pile's cards were last seen."""
        self._muck_unseen = 0
        """Consecutive passes without the muck pile in view (nor under a hand)."""
        self._in_pile: list[int] = []
        """Cards reported thrown on the muck but never seen at rest apart on it."""
        self._chip_boxes: dict[str, list[Box]] = {}
        """Where the chips of each zone were last seen uncovered."""
        self._hands: dict[str, tuple[bool, int]] = {}
        self._hand_reported: dict[str, bool] = {}

    def zone(self, box: Box) -> str:
        return self.zone_of(_centre(box)) or OFF_TABLE

    def update(
        self,
        sightings: list[Sighting],
        ts_ns: int,
        *,
        unread: Sequence[Box] = (),
    ) -> list[Observation]:
        """One detection pass over the whole frame (every object in view). ``unread``: where
        something moved that the detector has not read since (what the pass says is there may
        be gone, and what came there may not be in it yet)."""
        out: list[Observation] = []
        cards = [s for s in sightings if s.kind in (CARD, BACK)]
        self._boxes = [s.box for s in cards]
        matched = self.tracker.update(cards, ts_ns)
        seen = set()
        for track, sighting in matched:
            seen.add(track.id)
            out.extend(self._card(track, sighting, ts_ns))
        for track_id, state in list(self._cards.items()):
            if track_id in seen:
                continue
            state.unseen += 1
            state.passes = 0
            if track_id not in self.tracker.tracks or state.unseen >= self.depart_passes:
                del self._cards[track_id]
                if state.settled is not None:
                    self._departed.append(_Departure(state, ts_ns, track_id))
        out += self._watch_muck(cards, [s.box for s in sightings if s.kind == HAND], ts_ns)
        out += self._lost(ts_ns)
        # What hides chips: a hand, or a card in transit (moving, or not yet at rest anywhere).
        # A card at rest is not one (a pile of chips misread as a card must not freeze a zone).
        covers = [s.box for s in sightings if s.kind == HAND or (s.kind != CHIP and s.moving)]
        covers += [
            sighting.box
            for track, sighting in matched
            if track.id in self._cards and self._cards[track.id].settled is None
        ]
        chips = [s for s in sightings if s.kind == CHIP]
        out.extend(self._chip_counts(chips, covers, unread, ts_ns))
        out.extend(self._dealer_hands([s for s in sightings if s.kind == HAND], ts_ns))
        return out

    def _watch_muck(self, cards: list[Sighting], hands: list[Box], ts_ns: int) -> list[Observation]:
        """Whether the muck pile is there (seen, or under a dealer's hand where it was last
        seen) and moving; once it is cleared away, the cards lost in it are gone with it."""
        on_muck = [s for s in cards if self.zone(s.box) == MUCK]
        if any(s.moving for s in on_muck):
            self._muck_moved_ns = ts_ns
        if on_muck:
            if self._muck_since_ns < 0:
                self._muck_since_ns = ts_ns
            self._muck_seen_ns = ts_ns
            self._muck_boxes = [s.box for s in on_muck]
            self._muck_unseen = 0
            return []
        if any(_intersection(pile, hand) for pile in self._muck_boxes for hand in hands):
            self._muck_unseen = 0
            return []  # under the dealer's hand: not cleared (yet)
        self._muck_unseen += 1
        if self._muck_unseen < self.depart_passes:
            return []  # missed for a pass, as any card can be
        self._muck_since_ns = -1
        self._muck_boxes = []
        if not self._in_pile or ts_ns - self._muck_seen_ns <= self.move_window_ns:
            return []
        gone, self._in_pile = self._in_pile, []
        return [CardGone(ts_ns=ts_ns, camera=self.camera, track=i, zone=MUCK) for i in gone]

    def _lost(self, ts_ns: int) -> list[Observation]:
        """The picked-up cards that landed nowhere seen: thrown on the muck (a seat's card,
        away for ``PILE_WAIT_NS`` while the pile on the muck moved, or formed (the first hand
        killed at a showdown lands on an empty muck), and no card where it lay: the cards thrown
        on the pile merge with it, none comes to rest apart), or gone once their time to land
        is over."""
        out: list[Observation] = []
        for departure in list(self._departed):
            gone = departure.state
            assert gone.settled is not None
            source = gone.settled[0]
            if self._still_there(gone):  # its track is lost, not the card: it has not left yet
                departure.ts_ns = ts_ns
                continue
            waited = ts_ns - departure.ts_ns
            thrown = (
                zone_of(source).place is Place.SEAT
                and waited > self._pile_wait_ns
                and self._muck_moved_ns > departure.ts_ns
                and self._muck_since_ns >= 0
            )
            if thrown:
                self._departed.remove(departure)
                self._in_pile.append(gone.card_id)
                out.append(
                    CardMoved(
                        ts_ns=ts_ns,
                        camera=self.camera,
                        track=gone.card_id,
                        source=source,
                        zone=MUCK,
                        face=Face.DOWN,
                        card=None,
                        conf=0.0,
                    )
                )
            elif waited > self.move_window_ns:
                self._departed.remove(departure)
                out.append(
                    CardGone(ts_ns=ts_ns, camera=self.camera, track=gone.card_id, zone=source)
                )
        return out

    def _still_there(self, state: _CardState) -> bool:
        """Whether a card is seen where this lost one lay (its track was lost, not the card)."""
        box = state.rest_box
        return box is not None and any(iou(box, other) >= STILL_THERE for other in self._boxes)

    def _at_rest(self, state: _CardState, box: Box) -> bool:
        centre = _centre(box)
        before, state.centre = state.centre, centre
        if before is None:
            return False
        size = max(box[2] - box[0], box[3] - box[1])
        return abs(centre[0] - before[0]) + abs(centre[1] - before[1]) <= self.rest_fraction * size

    def _arrival(self, state: _CardState, track_id: int, box: Box) -> _CardState | None:
        """The picked-up card that this newly resting one is: the one the tracker lost and
        found again as this track (``track_id``: the track it was lost as, or the one it was
        first reported as; the tracker followed the card, wherever it lands); else the latest
        departure (on the muck the earliest) that left before this card was first seen on its
        way, with the same face and (face up) the same identity if any. A card landing in a
        seat, the board or the burn is dealt from the shoe, unless it lands where a card of
        that zone was lost from view (a hand covered it, or it was lifted and put back, or
        the tracker followed a part of it as another track there); one landing among chips is
        a player's own."""
        assert state.candidate is not None
        zone, face = state.candidate
        size = max(box[2] - box[0], box[3] - box[1])
        refound = [d.state for d in self._departed if track_id in (d.track, d.state.card_id)]
        if refound:
            return self._taken(refound[-1])

        def same_place(other: _CardState) -> bool:
            return _distance(other.rest, state.centre) <= PUT_BACK * size

        def left_before(other: _CardState) -> bool:
            """Whether it was picked up before this card was first seen on its way: seen last
            before, or (the tracker follows a card a pass after it starts moving) a moment
            after, near where this one was first seen."""
            if other.seen_ns < state.first_ns:
                return True
            if other.seen_ns > state.first_ns + self._slack_ns:
                return False
            return _distance(other.seen_at, state.first_at) <= NEAR * size

        def split_from(other: _CardState) -> bool:
            """Whether this track was born on ``other`` where it lay and rests there: the
            tracker followed a part of that card (a hand or a tile's edge over a pile) as a
            track of its own, which then took the whole card over and lost the first."""
            return same_place(other) and _distance(other.rest, state.first_at) <= PUT_BACK * size

        left = [
            d.state
            for d in self._departed
            if d.state.settled is not None and (left_before(d.state) or split_from(d.state))
        ]  # a card departs from where it settled
        put_back = [d for d in left if d.settled == (zone, face) and same_place(d)]
        if put_back:  # lost from view and found again where it lay (the nearest, if cards overlap)
            return self._taken(min(put_back, key=lambda d: _distance(d.rest, state.centre)))
        if zone.startswith(DEALT_TO):  # dealt, unless it lay here (and was turned over)
            eligible = [d for d in left if _zone(d) == zone and same_place(d)]
        elif zone == MUCK:  # not a card still seen where it lay
            eligible = [d for d in left if not self._still_there(d)]
        elif zone == OFF_TABLE:
            eligible = left
        else:  # among chips: a player's own card, pushed toward its stack or bet
            eligible = [d for d in left if _zone(d).startswith(PLAYERS)]
        # Thrown on the muck: the cards land in the order they were picked up (first folded,
        # first found there); elsewhere the latest departure is the card just carried.
        order = eligible if zone == MUCK else eligible[::-1]
        for other in order:
            if (
                other.settled is not None
                and other.settled[1] == face
                and (face == Face.DOWN or other.reported_card == state.pending_card)
            ):
                return self._taken(other)
        if order:  # turned over while carried (a shown hand killed face down)
            return self._taken(order[0])
        return None

    def _taken(self, state: _CardState) -> _CardState:
        """A departed card found again: no longer waiting to land."""
        self._departed = [d for d in self._departed if d.state is not state]
        return state

    def _card(self, track: Track, sighting: Sighting, ts_ns: int) -> list[Observation]:
        state = self._cards.get(track.id)
        if state is None:
            state = self._cards[track.id] = _CardState(card_id=track.id, first_ns=ts_ns)
        state.unseen = 0
        state.seen_ns = ts_ns
        state.seen_at = _centre(sighting.box)
        state.first_at = state.first_at or state.seen_at
        where = (self.zone(sighting.box), Face.UP if sighting.kind == CARD else Face.DOWN)
        fresh = state.centre is None
        if sighting.moving or not self._at_rest(state, sighting.box):
            state.passes = 0
            state.disturbed = state.disturbed or sighting.moving or not fresh
            return []
        settled = state.settled
        if settled is not None and where[0] == settled[0] and not state.disturbed:
            where = settled  # nothing touched it: it lies as it did (the other face is misread)
        if where != state.candidate:
            state.candidate, state.passes = where, 1
        else:
            state.passes += 1
        card, share = track.card if where[1] == Face.UP else (None, sighting.conf)
        conf = track.card_conf if where[1] == Face.UP else sighting.conf
        if state.passes < self.settle_passes:
            return []
        if where == state.settled:
            named = card is not None and card != state.reported_card
            if where[1] == Face.UP and named and share >= self.sure_share:
                state.reported_card = card
                return [
                    CardTurned(
                        ts_ns=ts_ns,
                        camera=self.camera,
                        track=state.card_id,
                        zone=where[0],
                        face=where[1],
                        card=card,
                        conf=conf,
                    )
                ]
            return []
        before = state.settled
        if before is None:  # newly at rest: a card dealt, or one that was carried here
            state.pending_card = card
            earlier = self._arrival(state, track.id, sighting.box)
            if earlier is not None:
                assert earlier.settled is not None
                flipped = earlier.settled[0] == where[0] and earlier.settled[1] != where[1]
                if flipped and not (state.disturbed or earlier.disturbed):
                    # The same card, untouched, read with the other face: it lies as it did.
                    state.card_id, state.settled = earlier.card_id, earlier.settled
                    state.reported_card, state.rest = earlier.reported_card, earlier.rest
                    state.rest_box = earlier.rest_box
                    return []
                state.card_id, before = earlier.card_id, earlier.settled
        state.settled, state.reported_card, state.rest = where, card, state.centre
        state.rest_box = sighting.box
        state.disturbed = False
        common: _CardFields = {
            "ts_ns": ts_ns,
            "camera": self.camera,
            "track": state.card_id,
            "zone": where[0],
            "face": where[1],
            "card": card,
            "conf": conf,
        }
        if before is None:
            return [CardAppeared(**common)]
        if before[0] != where[0]:
            return [CardMoved(source=before[0], **common)]
        if before[1] != where[1]:
            return [CardTurned(**common)]
        return []  # picked up and put back where it was

    def _chip_counts(
        self, chips: list[Sighting], covers: list[Box], unread: Sequence[Box], ts_ns: int
    ) -> list[ChipsInZone]:
        """``covers``: the boxes of the hands and the cards in transit: chips one lies over
        are hidden, not gone, so a zone where one covers where chips were seen keeps its count
        until it is uncovered. A zone where something moved that the detector has not read since
        (``unread``: a hand lifted off the last chip of a bet) is counted once it is read."""
        counts: dict[str, Counter[int]] = {}
        boxes: dict[str, list[Box]] = {}
        busy = {self.zone(chip.box) for chip in chips if chip.moving}
        busy |= {self.zone(region) for region in unread}
        under = _covered([chip.box for chip in chips], unread)
        busy |= {self.zone(chip.box) for chip, covered in zip(chips, under, strict=True) if covered}
        for chip in chips:
            zone = self.zone(chip.box)
            if chip.denomination is not None and zone != OFF_TABLE:  # off every zone: in transit
                counts.setdefault(zone, Counter())[chip.denomination] += 1
                boxes.setdefault(zone, []).append(chip.box)
        out: list[ChipsInZone] = []
        for zone in set(counts) | set(self._chips) | set(self._chip_candidate):
            if zone in busy:
                continue  # chips still moving there: count them once they rest
            if _covered(self._chip_boxes.get(zone, []), [*covers, *unread]).any():
                continue  # under a hand or a card in transit: counted once uncovered
            self._chip_boxes[zone] = boxes.get(zone, [])
            now = counts.get(zone, Counter())
            candidate, passes = self._chip_candidate.get(zone, (None, 0))
            passes = passes + 1 if candidate == now else 1
            self._chip_candidate[zone] = (now, passes)
            if passes == self.settle_passes and now != self._chips.get(zone, Counter()):
                self._chips[zone] = now
                places = self.chip_places(zone) if self.chip_places is not None else None
                out.append(
                    ChipsInZone(
                        ts_ns=ts_ns,
                        camera=self.camera,
                        zone=zone,
                        counts=dict(sorted(now.items())),
                        full=places is not None and now.total() >= places,
                    )
                )
        return sorted(out, key=lambda o: o.zone)

    def _dealer_hands(self, hands: list[Sighting], ts_ns: int) -> list[Observation]:
        present = {self.zone(h.box) for h in hands}
        out: list[Observation] = []
        for zone in sorted(present | set(self._hands)):
            now = zone in present
            candidate, passes = self._hands.get(zone, (False, 0))
            passes = passes + 1 if candidate == now else 1
            self._hands[zone] = (now, passes)
            if passes == min(2, self.settle_passes) and now != self._hand_reported.get(zone, False):
                self._hand_reported[zone] = now
                out.append(DealerHand(ts_ns=ts_ns, camera=self.camera, present=now, zone=zone))
        return out


def _zone(state: _CardState) -> str:
    """The zone a departed card had settled in."""
    assert state.settled is not None
    return state.settled[0]
