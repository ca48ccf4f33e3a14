"""Irregularities injected at random points of real and generated hands are all found, and
nothing else is: every kind, every family."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import mutate, phh
from engine.alerts import Alert
from engine.clean_hands import RandomChooser, clean_hands
from engine.events import Event
from engine.session import TableSession
from tests.eventlog import SHARED

REAL = sorted(phh.iter_phh_files([SHARED / "data" / "phh"]))


def _events(path: Path) -> list[Event]:
    hand = phh.to_events(phh.load(path), path=str(path))
    return mutate.rename_hand(hand.events, path.with_suffix("").name)


def _generated(count: int, seed: int) -> Iterator[list[Event]]:
    dealt = clean_hands(RandomChooser(random.Random(seed)), count)
    for number, (config, events) in enumerate(phh.split_hands(dealt.events)):
        yield mutate.rename_hand([config, *events], f"g{number}")


def _alerts(events: list[Event]) -> tuple[Alert, ...]:
    session = TableSession()
    report = None
    for event in events:
        report = session.feed(event) or report
    assert report is not None
    return report.alerts


def test_the_completed_real_hands_raise_no_alert() -> None:
    for path in REAL:
        report = mutate.play(mutate.complete(_events(path)))
        assert report.alerts == (), path
        assert report.observed_awards == dict(report.settlement.awards)


def _injected(
    hands: list[tuple[list[Event], bool]], rng: random.Random, kinds: list[str] | None = None
) -> mutate.Score:
    expected: list[mutate.Expected] = []
    alerts: list[Alert] = []
    for number, (events, as_dealt) in enumerate(hands):
        done = mutate.mutate(
            mutate.rename_hand(events, f"h{number}"), rng, as_dealt=as_dealt, kinds=kinds
        )
        if done is None:
            continue
        mutated, wanted = done
        expected.append(wanted)
        alerts.extend(_alerts(mutated))
    return mutate.score(expected, alerts)


@pytest.mark.parametrize("seed", [11, 12])
def test_every_irregularity_injected_into_real_and_generated_hands_is_found_and_nothing_else(
    seed: int,
) -> None:
    hands = [(_events(path), False) for path in REAL]
    hands += [(events, True) for events in _generated(300, seed)]
    score = _injected(hands, random.Random(seed))
    assert score.expected > 450
    assert score.missed == ()
    assert score.false_alerts == ()
    for family in score.by_family():
        assert (family.recall, family.precision) == (1.0, 1.0), family


def test_every_kind_lands_somewhere_and_is_found() -> None:
    real = [(_events(path), False) for path in REAL[::5]]
    generated = [(events, True) for events in _generated(200, 31)]
    landed: Counter[str] = Counter()
    rng = random.Random(7)
    for kind in mutate.MUTATIONS:
        score = _injected(real + generated, rng, [kind])
        assert score.missed == () and score.false_alerts == (), kind
        landed[kind] = score.expected
    assert [kind for kind, count in landed.items() if count == 0] == []
