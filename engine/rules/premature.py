"""Board cards dealt before the betting round is complete (R-PREM-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import CardSeen, Event
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand

_STREET_RULE = {0: ("R-PREM-2", "flop"), 3: ("R-PREM-3", "turn"), 4: ("R-PREM-4", "river")}


def _premature(hand: Hand, event: Event, board_size: int) -> Found:
    if not isinstance(event, CardSeen) or event.to != "board":
        return NONE
    if len(hand.board) != board_size or len(hand.live()) <= 1 or not hand.hole_cards_dealt():
        return NONE
    if hand.held_board:
        return NONE  # the street's first premature card raised it already
    waiting = hand.next_actor()
    if waiting is None:
        return NONE
    _, street = _STREET_RULE[board_size]
    card = event.card or (hand.pending_draws[0][0] if hand.pending_draws else "?")
    return (
        Finding(
            message=f"{street} card {card} dealt before the betting was complete (seat {waiting} "
            f"still to act): it does not play",
            seats=(waiting,),
            cards=(card,),
        ),
    )


@rule("R-PREM-2", hook="before", events=(CardSeen,), zones=("board",))
def premature_flop(hand: Hand, event: Event) -> Found:
    return _premature(hand, event, 0)


@rule("R-PREM-3", hook="before", events=(CardSeen,), zones=("board",))
def premature_turn(hand: Hand, event: Event) -> Found:
    return _premature(hand, event, 3)


@rule("R-PREM-4", hook="before", events=(CardSeen,), zones=("board",))
def premature_river(hand: Hand, event: Event) -> Found:
    return _premature(hand, event, 4)


@rule("R-PREM-1", hook="before", events=(CardSeen,), zones=("board",), phase="deal")
def board_during_the_deal(hand: Hand, event: Event) -> Found:
    """A board card dealt while the hole cards are still being dealt."""
    if not isinstance(event, CardSeen) or event.to != "board" or hand.hole_cards_dealt():
        return NONE
    card = event.card or (hand.pending_draws[0][0] if hand.pending_draws else "?")
    return (
        Finding(
            message=f"board card {card} dealt before every seat had its hole cards: "
            "it does not play",
            cards=(card,),
        ),
    )
