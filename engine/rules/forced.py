"""Blinds and antes: amounts and who posts them (R-BLIND-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.events import Action, Ante, Blind, Event
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand, PreviousHand
    from engine.settlement import Settlement


@rule("R-BLIND-2", hook="before", events=(Blind, Ante))
def forced_amounts(hand: Hand, event: Event) -> Found:
    """A blind or ante that is not the level's amount, unless it is the seat's whole stack."""
    assert isinstance(event, Blind | Ante)
    table = hand.table
    expected: tuple[int, ...] = (table.sb, table.bb)
    big_blind = hand.big_blind_seat()
    if any(seat == big_blind for seat, _ in hand.blinds) or hand.stacks[big_blind] == 0:
        expected = (table.sb, table.bb, 2 * table.bb)  # a straddle (R-BLIND-7)
    what = "blind"
    if isinstance(event, Ante):
        expected, what = (table.bb_ante or table.ante,), "ante"
    stack = hand.stacks[event.seat]
    if event.amount not in expected and event.amount != stack:
        wanted = " or ".join(str(e) for e in expected)
        return (
            Finding(
                message=f"seat {event.seat} posted a {what} of {event.amount}; "
                f"the level is {wanted}",
                seats=(event.seat,),
                amounts={"posted": event.amount, "level": max(expected)},
            ),
        )
    return NONE


@rule("R-BLIND-1", hook="before", events=(Blind, Action), first_action_only=True)
def blind_positions(hand: Hand, event: Event) -> Found:
    """A blind posted after the betting began, or betting begun without the big blind due."""
    if isinstance(event, Blind):
        if hand.record.actions:
            return (
                Finding(
                    message=f"seat {event.seat} posted a blind after the betting started",
                    seats=(event.seat,),
                ),
            )
        return NONE
    if hand.record.actions or not hand.blinds:
        return NONE  # not the first action of the hand, or a game without blinds
    # Heads-up the button posts the small blind and the other seat the big blind (R-BLIND-3).
    due = hand.big_blind_seat()
    posters = {seat for seat, _ in hand.blinds}
    if due not in posters and hand.stacks[due] > 0:
        return (
            Finding(
                message=f"the betting began but seat {due}, due the big blind after the button "
                f"on seat {hand.button}, posted none",
                seats=(due,),
            ),
        )
    return NONE


@rule("R-HAND-1", hook="end", severity=Severity.INFO)
def hand_boundary(hand: Hand, s: Settlement) -> Found:
    """A new hand began (its first shuffle) before this one was cleared."""
    following = hand.superseded_by
    if following is None:
        return NONE
    return (
        Finding(
            message=f"hand {following.hand} began before hand {hand.hand} was cleared "
            "(no hand_end): everything after the new shuffle belongs to the new hand",
            evidence=(following.seq,),
        ),
    )


MISDEAL_RULES = frozenset(
    {
        "R-MISDEAL-2",
        "R-MISDEAL-3",
        "R-MISDEAL-5",
        "R-MISDEAL-6",
        "R-MISDEAL-7",
        "R-MISDEAL-8",
        "R-EXPOSE-3",
        "R-EXPOSE-5",
        "R-BOX-2",
    }
)


def _redeal(previous: PreviousHand) -> bool:
    """The last hand was called a misdeal and not played out: this one is its redeal."""
    return bool(previous.rules_raised & MISDEAL_RULES) and not previous.awarded


@rule(
    "R-MISDEAL-6",
    hook="before",
    events=(Action,),
    first_action_only=True,
    severity=Severity.CRITICAL,
)
def button_position(hand: Hand, event: Event) -> Found:
    """The button did not move one seat on from the last hand: misdeal, correct the button."""
    previous = hand.previous
    if previous is None or _redeal(previous):
        return NONE
    last_button = previous.button
    size = hand.table.seats
    after_last = sorted(previous.seats, key=lambda s: (s - last_button - 1) % size)
    last_small_blind = after_last[0] if len(after_last) > 2 else last_button
    # Moving button: the next seat dealt in; dead button: the seat of the last small blind.
    allowed = {
        s
        for s in range(1, size + 1)
        if 0 < (s - last_button) % size <= (last_small_blind - last_button) % size
    }
    if not allowed or hand.button in allowed:
        return NONE
    return (
        Finding(
            message=f"the button is on seat {hand.button}; after seat {last_button} last hand it "
            f"belongs on seat {min(allowed, key=lambda s: (s - last_button) % size)}: misdeal",
            seats=(hand.button,),
        ),
    )


@rule("R-MISDEAL-10", hook="before", events=(Action,), first_action_only=True)
def redeal_repeats(hand: Hand, event: Event) -> Found:
    """The redeal after a misdeal is an exact repeat: the button does not move."""
    previous = hand.previous
    if previous is None or not _redeal(previous) or hand.button == previous.button:
        return NONE
    return (
        Finding(
            message=f"redeal after a misdeal with the button moved from seat {previous.button} "
            f"to seat {hand.button}: the redeal is an exact repeat",
            seats=(hand.button,),
        ),
    )


@rule("R-BLIND-5", hook="before", events=(Action,), first_action_only=True)
def new_player_position(hand: Hand, event: Event) -> Found:
    """A new player is not dealt in on the small blind or the button: he waits."""
    previous = hand.previous
    if previous is None or _redeal(previous) or len(hand.seats) < 3:
        return NONE
    small_blind = hand.clockwise_from(hand.button)[0]
    newcomers = [
        seat
        for seat in (small_blind, hand.button)
        if seat in hand.hole and seat not in previous.seats
    ]
    if not newcomers:
        return NONE
    return (
        Finding(
            message=f"seat {', '.join(map(str, newcomers))} joined this hand on the small blind "
            "or the button: a new player waits for the button to pass",
            seats=tuple(newcomers),
        ),
    )


@rule("R-BLIND-7", hook="before", events=(Blind,), switches=("tournament",))
def straddle(hand: Hand, event: Event) -> Found:
    """A straddle is twice the big blind, posted by the seat just left of the big blind, in
    no-limit and pot-limit cash games only."""
    assert isinstance(event, Blind)
    table = hand.table
    big_blind = hand.big_blind_seat()
    if not hand.blinds or event.amount <= table.bb:
        return NONE
    left_of_bb = hand.clockwise_from(big_blind)[0]
    problems = []
    if table.game.is_fixed_limit:
        problems.append("no straddle in limit games")
    if table.house_rules.tournament:
        problems.append("no straddle in tournaments")
    if event.seat != left_of_bb:
        problems.append(f"only seat {left_of_bb}, just left of the big blind, may straddle")
    if event.amount != 2 * table.bb and event.amount != hand.stacks[event.seat]:
        problems.append(f"a straddle is {2 * table.bb}")
    if not problems:
        return NONE
    return (
        Finding(
            message=f"seat {event.seat} straddled {event.amount}: {'; '.join(problems)}",
            seats=(event.seat,),
            amounts={"straddle": event.amount},
        ),
    )
