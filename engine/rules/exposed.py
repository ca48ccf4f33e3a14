"""Exposed cards: hole cards the dealer turns, flashes or deals off the table (R-EXPOSE-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.events import CardSeen, Event, Face, Show
from engine.rules.deck import misdeal_still_possible
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand, Placement


def _exposures(hand: Hand) -> list[Placement]:
    """Exposed hole cards (none where the house treats a face-up deal as a boxed card)."""
    if hand.table.house_rules.face_up_deal_is_boxed:
        return [p for p in hand.record.exposed if p.to_seat is None]
    return hand.record.exposed


def _hole_index(hand: Hand, placement: Placement) -> int:
    """Position of the card in the deal of the hole cards (0: the first card dealt)."""
    hole = [p for p in hand.record.placements if p.to_seat is not None]
    return next((i for i, p in enumerate(hole) if p.seq == placement.seq), len(hole))


@rule(
    "R-EXPOSE-3",
    hook="after",
    events=(CardSeen,),
    zones=("seat",),
    face_up_only=True,
    severity=Severity.CRITICAL,
    phase="deal",
)
def first_cards_exposed(hand: Hand, event: Event) -> Found:
    """The first or second card of the deal exposed by the dealer: misdeal."""
    assert isinstance(event, CardSeen)
    exposures = _exposures(hand)
    if len(exposures) != 1 or exposures[0].seq != event.seq or event.to_seat is None:
        return NONE
    placement = exposures[0]
    index = _hole_index(hand, placement)
    if index > 1:
        return NONE
    return (
        Finding(
            message=f"the {'first' if index == 0 else 'second'} card of the deal "
            f"({placement.card}, seat {event.to_seat}) was exposed: misdeal",
            seats=(event.to_seat,),
            cards=(placement.card,) if placement.card else (),
        ),
    )


@rule(
    "R-EXPOSE-5",
    hook="after",
    events=(CardSeen,),
    zones=("seat", "off_table"),
    face_up_only=True,
    severity=Severity.CRITICAL,
    phase="deal",
)
def two_exposed(hand: Hand, event: Event) -> Found:
    """Two or more hole cards exposed by the dealer: misdeal."""
    exposures = _exposures(hand)
    if len(exposures) != 2 or exposures[-1].seq != event.seq or not misdeal_still_possible(hand):
        return NONE
    return (
        Finding(
            message=f"a second hole card exposed in the deal "
            f"({' '.join(p.card or '?' for p in exposures)}): misdeal",
            seats=tuple(p.to_seat for p in exposures if p.to_seat is not None),
            cards=tuple(p.card for p in exposures if p.card),
            evidence=tuple(p.seq for p in exposures),
        ),
    )


@rule("R-EXPOSE-4", hook="after", events=(CardSeen,), zones=("seat", "board"), face_up_only=True)
def single_exposed(hand: Hand, event: Event) -> Found:
    """Any other single exposed hole card: replaced after the deal and used as the flop burn."""
    assert isinstance(event, CardSeen)
    exposures = _exposures(hand)
    if event.to == "board" and len(hand.board) == 1 and len(exposures) == 1:
        exposed = exposures[0]
        if exposed.to_seat is not None and _hole_index(hand, exposed) <= 1:
            return NONE  # the first two cards: a misdeal (R-EXPOSE-3), not a card to burn
        burns = hand.record.burns.get(0, [])
        if exposed.card and burns and all(b.card and b.card != exposed.card for b in burns):
            return (
                Finding(
                    message=f"the exposed card {exposed.card} was not used as the flop burn "
                    f"(burned {' '.join(b.card or '?' for b in burns)})",
                    cards=(exposed.card,),
                    evidence=(exposed.seq, *(b.seq for b in burns)),
                ),
            )
        return NONE
    if len(exposures) != 1 or exposures[0].seq != event.seq or event.to_seat is None:
        return NONE
    if _hole_index(hand, exposures[0]) <= 1:
        return NONE
    card = exposures[0].card
    return (
        Finding(
            message=f"hole card {card} of seat {event.to_seat} exposed in the deal: finish the "
            "deal, replace it with the next card, and burn it before the flop",
            seats=(event.to_seat,),
            cards=(card,) if card else (),
        ),
    )


@rule("R-EXPOSE-1", hook="after", events=(CardSeen,), zones=("off_table",))
def off_table(hand: Hand, event: Event) -> Found:
    """A card dealt off the table counts as exposed."""
    assert isinstance(event, CardSeen)
    exposures = _exposures(hand)
    if event.to != "off_table" or not exposures or exposures[-1].seq != event.seq:
        return NONE
    return (
        Finding(
            message=f"a card{f' ({event.card})' if event.card else ''} went off the table: "
            "it is an exposed card",
            cards=(event.card,) if event.card else (),
        ),
    )


@rule(
    "R-EXPOSE-17",
    hook="before",
    events=(CardSeen,),
    zones=("board", "burn"),
    face_up_only=True,
)
def rabbit_hunting(hand: Hand, event: Event) -> Found:
    """No rabbit hunting: no card of the stub is shown once the hand is over."""
    assert isinstance(event, CardSeen)
    if not hand.hand_decided or event.to not in ("board", "burn") or event.face is not Face.UP:
        return NONE
    card = event.card or (hand.pending_draws[0][0] if hand.pending_draws else None)
    return (
        Finding(
            message=f"{card or 'a card'} turned up after the hand was over (rabbit hunting)",
            cards=(card,) if card else (),
        ),
    )


@rule("R-EXPOSE-7", hook="before", events=(Show,), switches=("tournament",))
def showing_with_action_pending(hand: Hand, event: Event) -> Found:
    """Tournaments: no showing cards while the hand is in progress in a multi-way pot."""
    assert isinstance(event, Show)
    if not hand.table.house_rules.tournament or hand.record.betting_over_seq is not None:
        return NONE
    if hand.hand_decided or event.seat in hand.folded or len(hand.live()) < 3:
        return NONE
    return (
        Finding(
            message=f"seat {event.seat} showed {' '.join(event.cards)} with action pending in a "
            "multi-way pot (penalty; the hand stays live)",
            seats=(event.seat,),
            cards=event.cards,
        ),
    )


@rule("R-TABLE-1", hook="after", events=(CardSeen,), zones=("off_table",))
def card_out_of_view(hand: Hand, event: Event) -> Found:
    """Once the deal is over, a player's card leaves the table (hidden, lifted off, dropped)."""
    assert isinstance(event, CardSeen)
    exposures = _exposures(hand)
    if exposures and exposures[-1].seq == event.seq:
        return NONE  # dealt off the table: R-EXPOSE-1
    if hand.table.house_rules.tournament:
        return NONE  # a penalty in tournaments: R-EXPOSE-9
    return (
        Finding(
            message=f"a card{f' ({event.card})' if event.card else ''} went off the table: cards "
            "stay on the table, in view",
            cards=(event.card,) if event.card else (),
        ),
    )


@rule(
    "R-EXPOSE-9", hook="after", events=(CardSeen,), zones=("off_table",), switches=("tournament",)
)
def card_thrown_off_the_table(hand: Hand, event: Event) -> Found:
    """Tournaments: a player's card thrown off the table during play is a penalty."""
    assert isinstance(event, CardSeen)
    exposures = _exposures(hand)
    if not hand.table.house_rules.tournament or (exposures and exposures[-1].seq == event.seq):
        return NONE
    return (
        Finding(
            message=f"a card{f' ({event.card})' if event.card else ''} went off the table during "
            "play: penalty (tournament rules)",
            cards=(event.card,) if event.card else (),
        ),
    )


@rule(
    "R-EXPOSE-6",
    hook="before",
    events=(CardSeen,),
    zones=("seat",),
    face_up_only=True,
    phase="play",
    severity=Severity.INFO,
)
def player_exposed_card(hand: Hand, event: Event) -> Found:
    """A player shows a hole card during play: no replacement, no misdeal; the card plays."""
    assert isinstance(event, CardSeen)
    seat = event.to_seat
    if seat is None or seat not in hand.hole or hand.pending_draws or seat in hand.folded:
        return NONE
    if hand.record.betting_over_seq is not None:
        return NONE  # cards turned up at the showdown
    return (
        Finding(
            message=f"seat {seat} exposed {event.card} during play: the card plays (no "
            "replacement, no misdeal)",
            seats=(seat,),
            cards=(event.card,) if event.card else (),
        ),
    )
