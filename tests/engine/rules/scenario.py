"""A clean three-handed hand, point by point, that each rule test perturbs at one point.

Seats 1, 2, 3, button 3 (seat 1 small blind, seat 2 big blind), blinds 50/100, rake 5 % capped
at 30. Seat 3 raises, seat 1 folds, seat 2 calls; seat 3 bets the flop and is called; both check
the turn and the river; seat 3's aces beat seat 2's 8-high; seat 2's hand is killed; the pot of
1,050 less 30 rake is pushed to seat 3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.eventlog import Log

Step = Callable[[Log], object]

POINTS: dict[str, Step] = {
    "blinds": lambda log: log.blinds((1, 50), (2, 100)),
    "deal": lambda log: log.deal({1: "2h3d", 2: "7c8c", 3: "AsAd"}),
    "preflop": lambda log: log.act(3, "raise", 300).act(1, "fold").act(2, "call", 300),
    "flop": lambda log: log.board("Kc9d4h"),
    "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 200).act(2, "call", 200),
    "turn": lambda log: log.board("Jc"),
    "turn_bets": lambda log: log.act(2, "check").act(3, "check"),
    "river": lambda log: log.board("5s"),
    "river_bets": lambda log: log.act(2, "check").act(3, "check"),
    "showdown": lambda log: log.show(2, "7c8c").show(3, "AsAd").add("muck", seat=2),
    "push": lambda log: log.award(3, 1020).add("rake", amount=30),
    "end": lambda log: log.end("h1"),
}


def scenario(
    table: dict[str, Any] | None = None,
    stacks: dict[int, int] | None = None,
    **changes: Step | None,
) -> Log:
    """The clean hand with some points replaced (``None`` leaves a point out)."""
    unknown = set(changes) - set(POINTS)
    assert not unknown, f"unknown points {unknown}"
    log = Log(**({"rake_pct": 5, "rake_cap": 30} | (table or {})))
    log.add("tray", counts={"25": 100, "100": 100})
    log.hand("h1", 3, stacks or {1: 1000, 2: 1000, 3: 1000})
    for name, default in POINTS.items():
        step = changes.get(name, default)
        if step is not None:
            step(log)
    return log


def deal_cards(log: Log, seats_cards: list[tuple[int, str, str]]) -> Log:
    """Deal hole cards in the order given: (seat, card, face)."""
    for seat, card, face in seats_cards:
        log.add("shoe_draw", card=card, shoe_seq=log.last_seq)
        log.add("card", to=f"seat:{seat}", face=face, card=card if face == "up" else None)
    return log


CLEAN_DEAL = [
    (1, "2h", "down"),
    (2, "7c", "down"),
    (3, "As", "down"),
    (1, "3d", "down"),
    (2, "8c", "down"),
    (3, "Ad", "down"),
]


def deal_with(changes: dict[int, tuple[int, str, str]]) -> Step:
    """The clean deal with some of its six cards changed (by position)."""
    cards = [changes.get(i, card) for i, card in enumerate(CLEAN_DEAL)]
    return lambda log: deal_cards(log, cards)
