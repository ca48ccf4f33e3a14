"""Irregularities of the forced bets: a blind or ante of the wrong amount, a blind posted late."""

from __future__ import annotations

import random

from engine.events import Action, Ante, Blind, Event, StackCount
from engine.hand import HandReport
from engine.mutations.base import Expected, expect, index, repush, states, table_of, typed


def short_forced_bet(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """An ante, or the small blind, posted short of the level (not the seat's whole stack); the
    pots pushed as they now stand. The big blind is left alone: it sets the bet the others call.
    Not where a stack is counted, nor at pot limit (a smaller pot lowers the limit of the raises
    after it), nor in a hand with an all-in (its size would change)."""
    table = table_of(events)
    if table.game.is_pot_limit or any(isinstance(e, StackCount) for e in events):
        return None
    unit = table.house_rules.chip_unit
    choices: list[tuple[int, int]] = []
    for i, hand in states(events):
        event = events[i]
        if hand is not None and hand.all_in:
            return None  # an all-in for the chips the short post left would be another size
        if hand is None or not isinstance(event, Blind | Ante):
            continue
        level = (table.bb_ante or table.ante) if isinstance(event, Ante) else table.sb
        small = isinstance(event, Ante) or event.seat != hand.big_blind_seat()
        if small and event.amount == level and level > unit and hand.stacks[event.seat] > level:
            choices.append((i, unit * rng.randint(1, (level - 1) // unit)))
    if not choices:
        return None
    i, amount = rng.choice(choices)
    posted = events[i]
    assert isinstance(posted, Blind | Ante)
    events[i] = type(posted)(seq=posted.seq, ts_ms=posted.ts_ms, seat=posted.seat, amount=amount)
    return repush(events), expect(report, "short_forced_bet", "R-BLIND-2", (posted.seat,))


def late_blind(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A small blind posted only after the betting began, just before its owner's first action
    (a straddle or a post of a big blind would change the bet the others call). Not at pot
    limit: the raises before it would meet a smaller pot."""
    actions = index(events, lambda e: isinstance(e, Action))
    if not actions or table_of(events).game.is_pot_limit:
        return None
    first = actions[0]
    seen = dict(states(events[: first + 1]))
    hand = seen[first]
    if hand is None:
        return None
    big_blind = hand.big_blind_seat()
    blinds = [
        (i, e)
        for i, e in enumerate(events[:first])
        if isinstance(e, Blind) and e.seat != big_blind and e.amount < hand.table.bb
    ]
    choices = []
    for i, posted in blinds:
        own = next((a for a in actions if typed(events, a, Action).seat == posted.seat), None)
        if own is not None and own > first:
            choices.append((i, own - 1))  # just before its owner acts
    if not choices:
        return None
    i, at = rng.choice(choices)
    blind = typed(events, i, Blind)
    del events[i]
    events.insert(at, blind)  # after the first action (one fewer before it: taken out)
    return events, expect(report, "late_blind", "R-BLIND-1", (blind.seat,))
