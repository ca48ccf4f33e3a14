"""What each simulated device does: the shoe deals, the tray counts, the light shows."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from devices.messages import (
    COLOURS,
    OFFLINE_LOOK,
    PATTERNS,
    ButtonPressed,
    CardDrawnMsg,
    DeviceKind,
    Inventory,
    InventoryRequest,
    Lid,
    LightStateMsg,
    Message,
    SetLight,
    ShoeLoadedMsg,
)
from engine.cards import DECK

NS = 1_000_000_000


@dataclass(slots=True)
class Shoe:
    """Deals from a seeded shuffled deck, or from the card order given."""

    seed: int = 0
    order: list[str] | None = None
    deck_id: int = 1
    kind: int = DeviceKind.SHOE
    shoe_seq: int = 0
    cards: list[str] = field(default_factory=list)

    def load(self) -> Message:
        if self.order is not None:
            self.cards = list(self.order)
        else:
            self.cards = list(DECK)
            random.Random(self.seed * 1000 + self.deck_id).shuffle(self.cards)
        return ShoeLoadedMsg(deck_id=self.deck_id, cards=len(self.cards))

    def draw(self) -> Message | None:
        if not self.cards:
            return None
        card = self.cards.pop(0)
        self.shoe_seq += 1
        tag = (self.deck_id << 32) | (DECK.index(card) + 1)
        return CardDrawnMsg(
            shoe_seq=self.shoe_seq, deck_id=self.deck_id, tag_id=tag, card=card.encode("ascii")
        )

    def handle(self, command: Message, now_ns: int) -> list[Message]:
        return []

    def tick(self, now_ns: int, host_heard_ns: int) -> list[Message]:
        return []


@dataclass(slots=True)
class Tray:
    """Starts from a float and applies the chip movements it is told (``+100x2``, ``-25x4``)."""

    counts: dict[int, int] = field(default_factory=lambda: {25: 100, 100: 100, 500: 40})
    kind: int = DeviceKind.TRAY

    def inventory(self, requested: bool = False) -> Message:
        return Inventory(requested=requested, counts=tuple(sorted(self.counts.items())))

    def move(self, denomination: int, chips: int) -> Message:
        self.counts[denomination] = max(0, self.counts.get(denomination, 0) + chips)
        return self.inventory()

    def lid(self, state: int) -> Message:
        return Lid(state=state)

    def handle(self, command: Message, now_ns: int) -> list[Message]:
        if isinstance(command, InventoryRequest):
            return [self.inventory(requested=True)]
        return []

    def tick(self, now_ns: int, host_heard_ns: int) -> list[Message]:
        return []


@dataclass(slots=True)
class Light:
    """Shows what the host sets; shows 'monitor offline' by itself when heartbeats stop."""

    offline_after_ns: int = 3 * NS
    kind: int = DeviceKind.LIGHT
    colour: int = 0
    pattern: int = 0
    offline: bool = True
    shown: list[str] = field(default_factory=list)
    """Every state the light took, as text (what the simulator prints)."""

    def look(self) -> tuple[int, int]:
        return OFFLINE_LOOK if self.offline else (self.colour, self.pattern)

    def _report(self) -> Message:
        colour, pattern = self.look()
        text = f"{COLOURS[colour]} {PATTERNS[pattern]}" + (
            " (monitor offline)" if self.offline else ""
        )
        self.shown.append(text)
        return LightStateMsg(colour=colour, pattern=pattern, offline=int(self.offline))

    def press(self) -> Message:
        return ButtonPressed()

    def handle(self, command: Message, now_ns: int) -> list[Message]:
        if isinstance(command, SetLight):
            self.colour, self.pattern = command.colour, command.pattern
            self.offline = False
            return [self._report()]
        return []

    def tick(self, now_ns: int, host_heard_ns: int) -> list[Message]:
        silent = host_heard_ns == 0 or now_ns - host_heard_ns > self.offline_after_ns
        if silent and not self.offline:
            self.offline = True
            return [self._report()]
        if not silent and self.offline and host_heard_ns:
            self.offline = False
            return [self._report()]
        return []
