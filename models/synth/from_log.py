"""A hand of the table event log (v1) played out on the rendered table: the script of steps
(``models.synth.video``) a dealer would go through, and the shoe reads it implies.

    steps, start, draws = script_for_hand(events)
    video = HandVideo(Layout(seats=table.seats), steps, start=start)

``draws`` maps the index of each ``Deal`` step to the card the shoe reads for it (its
``shoe_draw``), so a simulated shoe can report it when the step begins. Blinds and bets are
slid from the seat's stack to its bet zone, bets are gathered into the pot before each street
(an uncalled bet's excess goes back to its stack first),
folds and mucks carry the seat's cards to the muck, shows turn them up, awards push chips from
the pot to the seat's stack, the rake goes to the tray, and the table is cleared at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import (
    Action,
    ActionKind,
    Ante,
    Award,
    Blind,
    CardSeen,
    Event,
    HandEnd,
    HandStart,
    Muck,
    Rake,
    ShoeDraw,
    Show,
)
from models.synth.video import Amount, Clear, Deal, Move, Pause, Step, Turn, in_chips

DECK = [r + s for s in "cdhs" for r in "23456789TJQKA"]


def script_for_hand(
    events: Sequence[Event],
) -> tuple[list[Step], dict[str, dict[int, int]], dict[int, str]]:
    """Steps, the chips on the table before the first step, and the shoe read of each deal."""
    steps: list[Step] = []
    draws: dict[int, str] = {}
    start: dict[str, dict[int, int]] = {}
    bets: dict[int, int] = {}
    stacks: dict[int, int] = {}
    holes: dict[int, list[str]] = {}
    face_up: set[str] = set()
    pending: list[str] = []
    used = {e.card for e in events if isinstance(e, ShoeDraw)}
    spare = [c for c in DECK if c not in used]

    def gather() -> None:
        if any(bets.values()):
            steps.append(Pause(0.5))  # the last bet comes to rest before the dealer gathers
        ordered = sorted(bets.items(), key=lambda item: -item[1])
        if ordered:  # the top bet above the next one is uncalled: it goes back to its seat
            top_seat, top = ordered[0]
            excess = top - (ordered[1][1] if len(ordered) > 1 else 0)
            if excess > 0:
                steps.append(Amount(f"bet:{top_seat}", f"stack:{top_seat}", excess))
                bets[top_seat] -= excess
                stacks[top_seat] = stacks.get(top_seat, 0) + excess
        if any(bets.values()):
            for seat, amount in sorted(bets.items()):
                if amount:
                    steps.append(Amount(f"bet:{seat}", "pot", amount))
            steps.append(Pause(0.5))  # the pot squared before anything else happens
        bets.clear()

    def put(seat: int, to: int) -> None:
        extra = min(to - bets.get(seat, 0), stacks.get(seat, 0))
        if extra > 0:
            steps.append(Amount(f"stack:{seat}", f"bet:{seat}", extra))
            bets[seat] = bets.get(seat, 0) + extra
            stacks[seat] -= extra

    def to_muck(seat: int) -> None:
        for card in holes.pop(seat, []):
            steps.append(Move(card, "muck", "down"))

    for event in events:
        if isinstance(event, HandStart):
            start = {f"stack:{s}": in_chips(a) for s, a in event.stacks.items() if a > 0}
            stacks = dict(event.stacks)
        elif isinstance(event, Blind | Ante):
            put(event.seat, bets.get(event.seat, 0) + event.amount)
        elif isinstance(event, ShoeDraw):
            pending.append(event.card)
        elif isinstance(event, CardSeen) and event.to == "shoe":
            if event.card is not None:  # a boxed card: found face up, set aside by the shoe
                steps.append(Deal(event.card, "shoe", "up"))
        elif isinstance(event, CardSeen):
            card = pending.pop(0) if pending else (event.card or spare.pop())
            face = event.face.value
            if face == "up":
                face_up.add(card)
            if event.to == "board" and bets:
                gather()
            seat = event.to_seat
            if seat is not None:
                holes.setdefault(seat, []).append(card)
            if event.to in ("board", "burn", "off_table") or seat is not None:
                draws[len(steps)] = card
                zone = "muck" if event.to == "off_table" else event.to
                steps.append(Deal(card, zone, face))
        elif isinstance(event, Action):
            if event.action is ActionKind.FOLD:
                to_muck(event.seat)
            elif event.action is ActionKind.CHECK:
                steps.append(Pause(0.3))
            elif event.to is not None:
                put(event.seat, event.to)
            elif event.action is ActionKind.CALL:
                put(event.seat, max(bets.values(), default=0))
            else:  # all in, or a bet of the whole stack
                put(event.seat, bets.get(event.seat, 0) + stacks.get(event.seat, 0))
        elif isinstance(event, Show):
            gather()
            turned = [card for card in holes.get(event.seat, []) if card not in face_up]
            for card in turned:
                face_up.add(card)
                steps.append(Turn(card))
            if turned:
                steps.append(Pause(1.0))  # the dealer reads the tabled hand before going on
        elif isinstance(event, Muck):
            to_muck(event.seat)
        elif isinstance(event, Award):
            gather()
            steps.append(Amount("pot", f"stack:{event.seat}", event.amount))
        elif isinstance(event, Rake):
            gather()
            steps.append(Amount("pot", "tray", event.amount))
        elif isinstance(event, HandEnd):
            steps += [Pause(0.5), Clear(), Pause(3.0)]
    return steps, start, draws
