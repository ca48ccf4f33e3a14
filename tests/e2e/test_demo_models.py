"""The demo table with the real models: the committed ONNX detector and identity classifier
read every frame of the seeded 12-hand session at 1080p (rendered once, to Motion-JPEG as
``feltwatch demo --prerender`` plays it), the shoe's reads are put on the session's timeline,
and the appliance's engine core judges the hands. Exactly the injected irregularities raise
alerts, each with its family, hand and seat, and the clean hands raise none.

Frame by frame, not live: the live demo drops a frame when a core is busy, so two live runs
see slightly different things; this path is the same every run (``bench/demo_alerts.py``
prints the same figures, and ``bench/e2e.py`` measures the live demo). The slowest test: the
render takes about 10 minutes on one core and the worker about 8.
"""

from __future__ import annotations

import pytest

from engine.alerts import Alert
from feltwatch.demo_cli import prerender
from feltwatch.demo_frames import alerts_of, observed_by_models
from models.synth.session import DemoSession

SEED = 7
HANDS = 12


@pytest.fixture(scope="module")
def session_alerts(tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoSession, list[Alert]]:
    session = DemoSession(seed=SEED, hands=HANDS)
    video = prerender(session, tmp_path_factory.mktemp("session"))
    observations = observed_by_models(session, video)
    video.unlink()  # 2 GB
    return session, alerts_of(session, observations)


def test_the_models_raise_exactly_the_injected_irregularities(session_alerts) -> None:  # type: ignore[no-untyped-def]
    session, alerts = session_alerts
    by_hand: dict[str, list[Alert]] = {}
    for alert in alerts:
        by_hand.setdefault(alert.hand, []).append(alert)
    expected = session.expected
    assert {e.family for e in expected} == {
        "exposed_card",
        "boxed_card",
        "mucked_winner",
        "chip_miscount",
    }
    assert set(by_hand) == {e.hand for e in expected}, "a clean hand raised an alert: " + "; ".join(
        f"hand {a.hand} {a.rule} seat {a.seat}" for a in alerts
    )
    for e in expected:
        raised = by_hand[e.hand]
        assert {a.family for a in raised} == {e.family}, raised
        assert e.rule in {a.rule for a in raised}
        for seat in e.seats:
            assert seat in {a.seat for a in raised}
