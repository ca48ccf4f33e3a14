"""Irregularities of the play: acting after folding, losing hands left on the table."""

from __future__ import annotations

import random

from engine.events import Action, ActionKind, Award, Event, Muck, Show
from engine.hand import HandReport
from engine.mutations.base import Expected, expect, index, state_before, typed


def acts_after_folding(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A seat that folded acts again later in the betting."""
    actions = index(events, lambda e: isinstance(e, Action))
    folds = [i for i in actions if typed(events, i, Action).action is ActionKind.FOLD]
    later = [(f, a) for f in folds for a in actions if a > f]
    if not later:
        return None
    fold, at = rng.choice(later)
    seat = typed(events, fold, Action).seat
    kind = rng.choice((ActionKind.CHECK, ActionKind.CALL, ActionKind.FOLD))
    events.insert(at, Action(seq=0, ts_ms=0, seat=seat, action=kind))
    return events, expect(report, "acts_after_folding", "R-BET-17", (seat,))


def loser_left_on_the_table(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """At a showdown a losing hand is killed only after the pot was pushed."""
    if len(report.board) < 5:
        return None
    hand = state_before(events, len(events) - 1)
    awards = index(events, lambda e: isinstance(e, Award))
    if hand is None or hand.hand_decided or not awards or not hand.record.pushes:
        return None
    winners = {seat for shares in report.settlement.shares.values() for seat in shares}
    push_at = next(i for i in awards if any(events[i].seq == p.seq for p in hand.record.pushes))
    live = hand.live()
    showdown = index(events, lambda e: isinstance(e, Show | Muck) and e.seat in live)
    kills = [
        i
        for i in showdown[1:]  # the first to show or muck stays first
        if isinstance(kill := events[i], Muck) and i < push_at and kill.seat not in winners
    ]
    if not kills:
        return None
    i = rng.choice(kills)
    seat = typed(events, i, Muck).seat
    if any(isinstance(e, Show) and e.seat == seat for e in events[i:]):
        return None
    kill = events.pop(i)
    events.insert(rng.randint(push_at, len(events) - 1), kill)
    return events, expect(report, "loser_left_on_the_table", "R-MUCK-8", (seat,))
