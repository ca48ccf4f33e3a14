"""The chips in front of each seat, as vision counts them, against the chip ledger.

Only chips won in a pot or an uncalled bet handed back may come into a stack during a hand
(table stakes); chips may not leave the table either, and an all-in player has none left.
Stacks are compared until the first pot is pushed, while the ledger knows exactly what each seat
must have in front of it (a bet nobody called that was handed back included).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.events import Action, ActionKind, Event, StackCount
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.settlement import Settlement


def _in_front(hand: Hand, seat: int) -> int | None:
    """The chips the ledger puts in front of the seat: its stack and any bet nobody called that
    was handed back; None once a pot is pushed."""
    if hand.record.pushes:
        return None
    return hand.stacks[seat] + sum(a.amount for a in hand.record.returns if a.seat == seat)


def _difference(hand: Hand, event: Event) -> int | None:
    """Counted minus expected chips in front of the seat; None once pots are being pushed."""
    assert isinstance(event, StackCount)
    expected = _in_front(hand, event.seat)
    return None if expected is None else event.amount - expected


@rule("R-BET-23", hook="before", events=(Action, StackCount), severity=Severity.CRITICAL)
def table_stakes(hand: Hand, event: Event) -> Found:
    """Table stakes: a bet beyond the chips in front of the seat, or a stack that grows during
    the hand other than by a pot or a returned bet."""
    if isinstance(event, Action):
        c = hand.action_context(event)
        if c.folded or c.all_in or event.action in (ActionKind.FOLD, ActionKind.CHECK):
            return NONE
        if c.to <= c.all_in_to:
            return NONE
        return (
            Finding(
                message=f"seat {event.seat} bet to {c.to} but had only {c.all_in_to} in total",
                seats=(event.seat,),
                amounts={"to": c.to, "available": c.all_in_to},
            ),
        )
    assert isinstance(event, StackCount)
    difference = _difference(hand, event)
    if difference is None or difference <= 0 or event.seat in hand.all_in:
        return NONE
    return (
        Finding(
            message=f"seat {event.seat}'s stack grew to {event.amount} during the hand; it should "
            f"be {event.amount - difference} (only the chips in front at the start play)",
            seats=(event.seat,),
            amounts={"counted": event.amount, "expected": event.amount - difference},
        ),
    )


@rule("R-ALLIN-6", hook="before", events=(StackCount,), severity=Severity.CRITICAL)
def all_in_stack_not_empty(hand: Hand, event: Event) -> Found:
    """An all-in player puts all his chips in: chips still in front of him are hidden chips."""
    assert isinstance(event, StackCount)
    handed_back = _in_front(hand, event.seat)
    if event.seat not in hand.all_in or handed_back is None or event.amount <= handed_back:
        return NONE
    return (
        Finding(
            message=f"seat {event.seat} is all-in but {event.amount} in chips are still in front "
            "of it",
            seats=(event.seat,),
            amounts={"counted": event.amount},
        ),
    )


@rule("R-CHIP-6", hook="before", events=(StackCount,))
def chips_off_the_table(hand: Hand, event: Event) -> Found:
    """Chips in play stay on the table: a stack short of what the ledger says it holds."""
    difference = _difference(hand, event)
    if difference is None or difference >= 0:
        return NONE
    assert isinstance(event, StackCount)
    return (
        Finding(
            message=f"seat {event.seat}'s stack counts {event.amount}; the bets leave it "
            f"{event.amount - difference}: {-difference} off the table",
            seats=(event.seat,),
            amounts={"counted": event.amount, "expected": event.amount - difference},
        ),
    )


@rule("R-ALLIN-7", hook="end", severity=Severity.CRITICAL)
def hidden_chips(hand: Hand, s: Settlement) -> Found:
    """A player all-in who lost everything is then seen with chips: hidden chips."""
    finishing = s.finishing_stacks
    if finishing is None or not hand.record.pushes:
        return NONE
    first_push = hand.record.pushes[0].seq
    for count in hand.record.stacks:
        seat = count.seat
        lost_all = seat in hand.all_in and finishing.get(seat) == 0
        if count.seq > first_push and lost_all and count.amount > 0:
            return (
                Finding(
                    message=f"seat {seat} lost all-in but {count.amount} in chips are in front "
                    "of it: hidden chips",
                    seats=(seat,),
                    amounts={"counted": count.amount},
                    evidence=(count.seq,),
                ),
            )
    return NONE
