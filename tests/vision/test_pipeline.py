"""From a hand's event log to the table (rendered), through the observer (fed the renderer's
ground truth) and the shoe's reads, through the fusion, back to an event log the rules judge:
the clean hand comes back as it was and raises nothing; a short push and an exposed hole card
come back as the alerts they are."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.events import Action, ActionKind, Award, Blind, Event, Muck, Show
from engine.fusion import Fusion
from engine.inputs import CardDrawn
from engine.mutate import exposed_hole_card, play, short_award
from engine.session import check
from engine.simulate import demo_table, simulate_hand
from models.synth.from_log import script_for_hand
from models.synth.truth import sightings
from models.synth.video import Deal, HandVideo, Layout
from vision.observer import Observer
from vision.zones import ZoneMap

TABLE = demo_table()
LAYOUT = Layout(seats=TABLE.seats, frame=(640, 360))  # ground truth: any size will do


def a_hand(seed: int) -> list[Event]:
    stacks = {seat: 3000 for seat in range(1, TABLE.seats + 1)}
    return simulate_hand(TABLE, hand="1", button=1, stacks=stacks, rng=random.Random(seed))


def replay(events: list[Event]) -> list[Event]:
    """The hand played on the rendered table and seen again."""
    steps, start, draws = script_for_hand(events[1:])
    video = HandVideo(LAYOUT, steps, seed=3, start=start)
    observer = Observer("overhead", ZoneMap.from_config(LAYOUT.zone_config()).zone_of)
    fusion = Fusion(TABLE, button=1)
    out: list[Event] = []
    step, shoe_seq = -1, 0
    for frame in video.frames():
        if frame.step != step:  # the shoe reads a card as the dealer draws it
            step = frame.step
            if isinstance(steps[step], Deal) and step in draws:
                shoe_seq += 1
                out += fusion.feed(
                    CardDrawn(
                        ts_ns=frame.ts_ns,
                        device="shoe",
                        card=draws[step],
                        tag_id=shoe_seq,
                        shoe_seq=shoe_seq,
                        deck_id=1,
                    )
                )
        if frame.index % 3 == 0:
            for observation in observer.update(sightings(frame.objects), frame.ts_ns):
                out += fusion.feed(observation)
    return out


def story(events: list[Event]) -> list[tuple[object, ...]]:
    """Blinds, actions (a fold is the seat's muck), shows, mucks and awards, in order."""
    out: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, Action) and e.action is ActionKind.FOLD:
            e = Muck(seq=e.seq, ts_ms=e.ts_ms, seat=e.seat)
        if isinstance(e, Blind | Award):
            out.append((type(e).__name__, e.seat, e.amount))
        elif isinstance(e, Action):
            out.append(("Action", e.seat, e.action.value, e.to))
        elif isinstance(e, Show | Muck):
            out.append((type(e).__name__, e.seat))
    return out


def alerts(events: list[Event]) -> list[tuple[str, int | None]]:
    result = check(((e.seq, e) for e in events), "replayed")
    assert not result.errors
    return sorted({(a.family, a.seat) for a in result.alerts}, key=str)


def test_a_clean_hand_comes_back_as_it_was_and_raises_nothing() -> None:
    hand = a_hand(2)
    seen = replay(hand)
    assert story(seen) == story(hand)
    assert alerts(seen) == []


def test_a_short_push_and_an_exposed_hole_card_come_back_as_their_alerts() -> None:
    hand = a_hand(4)
    rng = random.Random(1)
    mutated = short_award(list(hand), play(hand), rng)
    assert mutated is not None
    short, expected = mutated
    assert ("chip_miscount", expected.seats[0]) in alerts(replay(short))
    mutated = exposed_hole_card(list(hand), play(hand), rng)
    assert mutated is not None
    exposed, expected = mutated
    found = alerts(replay([replace(e, seq=i + 1) for i, e in enumerate(exposed)]))
    assert ("exposed_card", expected.seats[0]) in found
