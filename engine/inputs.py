"""Engine inputs from the devices: typed, frozen, timestamped at the source (monotonic ns).

The serial drivers (``devices/``) produce these; the fusion (a later issue) turns them into the
table event log. They carry the device name from the configuration (``shoe``, ``tray``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class LinkStatus(StrEnum):
    CONNECTED = "connected"
    STALE = "stale"
    """Connected, but the device has been silent longer than its heartbeat allows."""
    DISCONNECTED = "disconnected"
    OFFLINE = "offline"
    """The port cannot be opened (wrong path, busy, permission denied): the device is left out."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceInput:
    ts_ns: int
    device: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn(DeviceInput):
    card: str
    tag_id: int
    shoe_seq: int
    deck_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeLoaded(DeviceInput):
    deck_id: int
    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardUnreadable(DeviceInput):
    shoe_seq: int
    deck_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TrayCounted(DeviceInput):
    counts: Mapping[int, int]
    """Chips by denomination."""
    requested: bool = False
    """An answer to the host's request rather than a change."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipTags(DeviceInput):
    denomination: int
    tag_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TrayLid(DeviceInput):
    state: str
    """``closed``, ``open`` or ``tamper``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LightAcknowledged(DeviceInput):
    """The dealer pressed the light's acknowledge button: every alert of the table is
    acknowledged."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LightState(DeviceInput):
    colour: str
    pattern: str
    offline: bool
    """The light shows its 'monitor offline' pattern by itself (no host heartbeat)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceHealth(DeviceInput):
    """A link or device condition the surveillance room must see."""

    status: LinkStatus
    message: str
    missing_seqs: tuple[int, ...] = ()
    """Frames the device sent that are lost for good (a gap the resend could not fill)."""
    identity: Mapping[str, str] = field(default_factory=dict)
    """Device id and firmware version, once the device said hello."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AlertAcknowledged(DeviceInput):
    """Someone acknowledged an alert on the dashboard (``device`` is ``dashboard``): the light
    shows the alerts still open (green when none is)."""

    alert: str
    """The alert's id on the dashboard."""
    user: str
