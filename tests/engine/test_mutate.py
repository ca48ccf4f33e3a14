"""Irregularities injected into the real hands are all found, and nothing else is."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import mutate, phh
from engine.session import TableSession
from tests.eventlog import SHARED

REAL = sorted(phh.iter_phh_files([SHARED / "data" / "phh"]))


def _events(path: Path) -> list:  # type: ignore[type-arg]
    hand = phh.to_events(phh.load(path), path=str(path))
    return mutate.rename_hand(hand.events, path.with_suffix("").name)


def test_the_completed_real_hands_raise_no_alert() -> None:
    for path in REAL:
        report = mutate.play(mutate.complete(_events(path)))
        assert report.alerts == (), path
        assert report.observed_awards == dict(report.settlement.awards)


@pytest.mark.parametrize("seed", [11, 12])
def test_every_injected_irregularity_is_found_and_nothing_else(seed: int) -> None:
    rng = random.Random(seed)
    expected, alerts = [], []
    for number, path in enumerate(REAL):
        done = mutate.mutate(mutate.rename_hand(_events(path), f"h{number}"), rng)
        assert done is not None, path
        events, wanted = done
        session = TableSession()
        for event in events:
            report = session.feed(event)
        assert report is not None
        expected.append(wanted)
        alerts.extend(report.alerts)
    score = mutate.score(expected, alerts)
    assert score.missed == ()
    assert score.false_alerts == ()
    assert score.recall == 1.0
    assert len({e.kind for e in expected}) == len(mutate.MUTATIONS)
