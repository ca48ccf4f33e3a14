"""Inject one irregularity into a real hand, and say which alert it must raise.

A PHH hand becomes a complete table event log first: rake (5 %, capped at three big blinds),
losing hands killed before the push, and the pots pushed side pots first, all as the engine
computes them, so the clean hand raises no alert. Then one irregularity, chosen with the seed
among those the hand allows, is written into it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from engine.alerts import Alert
from engine.cards import DECK
from engine.events import (
    Action,
    Award,
    CardSeen,
    Event,
    Face,
    HandEnd,
    HandStart,
    Muck,
    Rake,
    ShoeDraw,
    Show,
    StackCount,
    TableConfig,
)
from engine.hand import HandReport
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


def play(events: Sequence[Event]) -> HandReport:
    return play_hand(events, RuleSet())


def _renumber(events: Sequence[Event]) -> list[Event]:
    return [replace(e, seq=i + 1) for i, e in enumerate(events)]


def complete(events: Sequence[Event]) -> list[Event]:
    """The hand with rake, losing hands killed and the pots pushed, as the engine computes."""
    table = events[0]
    assert isinstance(table, TableConfig)
    table = replace(table, rake_pct=Decimal(5), rake_cap=3 * table.bb)
    body = [e for e in events[1:] if not isinstance(e, HandEnd)]
    end = events[-1]
    report = play([table, *body, end])
    s = report.settlement
    winners = {seat for shares in s.shares.values() for seat in shares}
    extra: list[Event] = []
    live = [seat for seat in report.starting_stacks if _live_at_end(body, seat)]
    if len(report.board) == 5 and len(live) > 1:
        extra += [Muck(seq=0, ts_ms=0, seat=seat) for seat in live if seat not in winners]
    for pot in reversed(s.pots):  # side pots first (R-POT-2)
        for seat, amount in s.shares.get(pot.name, {}).items():
            extra.append(Award(seq=0, ts_ms=0, seat=seat, amount=amount, pot=pot.name))
    extra.append(Rake(seq=0, ts_ms=0, amount=s.rake))
    return _renumber([table, *body, *extra, end])


def _live_at_end(events: Sequence[Event], seat: int) -> bool:
    return not any(
        (isinstance(e, Action) and e.seat == seat and e.action == "fold")
        or (isinstance(e, Muck) and e.seat == seat)
        for e in events
    )


Mutation = Callable[[list[Event], HandReport, random.Random], tuple[list[Event], Expected] | None]


def _index(events: Sequence[Event], test: Callable[[Event], bool]) -> list[int]:
    return [i for i, e in enumerate(events) if test(e)]


def exposed_hole_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer turns a hole card face up during the deal (not one of the first two)."""
    holes = _index(events, lambda e: isinstance(e, CardSeen) and e.to_seat is not None)
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
    return events, Expected(
        hand=report.hand, kind="exposed", rule="R-EXPOSE-4", family="exposed_card", seats=(seat,)
    )


def boxed_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A card is found face up in the deck before the deal."""
    used = {e.card for e in events if isinstance(e, ShoeDraw | CardSeen) and e.card}
    used |= {card for e in events if isinstance(e, Show) for card in e.cards}
    spare = [card for card in DECK if card not in used]
    first_card = _index(events, lambda e: isinstance(e, ShoeDraw))
    if not spare or not first_card:
        return None
    boxed = CardSeen(seq=0, ts_ms=0, to="shoe", face=Face.UP, card=rng.choice(spare))
    events.insert(first_card[0], boxed)
    return events, Expected(hand=report.hand, kind="boxed", rule="R-BOX-1", family="boxed_card")


def mucked_winner(
    events: list[Event], report: HandReport, _rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer kills the tabled winning hand and pushes the pot to the next best hand."""
    s = report.settlement
    main = s.shares.get("main", {})
    if len(s.pots) != 1 or len(main) != 1 or len(report.shown) < 2:
        return None
    (winner,) = main
    if not _index(events, lambda e: isinstance(e, Award)):
        return None
    kept = [e for e in events if not isinstance(e, Muck | Award | Rake)]
    killed = [*kept[:-1], Muck(seq=0, ts_ms=0, seat=winner), kept[-1]]
    # ``complete`` pushes the pot to the best hand left; the killed winner is the error.
    redone = complete(_renumber(killed))
    return redone, Expected(
        hand=report.hand,
        kind="mucked_winner",
        rule="R-MUCK-7",
        family="mucked_winner",
        seats=(winner,),
    )


def short_award(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """One pot is pushed one chip short."""
    pushes = _index(events, lambda e: isinstance(e, Award) and e.amount > 0)
    if not pushes:
        return None
    i = rng.choice(pushes)
    award = events[i]
    assert isinstance(award, Award)
    events[i] = replace(award, amount=award.amount - 1)
    return events, Expected(
        hand=report.hand,
        kind="short_award",
        rule="R-POT-5",
        family="chip_miscount",
        seats=(award.seat,),
    )


def rake_over_cap(
    events: list[Event], report: HandReport, _rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The dealer takes more rake than the cap allows and pays the winner that much less."""
    s = report.settlement
    table = events[0]
    assert isinstance(table, TableConfig)
    if s.rake != table.rake_cap:
        return None
    rakes = _index(events, lambda e: isinstance(e, Rake))
    pushes = _index(events, lambda e: isinstance(e, Award))
    if not rakes or not pushes:
        return None
    extra = max(1, table.bb // 2)
    biggest = max(pushes, key=lambda i: events[i].amount)  # type: ignore[attr-defined]
    award = events[biggest]
    assert isinstance(award, Award)
    if award.amount < extra:
        return None
    events[biggest] = replace(award, amount=award.amount - extra)
    rake = events[rakes[0]]
    assert isinstance(rake, Rake)
    events[rakes[0]] = replace(rake, amount=rake.amount + extra)
    return events, Expected(
        hand=report.hand,
        kind="rake_over_cap",
        rule="R-RAKE-1",
        family="chip_miscount",
        seats=(award.seat,),
    )


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
    loser = rng.choice(sorted(losers))
    for i, event in enumerate(events):
        if isinstance(event, Award) and event.seat == winner:
            events[i] = replace(event, seat=loser)
    return events, Expected(
        hand=report.hand,
        kind="wrong_winner",
        rule="R-SHOW-2",
        family="mucked_winner",
        seats=(loser, winner),
    )


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
        or (isinstance(events[block_end], CardSeen) and events[block_end].to == "board")  # type: ignore[attr-defined]
    ):
        block_end += 1
    block = events[burn_at:block_end]
    action = events[action_at]
    assert isinstance(action, Action)
    reordered = [*events[:action_at], *block, action, *events[action_at + 1 : burn_at]]
    reordered += events[block_end:]
    return reordered, Expected(
        hand=report.hand,
        kind="premature",
        rule=rules[board_size],
        family="other:premature card",
        seats=(action.seat,),
    )


def _recomplete(events: Sequence[Event]) -> list[Event]:
    """Kill the losers and push the pots again, for a hand whose cards were changed."""
    kept = [e for e in events if not isinstance(e, Muck | Award | Rake)]
    return complete(_renumber(kept))


def duplicate_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """The shoe deals a board card that is already in a player's hand (a second deck mixed in)."""
    holes = [e.card for e in events if isinstance(e, ShoeDraw)][: 2 * len(report.starting_stacks)]
    boards = _index(
        events,
        lambda e: isinstance(e, CardSeen) and e.to == "board",
    )
    if not holes or not boards:
        return None
    i = rng.choice(boards)
    board = events[i]
    draw = events[i - 1]
    assert isinstance(board, CardSeen)
    if not isinstance(draw, ShoeDraw):
        return None
    twin = rng.choice(holes)
    events[i - 1] = replace(draw, card=twin)
    events[i] = replace(board, card=twin)
    return _recomplete(events), Expected(
        hand=report.hand, kind="duplicate", rule="R-DECK-3", family="other:deck integrity"
    )


def switched_card(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """A player tables a card the shoe never dealt him (a card switched in)."""
    shows = _index(events, lambda e: isinstance(e, Show))
    used = {e.card for e in events if isinstance(e, ShoeDraw)}
    spare = [card for card in DECK if card not in used]
    if not shows or not spare:
        return None
    i = rng.choice(shows)
    show = events[i]
    assert isinstance(show, Show)
    cards = list(show.cards)
    cards[rng.randrange(len(cards))] = rng.choice(spare)
    events[i] = replace(show, cards=tuple(cards))
    return _recomplete(events), Expected(
        hand=report.hand,
        kind="switched_card",
        rule="R-DECK-12",
        family="other:deck integrity",
        seats=(show.seat,),
    )


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
    session = TableSession(RuleSet([]))
    for event in events[: i + 1]:
        session.feed(event)
    hand = session.hand
    if hand is None or action.seat in hand.all_in:
        return None
    grown = hand.stacks[action.seat] + rng.choice((25, 100, 500))
    events.insert(i + 1, StackCount(seq=0, ts_ms=0, seat=action.seat, amount=grown))
    return events, Expected(
        hand=report.hand,
        kind="stack_grew",
        rule="R-BET-23",
        family="chip_miscount",
        seats=(action.seat,),
    )


MUTATIONS: dict[str, Mutation] = {
    "stack_grew": stack_grew,
    "duplicate": duplicate_card,
    "switched_card": switched_card,
    "exposed": exposed_hole_card,
    "boxed": boxed_card,
    "mucked_winner": mucked_winner,
    "short_award": short_award,
    "rake_over_cap": rake_over_cap,
    "wrong_winner": wrong_winner,
    "premature": premature_card,
}


def mutate(events: Sequence[Event], rng: random.Random) -> tuple[list[Event], Expected] | None:
    """One irregularity, chosen among those this hand allows."""
    clean = complete(events)
    report = play(clean)
    kinds = list(MUTATIONS)
    rng.shuffle(kinds)
    for kind in kinds:
        done = MUTATIONS[kind](list(clean), report, rng)
        if done is not None:
            mutated, expected = done
            return _renumber(mutated), expected
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    expected: int
    found: int
    false_alerts: tuple[Alert, ...]
    missed: tuple[Expected, ...]

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0


def score(expected: Sequence[Expected], alerts: Sequence[Alert]) -> Score:
    """Each expected alert must be raised in its hand with its rule and family; every other
    alert is a false alert."""
    wanted = {(e.hand, e.rule, e.family): e for e in expected}
    hit: set[tuple[str, str, str]] = set()
    false_alerts = []
    for alert in alerts:
        key = (alert.hand, alert.rule, alert.family)
        if key in wanted:
            hit.add(key)
        else:
            false_alerts.append(alert)
    missed = tuple(e for key, e in wanted.items() if key not in hit)
    return Score(
        expected=len(wanted), found=len(hit), false_alerts=tuple(false_alerts), missed=missed
    )


def rename_hand(events: Sequence[Event], hand: str) -> list[Event]:
    """The hand named ``hand``, at a table of that name (hands from different files are not
    consecutive deals of one table)."""
    renamed: list[Event] = []
    for event in events:
        if isinstance(event, HandStart | HandEnd):
            event = replace(event, hand=hand)
        elif isinstance(event, TableConfig):
            event = replace(event, table=hand)
        renamed.append(event)
    return renamed


def renumber_from(events: Sequence[Event], first_seq: int) -> list[Event]:
    return [replace(e, seq=first_seq + i) for i, e in enumerate(events)]
