"""Any sequence of well-formed events: the engine never crashes and never creates chips."""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK
from engine.errors import EventError
from engine.events import (
    Action,
    ActionKind,
    Award,
    Blind,
    CardSeen,
    Event,
    Face,
    Game,
    HandEnd,
    HandStart,
    Muck,
    Show,
    TableConfig,
)
from engine.session import TableSession


class _At(TypedDict):
    seq: int
    ts_ms: int


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[Event], dict[int, int]]:
    game = draw(st.sampled_from(list(Game)))
    seats = draw(st.lists(st.integers(1, 9), min_size=2, max_size=6, unique=True))
    stacks = {seat: draw(st.integers(1, 2_000)) for seat in seats}
    seq = iter(range(1, 10_000))

    def at() -> _At:
        n = next(seq)
        return {"seq": n, "ts_ms": n}

    events: list[Event] = [
        TableConfig(
            **at(),
            table="T",
            game=game,
            seats=9,
            sb=5,
            bb=10,
            rake_pct=Decimal(draw(st.sampled_from([0, 5]))),
            rake_cap=draw(st.integers(0, 30)),
        ),
        HandStart(**at(), hand="h", button=draw(st.integers(1, 9)), stacks=stacks),
        Blind(**at(), seat=seats[0], amount=5),
        Blind(**at(), seat=seats[1], amount=10),
    ]
    cards = iter(draw(st.permutations(DECK)))
    pick = st.sampled_from(seats)
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["action"] * 6 + ["board", "show", "muck", "award"]))
        if kind == "action":
            action = draw(st.sampled_from(list(ActionKind)))
            to = draw(st.none() | st.integers(0, 2_500))
            if action in (ActionKind.BET, ActionKind.RAISE) and to is None:
                to = 20
            events.append(Action(**at(), seat=draw(pick), action=action, to=to))
        elif kind == "board":
            events.append(CardSeen(**at(), to="board", face=Face.UP, card=next(cards)))
        elif kind == "show":
            shown = tuple(next(cards) for _ in range(game.hole_card_count))
            events.append(Show(**at(), seat=draw(pick), cards=shown))
        elif kind == "muck":
            events.append(Muck(**at(), seat=draw(pick)))
        else:
            events.append(Award(**at(), seat=draw(pick), amount=draw(st.integers(0, 3_000))))
    if draw(st.booleans()):
        events.append(HandEnd(**at(), hand="h"))
    return events, stacks


@settings(max_examples=300)
@given(hands())
def test_no_sequence_crashes_the_engine_or_creates_chips(
    case: tuple[list[Event], dict[int, int]],
) -> None:
    events, stacks = case
    session = TableSession()
    reports = []
    for event in events:
        try:
            report = session.feed(event)
        except EventError:
            continue
        if report is not None:
            reports.append(report)
    last = session.close()
    reports += [last] if last is not None else []
    assert len(reports) == 1
    settlement = reports[0].settlement
    if settlement.finishing_stacks is not None:
        assert sum(settlement.finishing_stacks.values()) + settlement.rake == sum(stacks.values())
    for alert in reports[0].alerts:
        assert alert.rule.startswith("R-") and alert.message
