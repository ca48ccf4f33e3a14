"""Irregularities of the chips: pots pushed wrong, rake, a stack that grows."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from engine.events import (
    Action,
    Award,
    Event,
    HandStart,
    Muck,
    MuckedBy,
    Rake,
    Show,
    StackCount,
    TableConfig,
    TrayCount,
)
from engine.hand import Hand, HandReport
from engine.mutations.base import (
    Expected,
    expect,
    index,
    pure_pushes,
    recomplete,
    repush,
    state_before,
    states,
    typed,
)
from engine.pots import UNCALLED_POT


def mucked_winner(
    events: list[Event], report: HandReport, _rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer kills the tabled winning hand and pushes the pot to the next best hand."""
    s = report.settlement
    main = s.shares.get("main", {})
    if len(s.pots) != 1 or len(main) != 1 or len(report.shown) < 2:
        return None
    (winner,) = main
    if not index(events, lambda e: isinstance(e, Award)):
        return None
    tabled = recomplete(events)
    last_show = max(index(tabled, lambda e: isinstance(e, Show)))
    tabled.insert(last_show + 1, Muck(seq=0, ts_ms=0, seat=winner, by=MuckedBy.DEALER))
    # The pots pushed again go to the best hand left; the killed winner is the error.
    redone = repush(tabled)
    return redone, expect(report, "mucked_winner", "R-MUCK-7", (winner,))


def short_award(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """One pot is pushed one chip short."""
    returned = report.settlement.returned
    # A one-chip uncalled bet pushed with the pot and the pot one short look the same as the
    # pot pushed and the bet left where it lay.
    hand = state_before(events, len(events) - 1)
    pots = hand.record.pushes if hand is not None else []
    pushes = [
        i
        for i, e in enumerate(events)
        if isinstance(e, Award)
        and any(e is push for push in pots)
        and e.amount > 0
        and returned.get(e.seat) != 1
    ]
    if not pushes:
        return None
    i = rng.choice(pushes)
    award = events[i]
    assert isinstance(award, Award)
    events[i] = replace(award, amount=award.amount - 1)
    return events, expect(report, "short_award", "R-POT-5", (award.seat,))


def rake_over_cap(
    events: list[Event], report: HandReport, _rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer takes more rake than the cap allows and pays the winner that much less."""
    s = report.settlement
    table = events[0]
    assert isinstance(table, TableConfig)
    if s.rake != table.rake_cap:
        return None
    rakes = index(events, lambda e: isinstance(e, Rake))
    paid = pure_pushes(events, report)
    pushes = index(events, lambda e: isinstance(e, Award) and e.seat in paid)
    if not rakes or not pushes:
        return None
    extra = max(1, table.bb // 2)
    biggest = max(pushes, key=lambda i: typed(events, i, Award).amount)
    award = typed(events, biggest, Award)
    if award.amount < extra:
        return None
    events[biggest] = replace(award, amount=award.amount - extra)
    rake = events[rakes[0]]
    assert isinstance(rake, Rake)
    events[rakes[0]] = replace(rake, amount=rake.amount + extra)
    return events, expect(report, "rake_over_cap", "R-RAKE-1", (award.seat,))


def wrong_winner(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The pot is pushed to a tabled losing hand instead of the winner."""
    s = report.settlement
    main = s.shares.get("main", {})
    losers = [seat for seat in report.shown if seat not in main and seat in s.pots[0].eligible]
    if len(s.pots) != 1 or len(main) != 1 or not losers:
        return None
    (winner,) = main
    if winner not in pure_pushes(events, report):
        return None
    loser = rng.choice(sorted(losers))
    for i, event in enumerate(events):
        if isinstance(event, Award) and event.seat == winner:
            events[i] = replace(event, seat=loser)
    return events, expect(report, "wrong_winner", "R-SHOW-2", (loser, winner))


def stack_grew(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """Chips appear in a seat's stack during the hand (bought or passed in mid-hand)."""
    bets = [
        i
        for i, e in enumerate(events)
        if isinstance(e, Action) and e.action in ("bet", "raise", "call")
    ]
    if not bets:
        return None
    i = rng.choice(bets)
    action = events[i]
    assert isinstance(action, Action)
    hand = state_before(events, i + 1)
    if hand is None or action.seat in hand.all_in:
        return None
    grown = hand.stacks[action.seat] + rng.choice((25, 100, 500))
    events.insert(i + 1, StackCount(seq=0, ts_ms=0, seat=action.seat, amount=grown))
    return events, expect(report, "stack_grew", "R-BET-23", (action.seat,))


def _after_betting(events: list[Event]) -> list[int]:
    """Indexes from just after the last action to the ``hand_end`` (where chips are pushed)."""
    actions = index(events, lambda e: isinstance(e, Action))
    first = (actions[-1] + 1) if actions else 2
    return list(range(first, len(events)))


def uncalled_to_another_seat(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The bet nobody called is handed to another seat instead of back to its owner."""
    s = report.settlement
    hand = state_before(events, len(events) - 1)
    if not s.returned or hand is None:
        return None
    ((owner, amount),) = s.returned.items()
    returns = [i for i, e in enumerate(events) if any(e is back for back in hand.record.returns)]
    got = sum(a.amount for a in hand.record.awards if a.seat == owner)
    returned = sum(typed(events, i, Award).amount for i in returns)
    if returned != amount and got != s.awards.get(owner, 0):
        return None  # handed back with the pot: nothing to move on its own
    other = rng.choice(sorted(seat for seat in report.starting_stacks if seat != owner))
    if returns:
        for i in returns:
            events[i] = replace(typed(events, i, Award), seat=other, pot=UNCALLED_POT)
    else:
        events.insert(
            rng.choice(_after_betting(events)),
            Award(seq=0, ts_ms=0, seat=other, amount=amount, pot=UNCALLED_POT),
        )
    return events, expect(report, "uncalled_to_another_seat", "R-POT-6", (owner, other))


def main_pot_first(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The main pot is pushed before a side pot."""
    mains = index(events, lambda e: isinstance(e, Award) and e.pot == "main")
    sides = index(events, lambda e: isinstance(e, Award) and e.pot.startswith("side"))
    if not mains or not sides or len(report.settlement.pots) < 2:
        return None
    side = rng.choice([i for i in sides if i < max(mains)] or sides)
    main = max(i for i in mains)
    if main < side:
        return None
    moved = events.pop(main)
    events.insert(side, moved)
    return events, expect(report, "main_pot_first", "R-POT-2")


def odd_chip_to_the_wrong_seat(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A split pot's odd chip goes to another tied seat than the first left of the button."""
    for name, shares in report.settlement.shares.items():
        if len(shares) < 2 or len(set(shares.values())) < 2:
            continue
        first = max(shares, key=lambda seat: shares[seat])
        second = rng.choice(sorted(seat for seat in shares if shares[seat] < shares[first]))
        given = [(i, e) for i, e in enumerate(events) if isinstance(e, Award) and e.pot == name]
        took = [(i, e) for i, e in given if e.seat == first]
        got = [(i, e) for i, e in given if e.seat == second]
        if not took or not got:
            continue
        (i, less), (j, more) = took[-1], got[-1]
        events[i] = replace(less, amount=less.amount - 1)
        events[j] = replace(more, amount=more.amount + 1)
        return events, expect(report, "odd_chip_to_the_wrong_seat", "R-ODD-2", (first, second))
    return None


def _count_at(
    events: list[Event], rng: random.Random, seats_of: Callable[[Hand], list[tuple[int, int]]]
) -> tuple[int, int, int] | None:
    """(index, seat, its stack there): a point before the push, in one replay of the hand, and
    one of the seats ``seats_of`` gives there ((seat, stack) pairs)."""
    points = set(_before_the_push(events))
    options = [
        (i, found)
        for i, hand in states(events)
        if i in points and hand is not None and (found := seats_of(hand))
    ]
    if not options:
        return None
    at, found = rng.choice(options)
    seat, stack = rng.choice(found)
    return at, seat, stack


def hidden_chips(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A player who lost all-in is seen with chips in front of him after the push."""
    finishing = report.settlement.finishing_stacks or {}
    hand = state_before(events, len(events) - 1)
    lost = sorted(seat for seat, left in finishing.items() if left == 0)
    if hand is None or not hand.record.pushes or not lost:
        return None
    first = next(i for i, e in enumerate(events) if e is hand.record.pushes[0])
    seat = rng.choice(lost)
    at = rng.randint(first + 1, len(events) - 1)
    events.insert(at, StackCount(seq=0, ts_ms=0, seat=seat, amount=rng.choice((25, 100, 500))))
    return events, expect(report, "hidden_chips", "R-ALLIN-7", (seat,))


def _before_the_push(events: list[Event]) -> list[int]:
    awards = index(events, lambda e: isinstance(e, Award))
    end = awards[0] if awards else len(events) - 1
    starts = index(events, lambda e: isinstance(e, HandStart))
    return list(range(starts[0] + 1, end + 1)) if starts else []


def chips_behind_an_all_in(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """An all-in player still has chips in front of him before the pots are pushed."""
    found = _count_at(events, rng, lambda hand: [(seat, 0) for seat in sorted(hand.all_in)])
    if found is None:
        return None
    at, seat, _ = found
    events.insert(at, StackCount(seq=0, ts_ms=0, seat=seat, amount=rng.choice((25, 100, 500))))
    return events, expect(report, "chips_behind_an_all_in", "R-ALLIN-6", (seat,))


def chips_off_the_table(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """Chips of a seat leave the table during the hand (its stack counts short)."""
    found = _count_at(
        events, rng, lambda hand: [(s, left) for s, left in sorted(hand.stacks.items()) if left]
    )
    if found is None:
        return None
    at, seat, stack = found
    events.insert(at, StackCount(seq=0, ts_ms=0, seat=seat, amount=rng.randint(0, stack - 1)))
    return events, expect(report, "chips_off_the_table", "R-CHIP-6", (seat,))


def tray_moved(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """Chips go into or out of the dealer's tray during the hand."""
    starts = index(events, lambda e: isinstance(e, HandStart))
    if not starts or any(isinstance(e, TrayCount) for e in events):
        return None
    table = events[0]
    assert isinstance(table, TableConfig)
    before = {table.bb: 100, 5 * table.bb: 40}
    after = dict(before)
    denomination = rng.choice(sorted(before))
    change = rng.choice([n for n in (-3, -1, 1, 2) if n * denomination != report.settlement.rake])
    after[denomination] += change
    at = rng.randint(starts[0] + 1, len(events) - 1)
    events.insert(at, TrayCount(seq=0, ts_ms=0, counts=after))
    events.insert(starts[0], TrayCount(seq=0, ts_ms=0, counts=before))
    return events, expect(report, "tray_moved", "R-TRAY-3")
