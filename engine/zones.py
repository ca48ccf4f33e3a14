"""A table zone's name, parsed once into what it is: ``seat:3`` (seat 3's cards), ``bet:3`` (its
bet), ``stack:3`` (its chips), or one of the table's own places (``board``, ``burn``, ``muck``,
``pot``, ``shoe``, ``tray``, ``off_table``). Observations and the event log carry the names as
written; code that asks which kind of place, or which seat, asks ``zone_of(name)``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache


class Place(StrEnum):
    SEAT = "seat"
    BET = "bet"
    STACK = "stack"
    BOARD = "board"
    BURN = "burn"
    MUCK = "muck"
    POT = "pot"
    SHOE = "shoe"
    TRAY = "tray"
    OFF_TABLE = "off_table"


SEATED = (Place.SEAT, Place.BET, Place.STACK)
"""The places each seat has one of (``<place>:<seat>``)."""
CARD_PLACES = (Place.SEAT, Place.BOARD, Place.BURN, Place.MUCK)
"""Where the cards of a hand are played."""


@dataclass(frozen=True, slots=True)
class Zone:
    place: Place | None
    """None: a name that is no zone of a table."""
    seat: int | None = None
    """The seat of a seat's place (``seat:3`` -> 3)."""

    def seat_of(self, place: Place) -> int | None:
        """The seat, when this is that seat's ``place``."""
        return self.seat if self.place is place else None


ZONE_NAMES_KEPT = 256
"""Names remembered parsed (a table has a few dozen; an event log from outside may hold any)."""


@lru_cache(maxsize=ZONE_NAMES_KEPT)
def zone_of(name: str) -> Zone:
    kind, colon, number = name.partition(":")
    if colon:
        if kind in SEATED and 0 < len(number) <= 2 and number.isascii() and number.isdigit():
            seat = int(number)
            if seat >= 1:
                return Zone(Place(kind), seat)
        return Zone(None)
    try:
        place = Place(name)
    except ValueError:
        return Zone(None)
    return Zone(None) if place in SEATED else Zone(place)
