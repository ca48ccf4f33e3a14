"""The table event log v1 as typed, frozen events (see DESIGN.md, "The table event log").

Every event carries ``seq`` (increasing) and ``ts_ms`` and keeps unknown fields in ``extra``.
Money is integer chip units; cards are two-character strings (``"As"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar

from engine.zones import Place, zone_of


class Game(StrEnum):
    NLHE = "NLHE"
    PLHE = "PLHE"
    FLHE = "FLHE"
    PLO = "PLO"

    @property
    def hole_card_count(self) -> int:
        return 4 if self is Game.PLO else 2

    @property
    def is_fixed_limit(self) -> bool:
        return self is Game.FLHE

    @property
    def is_pot_limit(self) -> bool:
        return self in (Game.PLHE, Game.PLO)


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALLIN = "allin"


class Face(StrEnum):
    UP = "up"
    DOWN = "down"


class MuckedBy(StrEnum):
    PLAYER = "player"
    """The player threw the hand away."""
    DEALER = "dealer"
    """The dealer killed it."""


class MisdealCutoff(StrEnum):
    RROP = "rrop"
    """Robert's Rules: once two players after the blinds have acted."""
    TDA = "tda"
    """TDA/CEP: once there is substantial action (two actions with chips, or three actions)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseRules:
    """Per-table switches (rules-catalogue.md 2.19). Unknown switches are rejected at the edge."""

    no_flop_no_drop: bool = True
    """No rake is taken from a hand that ends before the flop."""
    fl_max_bets: int = 4
    """Fixed limit: bets per betting round, the opening bet included (bet + 3 raises)."""
    fl_cap_heads_up: bool = False
    """Fixed limit: keep the cap when only two players are left (tournaments); cash: unlimited."""
    tournament: bool = False
    """Tournament rules (TDA/CEP) where the seeds differ from cash games (catalogue 2.19): all
    hands face up once an all-in is called (#2), no showing cards with action pending (#18)."""
    misdeal_cutoff: MisdealCutoff = MisdealCutoff.RROP
    """When a misdeal can no longer be called (catalogue 2.19 #5)."""
    face_up_deal_is_boxed: bool = False
    """Seed 002's variant (R-BOX-3): a card dealt face up is a scrap of paper, replaced by the
    next card, instead of an exposed card."""
    pl_small_blind_as_big: bool = False
    """Pot limit: count the small blind as a big blind until the big blind acts (R-BET-8)."""
    chip_unit: int = 1
    """The smallest chip in play: bets and raises are multiples of it (R-BET-21)."""
    rake_to_tray: bool = False
    """The house drops the rake into the chip tray (the seeds say: into the drop box, R-RAKE-2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    TYPE: ClassVar[str] = ""
    seq: int
    ts_ms: int
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig(Event):
    TYPE: ClassVar[str] = "table"
    table: str
    game: Game
    seats: int
    sb: int
    bb: int
    ante: int = 0
    bb_ante: int = 0
    rake_pct: Decimal = Decimal(0)
    rake_cap: int = 0
    """0 means no cap."""
    house_rules: HouseRules = field(default_factory=HouseRules)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStart(Event):
    TYPE: ClassVar[str] = "hand_start"
    hand: str
    button: int
    stacks: Mapping[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeDraw(Event):
    TYPE: ClassVar[str] = "shoe_draw"
    card: str
    shoe_seq: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardSeen(Event):
    """Vision saw a card arrive at ``to``: ``seat:N``, ``board``, ``burn``, ``muck``,
    ``off_table`` or ``shoe``. ``card`` is None when the card is face down."""

    TYPE: ClassVar[str] = "card"
    to: str
    face: Face
    card: str | None = None
    back: str | None = None
    """The back (colour or design) vision saw, when it saw it."""

    @property
    def to_seat(self) -> int | None:
        """The seat whose hand the card went to (``seat:N``), else None."""
        return zone_of(self.to).seat_of(Place.SEAT)


@dataclass(frozen=True, slots=True, kw_only=True)
class Blind(Event):
    TYPE: ClassVar[str] = "blind"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Ante(Event):
    TYPE: ClassVar[str] = "ante"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Action(Event):
    """``to`` is the seat's total bet on this street after the action (None: implied)."""

    TYPE: ClassVar[str] = "action"
    seat: int
    action: ActionKind
    to: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Event):
    TYPE: ClassVar[str] = "show"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Event):
    TYPE: ClassVar[str] = "muck"
    seat: int
    by: MuckedBy | None = None
    """Who threw it in, when known."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Award(Event):
    TYPE: ClassVar[str] = "award"
    seat: int
    amount: int
    pot: str = "main"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rake(Event):
    TYPE: ClassVar[str] = "rake"
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TrayCount(Event):
    TYPE: ClassVar[str] = "tray"
    counts: Mapping[int, int]
    """Chips in the dealer's tray by denomination (chip units)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StackCount(Event):
    """Vision counted the chips in front of a seat (its stack, not its bet)."""

    TYPE: ClassVar[str] = "stack"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnd(Event):
    TYPE: ClassVar[str] = "hand_end"
    hand: str


IN_HAND_TYPES: tuple[type[Event], ...] = (
    ShoeDraw,
    CardSeen,
    Blind,
    Ante,
    Action,
    Show,
    Muck,
    Award,
    Rake,
    TrayCount,
    StackCount,
)
"""The event types a hand is made of (between its ``hand_start`` and its ``hand_end``)."""

_ALL_TYPES: tuple[type[Event], ...] = (TableConfig, HandStart, *IN_HAND_TYPES, HandEnd)
EVENT_TYPES: dict[str, type[Event]] = {cls.TYPE: cls for cls in _ALL_TYPES}
