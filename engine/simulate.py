"""Seeded hands for the demo table: a shuffled shoe, blinds, a deal, random legal betting (fold,
check, call, bet or raise in whole big blinds), the board with burns, the showdown, the pots
pushed as the engine computes them, and the table cleared. Deterministic for a seed.

Stacks and bets are whole multiples of ``unit`` so that few chips make every amount (the
camera counts chips it can see side by side).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from engine.cards import DECK
from engine.events import (
    Action,
    ActionKind,
    Award,
    Blind,
    CardSeen,
    Event,
    Face,
    Game,
    HandEnd,
    HandStart,
    Muck,
    Rake,
    ShoeDraw,
    Show,
    TableConfig,
)
from engine.hand import Hand, Street
from engine.rules.registry import RuleSet
from engine.session import play_hand


def simulate_hand(
    table: TableConfig,
    *,
    hand: str,
    button: int,
    stacks: dict[int, int],
    rng: random.Random,
    unit: int = 25,
) -> list[Event]:
    """One clean hand (``table`` first), numbered from seq 1."""
    events: list[Event] = [replace(table, seq=0, ts_ms=0)]
    start = HandStart(seq=0, ts_ms=0, hand=hand, button=button, stacks=dict(stacks))
    events.append(start)
    shadow = Hand(table, start)
    seats = shadow.seats
    deck = list(DECK)
    rng.shuffle(deck)
    shoe_seq = 0

    def emit(event: Event) -> None:
        events.append(event)
        if not isinstance(event, HandEnd):
            shadow.apply(event)

    def deal(to: str, face: Face) -> str:
        nonlocal shoe_seq
        card = deck.pop()
        shoe_seq += 1
        emit(ShoeDraw(seq=0, ts_ms=0, card=card, shoe_seq=shoe_seq))
        emit(CardSeen(seq=0, ts_ms=0, to=to, face=face, card=card if face is Face.UP else None))
        return card

    order = shadow.clockwise_from(button)
    if len(seats) == 2:  # heads up: the button posts the small blind
        order = [button, *[s for s in order if s != button]]
    emit(Blind(seq=0, ts_ms=0, seat=order[0], amount=table.sb))
    emit(Blind(seq=0, ts_ms=0, seat=order[1], amount=table.bb))
    holes: dict[int, list[str]] = {seat: [] for seat in seats}
    deal_order = shadow.clockwise_from(button)
    for _ in range(table.game.hole_card_count):
        for seat in deal_order:
            holes[seat].append(deal(f"seat:{seat}", Face.DOWN))
    for street_cards in (0, 3, 1, 1):
        if street_cards:
            if len(shadow.live()) < 2:
                break
            deal("burn", Face.DOWN)
            for _ in range(street_cards):
                deal("board", Face.UP)
        _betting(shadow, emit, rng, unit)
    live = shadow.live()
    if len(live) > 1:  # the river's last aggressor shows first (R-SHOW-7), then clockwise
        first = shadow.record.aggressor.get(Street.RIVER) or next(
            s for s in shadow.clockwise_from(button) if s in live
        )
        for seat in [first, *(s for s in shadow.clockwise_from(first) if s != first)]:
            if seat in live:
                emit(Show(seq=0, ts_ms=0, seat=seat, cards=tuple(holes[seat])))
    end = HandEnd(seq=0, ts_ms=0, hand=hand)
    report = play_hand([*events, end], RuleSet([]))
    settlement = report.settlement
    winners = {seat for shares in settlement.shares.values() for seat in shares}
    if len(live) > 1:
        for seat in live:
            if seat not in winners:
                events.append(Muck(seq=0, ts_ms=0, seat=seat))
    for pot in reversed(settlement.pots):  # side pots first
        for seat, amount in settlement.shares.get(pot.name, {}).items():
            events.append(Award(seq=0, ts_ms=0, seat=seat, amount=amount, pot=pot.name))
    if settlement.rake:
        events.append(Rake(seq=0, ts_ms=0, amount=settlement.rake))
    events.append(end)
    return [replace(e, seq=i + 1, ts_ms=250 * (i + 1)) for i, e in enumerate(events)]


def _betting(shadow: Hand, emit: Callable[[Event], None], rng: random.Random, unit: int) -> None:
    """One betting round of random legal actions; at most two bets or raises."""
    bb = shadow.table.bb
    raises = 0
    for _ in range(200):
        seat = shadow.next_actor()
        if seat is None or len(shadow.live()) < 2:
            return
        facing = shadow.current_bet - shadow.street_bets[seat]
        stack = shadow.stacks[seat]
        roll = rng.random()
        if facing > 0 and roll < 0.2:
            emit(Action(seq=0, ts_ms=0, seat=seat, action=ActionKind.FOLD))
            continue
        can_raise = stack > facing + bb and raises < 2
        if can_raise and roll > 0.82:
            raises += 1
            size = max(shadow.min_raise, bb * rng.choice((1, 2, 3)))
            to = shadow.current_bet + size
            to = min(to, shadow.street_bets[seat] + stack)
            to -= to % unit
            kind = ActionKind.BET if shadow.current_bet == 0 else ActionKind.RAISE
            emit(Action(seq=0, ts_ms=0, seat=seat, action=kind, to=to))
        elif facing > 0:
            to = min(shadow.current_bet, shadow.street_bets[seat] + stack)
            emit(Action(seq=0, ts_ms=0, seat=seat, action=ActionKind.CALL, to=to))
        else:
            emit(Action(seq=0, ts_ms=0, seat=seat, action=ActionKind.CHECK))


def demo_table(seats: int = 6) -> TableConfig:
    """The demo's table: 6-max no-limit 50/100, 5 % rake capped at 300 (``deploy/demo.yaml``)."""
    return TableConfig(
        seq=0,
        ts_ms=0,
        table="demo",
        game=Game.NLHE,
        seats=seats,
        sb=50,
        bb=100,
        rake_pct=Decimal(5),
        rake_cap=300,
    )
