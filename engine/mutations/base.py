"""What every injected irregularity shares: the alert it must raise, and the clean hand it is
written into (a real hand completed as the engine computes it, or a generated one as dealt)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TypeVar

from engine.events import Action, Award, CardSeen, Event, HandEnd, Muck, Rake, Show, TableConfig
from engine.hand import Hand, HandReport, Street
from engine.rules.catalogue import CATALOGUE
from engine.rules.registry import RuleSet
from engine.session import TableSession, play_hand


@dataclass(frozen=True, slots=True, kw_only=True)
class Expected:
    hand: str
    kind: str
    rule: str
    family: str
    seats: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "kind": self.kind,
            "rule": self.rule,
            "family": self.family,
            "seats": list(self.seats),
        }


E = TypeVar("E", bound=Event)


def typed(events: Sequence[Event], i: int, kind: type[E]) -> E:
    """``events[i]``, which the caller found to be a ``kind``."""
    event = events[i]
    assert isinstance(event, kind), f"event {i} is a {event.TYPE} event, not {kind.TYPE}"
    return event


def table_of(events: Sequence[Event]) -> TableConfig:
    """The hand's table (its first event)."""
    return typed(events, 0, TableConfig)


def play(events: Sequence[Event]) -> HandReport:
    return play_hand(events, RuleSet())


def complete(events: Sequence[Event], *, house_rake: bool = True) -> list[Event]:
    """The hand ended as the engine computes it: at a showdown every live hand not yet tabled
    is tabled in the showing order, the losing hands are killed, the pots pushed side pots
    first, and the rake dropped. ``house_rake``: the table takes 5 % capped at three big blinds
    (real hand histories have no rake)."""
    table = events[0]
    assert isinstance(table, TableConfig)
    if house_rake:
        table = replace(table, rake_pct=Decimal(5), rake_cap=3 * table.bb)
    body = [e for e in events[1:] if not isinstance(e, HandEnd)]
    end = events[-1]
    hand = state_before([table, *body], len(body) + 1)
    assert hand is not None
    extra: list[Event] = []
    contenders = [seat for seat in hand.live() if seat not in hand.mucked]
    needed = table.game.hole_card_count
    if len(hand.board) == 5 and len(contenders) > 1:
        first = hand.record.aggressor.get(Street.RIVER)
        if first not in contenders:
            first = next(s for s in hand.clockwise_from(hand.button) if s in contenders)
        for seat in [first, *(s for s in hand.clockwise_from(first) if s != first)]:
            cards = hand.hole.get(seat, [])
            shown = hand.shown.get(seat, ())
            known = tuple(card for card in cards if card is not None)
            if seat in contenders and len(shown) < needed and len(known) == len(cards):
                extra.append(Show(seq=0, ts_ms=0, seat=seat, cards=known))
    report = play([table, *body, *extra, end])
    s = report.settlement
    winners = {seat for shares in s.shares.values() for seat in shares}
    if len(report.board) == 5 and len(contenders) > 1:
        extra += [Muck(seq=0, ts_ms=0, seat=seat) for seat in contenders if seat not in winners]
    for pot in reversed(s.pots):  # side pots first (R-POT-2)
        for seat, amount in s.shares.get(pot.name, {}).items():
            extra.append(Award(seq=0, ts_ms=0, seat=seat, amount=amount, pot=pot.name))
    extra.append(Rake(seq=0, ts_ms=0, amount=s.rake))
    return renumber([table, *body, *extra, end])


def _showdown_starts(events: Sequence[Event]) -> int:
    """Where the showdown begins: after the last action and the last board card."""
    last = 0
    for i, event in enumerate(events):
        if isinstance(event, Action) or (isinstance(event, CardSeen) and event.to == "board"):
            last = i
    return last + 1


def recomplete(events: Sequence[Event]) -> list[Event]:
    """End the hand again from its showdown on, for a hand whose cards were changed: every live
    hand tabled, the losers killed, the pots pushed as the engine computes them."""
    cut = _showdown_starts(events)
    kept = [
        e
        for i, e in enumerate(events)
        if not isinstance(e, Award | Rake) and not (i >= cut and isinstance(e, Show | Muck))
    ]
    return complete(renumber(kept), house_rake=False)


def repush(events: Sequence[Event]) -> list[Event]:
    """Push the pots again as the hands tabled now say (the losers killed again; a kill said to
    be the dealer's stays)."""
    cut = _showdown_starts(events)
    kept = [
        e
        for i, e in enumerate(events)
        if not isinstance(e, Award | Rake) and not (i >= cut and isinstance(e, Muck) and not e.by)
    ]
    return complete(renumber(kept), house_rake=False)


def live_at_end(events: Sequence[Event], seat: int) -> bool:
    return not any(
        (isinstance(e, Action) and e.seat == seat and e.action == "fold")
        or (isinstance(e, Muck) and e.seat == seat)
        for e in events
    )


def expect(report: HandReport, kind: str, rule: str, seats: tuple[int, ...] = ()) -> Expected:
    """The alert ``rule`` must raise in the report's hand, in the rule's catalogue family."""
    return Expected(
        hand=report.hand, kind=kind, rule=rule, family=CATALOGUE[rule].family, seats=seats
    )


Mutation = Callable[[list[Event], HandReport, random.Random], tuple[list[Event], Expected] | None]


def index(events: Sequence[Event], test: Callable[[Event], bool]) -> list[int]:
    return [i for i, e in enumerate(events) if test(e)]


def states(events: Sequence[Event]) -> Iterator[tuple[int, Hand | None]]:
    """Each index with the hand as the bare engine knows it just before that event (None: no
    hand open), in one replay: read what is needed of the hand before the next is yielded."""
    session = TableSession(RuleSet([]))
    for i, event in enumerate(events):
        yield i, session.hand
        session.feed(event)


def state_before(events: Sequence[Event], i: int) -> Hand | None:
    """The hand as the bare engine knows it just before ``events[i]`` (None: no hand open)."""
    session = TableSession(RuleSet([]))
    for event in events[:i]:
        session.feed(event)
    return session.hand


def pure_pushes(events: Sequence[Event], report: HandReport) -> set[int]:
    """Seats whose awards are all pots pushed, exactly their share (no uncalled bet with them)."""
    hand = state_before(events, len(events) - 1)
    if hand is None:
        return set()
    owners = {a.seat for a in hand.record.returns}
    got: dict[int, int] = {}
    for award in hand.record.pushes:
        got[award.seat] = got.get(award.seat, 0) + award.amount
    awards = report.settlement.awards
    return {seat for seat, total in got.items() if seat not in owners and total == awards.get(seat)}


def renumber(events: Sequence[Event]) -> list[Event]:
    return [replace(e, seq=i + 1) for i, e in enumerate(events)]
