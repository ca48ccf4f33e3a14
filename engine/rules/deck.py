"""Deck integrity and boxed cards: what the shoe read against what the cameras saw.

R-DECK-3 duplicate card, R-DECK-12 a card that does not belong (never dealt by the shoe in this
hand, or tabled in place of the card the shoe dealt), R-DECK-2 a different back, R-BOX-1/2/4
boxed cards (already face up in the deck).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.events import CardSeen, Event, Face, ShoeDraw, Show
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand

_DEALT_TO = ("board", "burn")


@rule(
    "R-DECK-3",
    hook="before",
    events=(ShoeDraw, CardSeen),
    zones=("board", "burn", "seat"),
    face_up_only=True,
    severity=Severity.CRITICAL,
)
def duplicate_card(hand: Hand, event: Event) -> Found:
    """The same card twice in one hand: read twice by the shoe, or seen in two places."""
    if isinstance(event, ShoeDraw):
        first = hand.drawn.get(event.card)
        if first is None:
            return NONE
        return (
            Finding(
                message=f"the shoe read {event.card} twice in this hand: duplicate card, "
                "all action is void",
                cards=(event.card,),
                evidence=(first, event.seq),
            ),
        )
    assert isinstance(event, CardSeen)
    card = event.card
    if card is None or event.face is not Face.UP:
        return NONE
    if not (event.to in _DEALT_TO or event.to_seat is not None):
        return NONE
    where = hand.card_at.get(card)
    pending = hand.pending_draws[0][0] if hand.pending_draws else None
    if where is None or where == event.to or pending == card:
        return NONE
    return (
        Finding(
            message=f"{card} seen at {event.to} while it is already at {where}: duplicate card, "
            "all action is void",
            cards=(card,),
        ),
    )


def _shoe_in_use(hand: Hand) -> bool:
    return bool(hand.drawn)


@rule(
    "R-DECK-12",
    hook="before",
    events=(CardSeen, Show),
    zones=("board", "burn", "seat"),
    face_up_only=True,
    severity=Severity.CRITICAL,
)
def foreign_card(hand: Hand, event: Event) -> Found:
    """A card on the table the shoe never dealt, or tabled hole cards that are not the ones the
    shoe dealt to that seat."""
    if not _shoe_in_use(hand):
        return NONE
    if isinstance(event, Show):
        dealt = [card for card in hand.hole.get(event.seat, []) if card is not None]
        if len(dealt) != len(hand.hole.get(event.seat, [])):
            return NONE  # the shoe did not read every hole card of this seat: nothing to compare
        strange = tuple(card for card in event.cards if card not in dealt)
        if not strange:
            return NONE
        return (
            Finding(
                message=f"seat {event.seat} tabled {' '.join(strange)}, but the shoe dealt it "
                f"{' '.join(dealt)}: a card that does not belong to this deal",
                seats=(event.seat,),
                cards=strange,
                evidence=(*(hand.drawn[c] for c in dealt if c in hand.drawn), event.seq),
            ),
        )
    assert isinstance(event, CardSeen)
    card = event.card
    if card is None or event.face is not Face.UP or event.to in ("shoe", "muck"):
        return NONE
    pending = hand.pending_draws[0][0] if hand.pending_draws else None
    if card in hand.drawn or card == pending:
        return NONE
    if event.to in ("board", "burn") or event.to_seat is not None:
        shoe = f"; the shoe's next card is {pending}" if pending else ""
        return (
            Finding(
                message=f"{card} seen at {event.to} but the shoe never dealt it{shoe}: "
                "a card that does not belong",
                seats=(event.to_seat,) if event.to_seat is not None else (),
                cards=(card,),
            ),
        )
    return NONE


@rule("R-DECK-2", hook="before", events=(CardSeen,), severity=Severity.CRITICAL, back_only=True)
def different_back(hand: Hand, event: Event) -> Found:
    """A card with another back than the deck in play."""
    assert isinstance(event, CardSeen)
    if event.back is None:
        return NONE
    backs = hand.memo.setdefault("backs", {})
    assert isinstance(backs, dict)
    if not backs:
        backs[event.back] = event.seq
        return NONE
    deck_back, first = next(iter(backs.items()))
    if event.back == deck_back:
        return NONE
    return (
        Finding(
            message=f"a card with a {event.back} back at {event.to}; the deck in play has "
            f"{deck_back} backs: all action is void",
            seats=(event.to_seat,) if event.to_seat is not None else (),
            cards=(event.card,) if event.card else (),
            evidence=(first, event.seq),
        ),
    )


def _boxed(hand: Hand) -> list[CardSeen]:
    return hand.record.boxed


@rule("R-BOX-1", hook="after", events=(CardSeen,), zones=("shoe",), face_up_only=True)
def boxed_card(hand: Hand, event: Event) -> Found:
    """A card found face up in the deck: a scrap of paper, set aside and replaced."""
    assert isinstance(event, CardSeen)
    if event.to != "shoe" or event.face is not Face.UP or len(_boxed(hand)) != 1:
        return NONE
    return (
        Finding(
            message=f"boxed card {event.card} (face up in the deck): it is a scrap of paper, set "
            "it aside and deal the next card",
            cards=(event.card,) if event.card else (),
        ),
    )


def misdeal_still_possible(hand: Hand) -> bool:
    """Before the misdeal cutoff of the house (catalogue 2.19 #5)."""
    actions = [a for a in hand.record.actions if not a.extra.get("inferred")]
    if hand.table.house_rules.misdeal_cutoff == "tda":
        with_chips = [a for a in actions if a.action not in ("fold", "check")]
        return len(with_chips) < 2 and len(actions) < 3
    return len({a.seat for a in actions}) < 2


@rule(
    "R-BOX-2",
    hook="after",
    events=(CardSeen,),
    zones=("shoe",),
    face_up_only=True,
    severity=Severity.CRITICAL,
)
def two_boxed_cards(hand: Hand, event: Event) -> Found:
    """Two or more boxed cards before the misdeal cutoff: misdeal."""
    assert isinstance(event, CardSeen)
    boxed = _boxed(hand)
    if event.to != "shoe" or event.face is not Face.UP or len(boxed) != 2:
        return NONE
    if not misdeal_still_possible(hand):
        return NONE
    return (
        Finding(
            message=f"two boxed cards ({' '.join(b.card or '?' for b in boxed)}): misdeal",
            cards=tuple(b.card for b in boxed if b.card),
            evidence=tuple(b.seq for b in boxed),
        ),
    )


@rule("R-BOX-4", hook="before", events=(CardSeen,), zones=("seat",), face_up_only=True)
def boxed_card_dealt(hand: Hand, event: Event) -> Found:
    """A boxed card that reaches a seat face up is still a boxed card, not an exposed one: it is
    replaced and the player gets the next card."""
    assert isinstance(event, CardSeen)
    seat = event.to_seat
    if seat is None or event.face is not Face.UP or event.card is None:
        return NONE
    boxed = [b for b in _boxed(hand) if b.card == event.card]
    if not boxed:
        return NONE
    return (
        Finding(
            message=f"boxed card {event.card} dealt to seat {seat}: replace it with the next "
            "card (it is not an exposed card)",
            seats=(seat,),
            cards=(event.card,),
            evidence=(boxed[0].seq, event.seq),
        ),
    )


@rule("R-MUCK-5", hook="before", events=(CardSeen,), zones=("seat",), phase="play")
def cards_thrown_into_a_hand(hand: Hand, event: Event) -> Found:
    """A card that reaches a seat's hand once the deal is over (not dealt by the shoe): the
    mixed cards are dead."""
    assert isinstance(event, CardSeen)
    seat = event.to_seat
    if seat is None or not hand.record.actions or hand.pending_draws:
        return NONE
    if event.card is not None and event.card in hand.hole.get(seat, []):
        return NONE  # the seat's own card coming back into its hand
    return (
        Finding(
            message=f"a card{f' ({event.card})' if event.card else ''} landed in seat {seat}'s "
            "hand after the deal: cards thrown into a hand are dead",
            seats=(seat,),
            cards=(event.card,) if event.card else (),
        ),
    )


@rule(
    "R-BOX-3",
    hook="after",
    events=(CardSeen,),
    zones=("seat",),
    face_up_only=True,
    switches=("face_up_deal_is_boxed",),
)
def face_up_deal_is_scrap(hand: Hand, event: Event) -> Found:
    """Seed 002: a card dealt face up is a scrap of paper; the player gets the next card."""
    assert isinstance(event, CardSeen)
    if not hand.table.house_rules.face_up_deal_is_boxed:
        return NONE
    exposed = hand.record.exposed
    if not exposed or exposed[-1].seq != event.seq:
        return NONE
    return (
        Finding(
            message=f"{exposed[-1].card} dealt face up to seat {event.to_seat}: a scrap of paper"
            " (house rule), deal the seat the next card",
            seats=(event.to_seat,) if event.to_seat is not None else (),
            cards=(exposed[-1].card,) if exposed[-1].card else (),
        ),
    )
