"""The deal: order, number of hole cards, burn cards (R-DEAL-1, R-MISDEAL-*, R-COUNT-*,
R-BURN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.events import Action, CardSeen, Event, Face, Show
from engine.rules.deck import misdeal_still_possible
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand


def _first_action(hand: Hand, event: Event) -> bool:
    return isinstance(event, Action) and not hand.record.actions


def _hole_order(hand: Hand) -> list[int]:
    """The seats of the hand in the order the hole cards reached them (a card to a seat not in
    the hand is R-MISDEAL-7's, not a break in the order)."""
    order = [p.to_seat for p in hand.record.placements if p.to_seat is not None]
    return [seat for seat in order if seat in hand.hole]


@rule(
    "R-MISDEAL-5",
    hook="before",
    events=(Action,),
    first_action_only=True,
    severity=Severity.CRITICAL,
)
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


@rule("R-DEAL-1", hook="before", events=(Action,), first_action_only=True)
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


def _hole_counts(hand: Hand) -> dict[int, int]:
    return {seat: len(hand.hole[seat]) for seat in hand.seats}


def _deal_check(hand: Hand, event: Event) -> tuple[int, dict[int, int]] | None:
    """(cards each seat should have, cards each seat has) at the first action of a hand whose
    deal the cameras saw; None otherwise."""
    if not _first_action(hand, event) or not hand.record.placements:
        return None
    return hand.table.game.hole_card_count, _hole_counts(hand)


def _listed(counts: dict[int, int]) -> str:
    return ", ".join(f"seat {seat} has {n}" for seat, n in counts.items())


@rule(
    "R-MISDEAL-3",
    hook="before",
    events=(Action,),
    first_action_only=True,
    severity=Severity.CRITICAL,
)
def wrong_number_dealt(hand: Hand, event: Event) -> Found:
    """A seat was dealt too few hole cards (but some) when the betting starts: misdeal."""
    checked = _deal_check(hand, event)
    if checked is None:
        return NONE
    needed, counts = checked
    short = {seat: n for seat, n in counts.items() if 0 < n < needed}
    if not short or not misdeal_still_possible(hand):
        return NONE
    return (
        Finding(
            message=f"too few hole cards when the betting started ({_listed(short)}; each seat "
            f"gets {needed}): misdeal",
            seats=tuple(short),
            amounts={f"seat_{seat}": n for seat, n in short.items()},
        ),
    )


@rule(
    "R-MISDEAL-8",
    hook="before",
    events=(Action,),
    first_action_only=True,
    severity=Severity.CRITICAL,
)
def seat_not_dealt_in(hand: Hand, event: Event) -> Found:
    """A seat in the hand (it posted or has chips) got no cards: misdeal."""
    checked = _deal_check(hand, event)
    if checked is None:
        return NONE
    _, counts = checked
    missing = tuple(seat for seat, n in counts.items() if n == 0)
    if not missing or not misdeal_still_possible(hand):
        return NONE
    return (
        Finding(
            message=f"seat {', '.join(map(str, missing))} is in the hand but was not dealt in: "
            "misdeal",
            seats=missing,
        ),
    )


def _extra_cards(hand: Hand, event: Event) -> tuple[int, dict[int, int]] | None:
    checked = _deal_check(hand, event)
    if checked is None:
        return None
    needed, counts = checked
    over = {seat: n - needed for seat, n in counts.items() if n > needed}
    if not over or any(0 < n < needed for n in counts.values()):
        return None
    return sum(over.values()), over


@rule("R-COUNT-1", hook="before", events=(Action,), first_action_only=True)
def one_extra_card(hand: Hand, event: Event) -> Found:
    """One extra card dealt before the first betting round: it goes back and becomes the burn."""
    extra = _extra_cards(hand, event)
    if extra is None or extra[0] != 1:
        return NONE
    (seat,) = extra[1]
    return (
        Finding(
            message=f"seat {seat} was dealt one card too many: it goes back to the deck as the "
            "burn card",
            seats=(seat,),
        ),
    )


@rule(
    "R-MISDEAL-2",
    hook="before",
    events=(Action,),
    first_action_only=True,
    severity=Severity.CRITICAL,
)
def extra_cards(hand: Hand, event: Event) -> Found:
    """Two or more extra cards dealt into the starting hands: misdeal."""
    extra = _extra_cards(hand, event)
    if extra is None or extra[0] < 2 or not misdeal_still_possible(hand):
        return NONE
    total, over = extra
    return (
        Finding(
            message=f"{total} extra cards dealt into the starting hands "
            f"({', '.join(f'seat {s} +{n}' for s, n in over.items())}): misdeal",
            seats=tuple(over),
        ),
    )


@rule(
    "R-MISDEAL-7",
    hook="after",
    events=(CardSeen,),
    zones=("seat",),
    severity=Severity.CRITICAL,
    phase="deal",
)
def dealt_to_empty_seat(hand: Hand, event: Event) -> Found:
    """A card dealt to a seat that is not in the hand, during the deal: misdeal."""
    assert isinstance(event, CardSeen)
    seat = event.to_seat
    if seat is None or seat in hand.hole or hand.record.actions:
        return NONE
    return (
        Finding(
            message=f"a card was dealt to seat {seat}, which is not in the hand: misdeal",
            seats=(seat,),
        ),
    )


@rule("R-COUNT-4", hook="before", events=(Action,), first_action_only=True)
def omaha_four_cards(hand: Hand, event: Event) -> Found:
    """Omaha: every seat gets four hole cards (four reads per seat)."""
    if hand.table.game.hole_card_count != 4:
        return NONE
    checked = _deal_check(hand, event)
    if checked is None:
        return NONE
    _, counts = checked
    wrong = {seat: n for seat, n in counts.items() if n not in (0, 4)}
    if not wrong:
        return NONE
    return (
        Finding(
            message=f"Omaha hands have four cards ({_listed(wrong)})",
            seats=tuple(wrong),
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


@rule("R-COUNT-3", hook="before", events=(Show,))
def too_many_cards_tabled(hand: Hand, event: Event) -> Found:
    """A hand with more cards than the game deals is dead."""
    assert isinstance(event, Show)
    needed = hand.table.game.hole_card_count
    if len(event.cards) <= needed:
        return NONE
    return (
        Finding(
            message=f"seat {event.seat} tabled {len(event.cards)} cards; the game deals {needed}:"
            " the hand is dead",
            seats=(event.seat,),
            cards=event.cards,
        ),
    )
