"""Irregularities of the cards: exposed, boxed, premature, duplicated, switched in."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

from engine.cards import DECK
from engine.events import Action, CardSeen, Event, Face, ShoeDraw, Show, TableConfig
from engine.hand import HandReport
from engine.mutations.base import (
    Expected,
    expect,
    index,
    recomplete,
    repush,
    state_before,
    typed,
)


def exposed_hole_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer turns a hole card face up during the deal (not one of the first two)."""
    holes = index(events, lambda e: isinstance(e, CardSeen) and e.to_seat is not None)
    if len(holes) < 3:
        return None
    i = rng.choice(holes[2:])
    card_event = events[i]
    draw = events[i - 1]
    assert isinstance(card_event, CardSeen)
    if not isinstance(draw, ShoeDraw):
        return None
    events[i] = replace(card_event, face=Face.UP, card=draw.card)
    seat = card_event.to_seat
    assert seat is not None
    return events, expect(report, "exposed", "R-EXPOSE-4", (seat,))


def boxed_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A card is found face up in the deck before the deal."""
    used = {e.card for e in events if isinstance(e, ShoeDraw | CardSeen) and e.card}
    used |= {card for e in events if isinstance(e, Show) for card in e.cards}
    spare = [card for card in DECK if card not in used]
    first_card = index(events, lambda e: isinstance(e, ShoeDraw))
    if not spare or not first_card:
        return None
    boxed = CardSeen(seq=0, ts_ms=0, to="shoe", face=Face.UP, card=rng.choice(spare))
    events.insert(first_card[0], boxed)
    return events, expect(report, "boxed", "R-BOX-1")


def premature_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A board round is dealt before the last action of the betting round before it."""
    rules = {0: "R-PREM-2", 3: "R-PREM-3", 4: "R-PREM-4"}
    choices = []
    board_seen = 0
    street_start = 0
    for i, event in enumerate(events):
        if isinstance(event, CardSeen) and event.to == "burn":
            previous = i - 1
            while previous > street_start and not isinstance(events[previous], Action):
                previous -= 1
            last = events[previous]
            # The last action of the betting round just before this burn, in that round.
            if isinstance(last, Action) and board_seen in rules and last.action != "fold":
                choices.append((previous, i, board_seen))
        if isinstance(event, CardSeen) and event.to == "board":
            board_seen += 1
            street_start = i
    if not choices:
        return None
    action_at, burn_at, board_size = rng.choice(choices)
    block_end = burn_at + 1
    while block_end < len(events) and (
        isinstance(events[block_end], ShoeDraw)
        or (isinstance(card := events[block_end], CardSeen) and card.to == "board")
    ):
        block_end += 1
    # The burn moves with its shoe read, where the shoe read it.
    block_start = burn_at - 1 if isinstance(events[burn_at - 1], ShoeDraw) else burn_at
    block = events[block_start:block_end]
    action = events[action_at]
    assert isinstance(action, Action)
    reordered = [*events[:action_at], *block, action, *events[action_at + 1 : block_start]]
    reordered += events[block_end:]
    return reordered, expect(report, "premature", rules[board_size], (action.seat,))


def duplicate_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The shoe deals a board card that is already in a player's hand (a second deck mixed in)."""
    holes = [read for _, read in _dealt_hole_cards(events) if read is not None]
    boards = index(
        events,
        lambda e: isinstance(e, CardSeen) and e.to == "board",
    )
    if not holes or not boards:
        return None
    i = rng.choice(boards)
    board = events[i]
    assert isinstance(board, CardSeen)
    read = index(events, lambda e: isinstance(e, ShoeDraw) and e.card == board.card)
    if not read:
        return None
    twin = rng.choice(holes)
    events[read[0]] = replace(typed(events, read[0], ShoeDraw), card=twin)
    events[i] = replace(board, card=twin)
    return recomplete(events), expect(report, "duplicate", "R-DECK-3")


def switched_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A player tables a card the shoe never dealt him (a card switched in)."""
    used = {e.card for e in events if isinstance(e, ShoeDraw)}
    spare = [card for card in DECK if card not in used]
    if not spare or not index(events, lambda e: isinstance(e, Show)):
        return None
    events = recomplete(events)  # every live hand tabled whole, then one card of one switched
    whole = {
        seat
        for seat in report.starting_stacks
        if sum(isinstance(e, Show) and e.seat == seat for e in events) == 1
    }
    shows = index(events, lambda e: isinstance(e, Show) and e.seat in whole)
    if not shows:
        return None
    i = rng.choice(shows)
    show = events[i]
    assert isinstance(show, Show)
    cards = list(show.cards)
    cards[rng.randrange(len(cards))] = rng.choice(spare)
    events[i] = replace(show, cards=tuple(cards))
    return repush(events), expect(report, "switched_card", "R-DECK-12", (show.seat,))


def _holes(events: list[Event]) -> list[int]:
    """Indexes of the hole cards' placements, each right after its shoe read."""
    return [
        i
        for i in index(events, lambda e: isinstance(e, CardSeen) and e.to_seat is not None)
        if isinstance(events[i - 1], ShoeDraw)
    ]


def _dealt_hole_cards(events: list[Event]) -> list[tuple[int, str | None]]:
    """(index, card the shoe read, None when it read none) of each hole card placed, in the
    order of the deal."""
    hand = state_before(events, len(events) - 1)
    if hand is None:
        return []
    at = {e.seq: i for i, e in enumerate(events)}
    return [
        (at[p.seq], p.shoe_card)
        for p in hand.record.placements
        if p.to_seat is not None and p.face is Face.DOWN
    ]


def exposed_first_cards(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer turns up the first or second card of the deal: a misdeal."""
    first_two = [(i, read) for i, read in _dealt_hole_cards(events)[:2] if read is not None]
    if not first_two:
        return None
    i, read = rng.choice(first_two)
    card = events[i]
    assert isinstance(card, CardSeen) and card.to_seat is not None
    events[i] = replace(card, face=Face.UP, card=read)
    return events, expect(report, "exposed_first_cards", "R-EXPOSE-3", (card.to_seat,))


def dealt_out_of_order(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """Two hole cards dealt out of clockwise order (the first card where it belongs)."""
    holes = _holes(events)
    pairs = [
        (a, b)
        for a, b in pairwise(holes[1:])
        if b == a + 2 and typed(events, a, CardSeen).to != typed(events, b, CardSeen).to
    ]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    events[a - 1 : b + 1] = [*events[b - 1 : b + 1], *events[a - 1 : a + 1]]
    return events, expect(report, "dealt_out_of_order", "R-DEAL-1")


def _spare(events: list[Event]) -> list[str]:
    used = {e.card for e in events if isinstance(e, ShoeDraw | CardSeen) and e.card}
    used |= {card for e in events if isinstance(e, Show) for card in e.cards}
    return [card for card in DECK if card not in used]


def dealt_to_an_empty_seat(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A card is dealt to a seat where nobody plays this hand: a misdeal."""
    table = events[0]
    assert isinstance(table, TableConfig)
    empty = [seat for seat in range(1, table.seats + 1) if seat not in report.starting_stacks]
    holes = _holes(events)
    spare = _spare(events)
    if not empty or not holes or not spare:
        return None
    seat = rng.choice(empty)
    at = rng.choice(holes) + 1
    events[at:at] = [
        ShoeDraw(seq=0, ts_ms=0, card=rng.choice(spare), shoe_seq=0),
        CardSeen(seq=0, ts_ms=0, to=f"seat:{seat}", face=Face.DOWN, card=None),
    ]
    _renumber_shoe(events)
    return events, expect(report, "dealt_to_an_empty_seat", "R-MISDEAL-7", (seat,))


def _renumber_shoe(events: list[Event]) -> None:
    draws = index(events, lambda e: isinstance(e, ShoeDraw))
    for n, i in enumerate(draws, start=1):
        events[i] = replace(typed(events, i, ShoeDraw), shoe_seq=n)


def rabbit_hunted(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """After everyone folded, the dealer shows the card that would have come."""
    if len(report.board) >= 5:
        return None
    hand = state_before(events, len(events) - 1)
    decided = hand.record.decided_seq if hand is not None else None
    spare = _spare(events)
    if decided is None or not spare:
        return None
    at = next(i for i, e in enumerate(events) if e.seq == decided) + 1
    at = rng.randint(at, len(events) - 1)
    events[at:at] = [
        ShoeDraw(seq=0, ts_ms=0, card=rng.choice(spare), shoe_seq=0),
        CardSeen(seq=0, ts_ms=0, to="board", face=Face.UP, card=None),
    ]
    draw = events[at]
    assert isinstance(draw, ShoeDraw)
    events[at + 1] = replace(typed(events, at + 1, CardSeen), card=draw.card)
    _renumber_shoe(events)
    return events, expect(report, "rabbit_hunted", "R-EXPOSE-17")


def card_of_another_deck(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A card with another back than the deck in play turns up (the camera sees every back)."""
    seen = index(events, lambda e: isinstance(e, CardSeen) and e.to != "shoe")
    if len(seen) < 2:
        return None
    for i in seen:
        events[i] = replace(typed(events, i, CardSeen), back="blue")
    odd = rng.choice(seen[1:])
    events[odd] = card = replace(typed(events, odd, CardSeen), back="red")
    seat = card.to_seat
    return events, expect(
        report, "card_of_another_deck", "R-DECK-2", (seat,) if seat is not None else ()
    )


_BURN_RULES = {0: "R-BURN-3", 3: "R-BURN-2", 4: "R-BURN-2"}
"""The rule of a burn error by the board's size before the burn."""


def _burns(events: list[Event]) -> list[tuple[int, int]]:
    """(index, board cards before it) of each burn card of a street that was dealt."""
    out, board = [], 0
    for i, event in enumerate(events):
        if isinstance(event, CardSeen) and event.to == "burn" and board in _BURN_RULES:
            out.append((i, board))
        elif isinstance(event, CardSeen) and event.to == "board":
            board += 1
    return out


def burn_left_out(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A street is dealt without its burn card (the card goes to the board instead)."""
    burns = _burns(events)
    if not burns:
        return None
    i, board = rng.choice(burns)
    read = i - 1 if isinstance(events[i - 1], ShoeDraw) else None
    del events[i]
    if read is not None:
        del events[read]
    _renumber_shoe(events)
    return events, expect(report, "burn_left_out", _BURN_RULES[board])


def burned_twice(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """Two cards are burned before a street."""
    burns = _burns(events)
    spare = _spare(events)
    if not burns or not spare:
        return None
    i, board = rng.choice(burns)
    events[i + 1 : i + 1] = [
        ShoeDraw(seq=0, ts_ms=0, card=rng.choice(spare), shoe_seq=0),
        CardSeen(seq=0, ts_ms=0, to="burn", face=Face.DOWN, card=None),
    ]
    _renumber_shoe(events)
    return events, expect(report, "burned_twice", _BURN_RULES[board])


def burn_face_up(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The burn card is dealt face up."""
    burns = [(i, b) for i, b in _burns(events) if isinstance(events[i - 1], ShoeDraw)]
    if not burns:
        return None
    i, _ = rng.choice(burns)
    read = events[i - 1]
    assert isinstance(read, ShoeDraw)
    events[i] = replace(typed(events, i, CardSeen), face=Face.UP, card=read.card)
    return events, expect(report, "burn_face_up", "R-BURN-1")
