"""The demo table with the real models: the committed ONNX detector and identity classifier
read every frame of the seeded 12-hand session at 1080p (rendered once, to Motion-JPEG as
``feltwatch demo --prerender`` plays it), the shoe's reads are put on the session's timeline,
and the appliance's engine core judges the hands. Exactly the injected irregularities raise
alerts, each with its family, hand and seat, and the clean hands raise none.

Frame by frame, not live: the live demo drops a frame when a core is busy, so two live runs
see slightly different things; this path is the same every run (``bench/demo_alerts.py``
prints the same figures, and ``bench/e2e.py`` measures the live demo). The frames a live camera
drops are simulated by a clock of costs (``BusyCore``), so that too is the same every run. The
slowest tests: the render takes about 10 minutes on one core (it uses every core:
``feltwatch.demo.prerender``), the worker about 8 on every frame and 7 on the frames a busy core
reads (the two readings run side by side, one in a process of its own).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from engine.alerts import Alert
from feltwatch.demo.frames import BUSY_CORE, Observed, alerts_of, observed_by_models
from feltwatch.demo.prerender import prerender
from models.synth.session import DemoSession

SEED = 7
HANDS = 12


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoSession, Path]]:
    session = DemoSession(seed=SEED, hands=HANDS)
    path = prerender(session, tmp_path_factory.mktemp("session"))
    yield session, path
    path.unlink()  # 2 GB


@pytest.fixture(scope="module")
def observed(video: tuple[DemoSession, Path]) -> tuple[Observed, Observed]:
    """The worker on every frame, and on the frames a busy core reads (in another process, at
    the same time: spawned, as this one holds onnxruntime's and OpenCV's threads)."""
    session, path = video
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        busy = pool.submit(observed_by_models, session, path, BUSY_CORE)
        every = observed_by_models(session, path)
        return every, busy.result()


def check(session: DemoSession, alerts: list[Alert]) -> None:
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


def test_the_models_raise_exactly_the_injected_irregularities(
    video: tuple[DemoSession, Path], observed: tuple[Observed, Observed]
) -> None:
    session, _ = video
    every, _ = observed
    assert every.dropped == 0
    check(session, alerts_of(session, every.observations))


def test_a_camera_dropping_frames_raises_exactly_the_injected_irregularities(
    video: tuple[DemoSession, Path], observed: tuple[Observed, Observed]
) -> None:
    """The frames a camera process short of CPU reads: some dropped, most while hands move
    (the detector reads more tiles then), the same frames every run."""
    session, _ = video
    _, busy = observed
    assert busy.dropped >= 0.02 * busy.frames
    check(session, alerts_of(session, busy.observations))
