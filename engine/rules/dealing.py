"""The deal: order, number of hole cards, burn cards (R-DEAL-1, R-MISDEAL-*, R-COUNT-*,
R-BURN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.events import Action, CardSeen, Event, Face
from engine.rules.deck import misdeal_still_possible
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand


def _first_action(hand: Hand, event: Event) -> bool:
    return isinstance(event, Action) and not hand.record.actions


def _hole_order(hand: Hand) -> list[int]:
    return [int(p.to[5:]) for p in hand.record.placements if p.to.startswith("seat:")]


@rule("R-MISDEAL-5", hook="before", events=(Action,), severity=Severity.CRITICAL)
def first_card_wrong_seat(hand: Hand, event: Event) -> Found:
    """The first card of the deal went to another seat than the first left of the button."""
    if not _first_action(hand, event):
        return NONE
    order = _hole_order(hand)
    if not order:
        return NONE
    due = hand.clockwise_from(hand.button)[0]
    if order[0] == due:
        return NONE
    return (
        Finding(
            message=f"the first card of the deal went to seat {order[0]}; it is due to seat "
            f"{due}, first left of the button: misdeal",
            seats=(order[0], due),
        ),
    )


@rule("R-DEAL-1", hook="before", events=(Action,))
def deal_order(hand: Hand, event: Event) -> Found:
    """Hole cards one at a time, clockwise from the first seat left of the button."""
    if not _first_action(hand, event):
        return NONE
    order = _hole_order(hand)
    if not order:
        return NONE
    seats = hand.clockwise_from(hand.button)
    due = seats[0]
    if order[0] != due:
        return NONE  # R-MISDEAL-5 covers a first card to the wrong seat
    expected = [seats[i % len(seats)] for i in range(len(order))]
    for i, (got, want) in enumerate(zip(order, expected, strict=True)):
        last_two_to_button = i == len(order) - 1 and got == hand.button  # R-MISDEAL-9
        if got != want and not last_two_to_button:
            return (
                Finding(
                    message=f"card {i + 1} of the deal went to seat {got} instead of seat "
                    f"{want} (one card at a time, clockwise)",
                    seats=(got, want),
                ),
            )
    return NONE


@rule("R-MISDEAL-3", hook="before", events=(Action,), severity=Severity.CRITICAL)
def wrong_number_dealt(hand: Hand, event: Event) -> Found:
    """A seat holds too few or too many hole cards when the betting starts: misdeal."""
    if not _first_action(hand, event) or not hand.record.placements:
        return NONE
    needed = hand.table.game.hole_card_count
    wrong = {seat: len(hand.hole[seat]) for seat in hand.seats if len(hand.hole[seat]) != needed}
    if not wrong or not misdeal_still_possible(hand):
        return NONE
    listed = ", ".join(f"seat {seat} has {n}" for seat, n in wrong.items())
    return (
        Finding(
            message=f"wrong number of hole cards when the betting started ({listed}; each seat "
            f"gets {needed}): misdeal",
            seats=tuple(wrong),
            amounts={f"seat_{seat}": n for seat, n in wrong.items()},
        ),
    )


_BURN_RULE = {0: "flop", 3: "turn", 4: "river"}


def _burn_problem(hand: Hand, event: Event, *, flop: bool) -> Found:
    if not isinstance(event, CardSeen) or event.to != "board":
        return NONE
    size = len(hand.board)
    if size not in _BURN_RULE or (size == 0) != flop or hand.hand_decided:
        return NONE
    burns = hand.record.burns.get(size, [])
    if len(burns) == 1:
        return NONE
    what = "no burn card" if not burns else f"{len(burns)} burn cards"
    return (
        Finding(
            message=f"{what} before the {_BURN_RULE[size]} (exactly one, face down)",
            evidence=(*(b.seq for b in burns), event.seq),
        ),
    )


@rule("R-BURN-3", hook="before", events=(CardSeen,), zones=("board",))
def flop_burn(hand: Hand, event: Event) -> Found:
    """No burn, or two burns, before the flop."""
    return _burn_problem(hand, event, flop=True)


@rule("R-BURN-2", hook="before", events=(CardSeen,), zones=("board",))
def street_burn(hand: Hand, event: Event) -> Found:
    """No burn, or more than one, before the turn or the river."""
    return _burn_problem(hand, event, flop=False)


@rule("R-BURN-1", hook="after", events=(CardSeen,), zones=("burn",), face_up_only=True)
def burn_face_down(hand: Hand, event: Event) -> Found:
    """The burn card is the top card, dealt face down."""
    assert isinstance(event, CardSeen)
    if event.to != "burn" or event.face is not Face.UP:
        return NONE
    return (
        Finding(
            message=f"burn card {event.card} dealt face up (it must stay face down)",
            cards=(event.card,) if event.card else (),
        ),
    )
