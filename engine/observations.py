"""Engine inputs from the cameras: what the vision worker saw, debounced, in table zones.

Typed, frozen, timestamped at the source (the frame's capture time, monotonic ns). Zones are the
names of the table configuration (``seat:3``, ``board``, ``burn``, ``muck``, ``pot``, ``bet:3``,
``shoe``, ``tray``, ...); a card outside every zone is in ``off_table`` (the event log's name).
The fusion (a later issue) matches them with the shoe's and the tray's reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.inputs import DeviceInput

OFF_TABLE = "off_table"


class Face(StrEnum):
    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    ts_ns: int
    camera: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardAppeared(Observation):
    """A card came to rest in a zone where none was tracked before (dealt, turned, placed)."""

    track: int
    """The worker's id of this physical card while it stays in view."""
    zone: str
    face: Face
    card: str | None
    """The identity when face up (``"As"``), else None."""
    conf: float
    """Confidence of the identity (face up: the classifier's confidence in the name, averaged
    over every face-up sighting of the card) or of the detection (face down)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardMoved(Observation):
    """A tracked card came to rest in another zone (deal, burn, board, muck, pushed)."""

    track: int
    source: str
    zone: str
    face: Face
    card: str | None
    conf: float


@dataclass(frozen=True, slots=True, kw_only=True)
class CardTurned(Observation):
    """A tracked card changed face where it lies (turned up, or face down again)."""

    track: int
    zone: str
    face: Face
    card: str | None
    conf: float


@dataclass(frozen=True, slots=True, kw_only=True)
class CardGone(Observation):
    """A tracked card left the view (picked up, gathered into the muck pile, collected)."""

    track: int
    zone: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsInZone(Observation):
    """The chips now resting in a zone (sent when it changes; empty when the zone is clear)."""

    zone: str
    counts: Mapping[int, int]
    """Chips by denomination, as many as the camera can see from above."""
    full: bool = False
    """The zone holds as many chips as lie side by side in it: more may lie on them, hidden
    from above, so the zone holds at least ``amount``."""

    @property
    def amount(self) -> int:
        return sum(denomination * count for denomination, count in self.counts.items())


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerHand(Observation):
    """A dealer's (or player's) hand entered or left the surface over a zone."""

    present: bool
    zone: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ViewDegraded(Observation):
    """The camera's view was degraded from ``since_ns`` to ``ts_ns``: the worker did not read
    frames the camera made (the process was short of CPU, or the source stalled), so cards or
    chips that moved then may have gone unseen or been seen late. The engine does not judge on
    such evidence with certainty."""

    since_ns: int
    frames_dropped: int
    reason: str
    ended: bool = False
    """The view is clear again from ``ts_ns`` (the stretch's last report)."""


EngineInput = DeviceInput | Observation
"""Everything the engine takes in: a device's reading or a camera's observation (each with its
``ts_ns``, when its source saw it)."""
