"""The demo end to end, as ``make demo`` runs it: ``feltwatch demo`` in its own process, with its
engine and camera processes, the shoe, tray and light simulators on ptys, the journal on disk.

The renderer's ground truth stands in for the detector here (``--vision truth``): these tests
judge the appliance (devices, fusion, engine, journal, restarts), not the models' accuracy,
which ``make eval`` measures. The table plays at 4x real time."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.inputs import CardDrawn
from engine.mutate import Expected
from feltwatch.appliance.journal import BadLine, read
from models.synth.session import DemoSession
from tests.e2e.demo_process import kill_at_random, truth_demo

SEED = 7
HANDS = 12
KILL_EVERY_S = 7.0
"""The mean time between kills (up to three in a three-hand run, at moments drawn afresh each
run; ``bench/crash.py`` does 100)."""


def run_demo(folder: Path, hands: int, *, kills: int = 0) -> str:
    """Run the demo; with ``kills``, SIGKILL its engine that many times at random moments (the
    supervisor restarts it). Returns the demo's console output."""
    with truth_demo(folder, hands, SEED) as demo:
        if kills:
            done = len(kill_at_random(demo, folder, random.Random(), KILL_EVERY_S, kills))
            assert done >= 2, f"the demo ended after {done} of {kills} kills"
        demo.wait(timeout=600)
    log = (folder / "console.log").read_text()
    assert demo.returncode == 0, log[-3000:]
    return log


def alerts(folder: Path) -> list[dict[str, object]]:
    path = folder / "journal" / "demo.alerts.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def written(row: dict[str, object]) -> dict[str, object]:
    """An alert as the engine judged it (without when it was told)."""
    return {
        k: v
        for k, v in row.items()
        if k not in ("input_ts_ns", "received_ns", "light_ns", "replayed", "wall")
    }


def judged(rows: list[dict[str, object]]) -> set[tuple[object, ...]]:
    return {(r["hand"], r["rule"], r["family"], r["seat"]) for r in rows}


CleanRun = tuple[Path, str, list[dict[str, object]]]
"""The uninterrupted demo: its folder, its console output, the rows of its alerts."""


@pytest.fixture(scope="module")
def clean_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> CleanRun:
    folder = tmp_path_factory.mktemp("demo") / "uninterrupted"
    output = run_demo(folder, HANDS)
    return folder, output, alerts(folder)


def test_exactly_the_injected_irregularities_raise_alerts(clean_run: CleanRun) -> None:
    _folder, output, rows = clean_run
    expected: tuple[Expected, ...] = DemoSession(seed=SEED, hands=HANDS).expected
    assert {e.family for e in expected} == {
        "exposed_card",
        "boxed_card",
        "mucked_winner",
        "chip_miscount",
    }
    by_hand: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by_hand.setdefault(str(row["hand"]), []).append(row)
    assert set(by_hand) == {e.hand for e in expected}, "a clean hand raised an alert"
    for e in expected:
        raised = by_hand[e.hand]
        assert {r["family"] for r in raised} == {e.family}
        assert e.rule in {r["rule"] for r in raised}
        for seat in e.seats:
            assert seat in {r["seat"] for r in raised}
    for number in range(1, HANDS + 1):
        assert f"hand {number} closed" in output
    # The light shows the worst alert still open; nobody acknowledges in the demo.
    looks = re.findall(r"light: (red fast|amber slow|green steady)", output)
    worst = "red fast" if any(r["severity"] == "critical" for r in rows) else "amber slow"
    assert looks[0] == "green steady" and looks[-1] == worst
    assert "green steady" not in looks[1:]


def test_a_replayed_journal_gives_the_same_events_and_alerts(
    clean_run: CleanRun, tmp_path: Path
) -> None:
    folder, _, rows = clean_run
    events = tmp_path / "events.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "feltwatch",
            "replay",
            str(folder / "journal" / "demo.jsonl"),
            "--json",
            "--events",
            str(events),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert events.read_bytes() == (folder / "journal" / "demo.events.jsonl").read_bytes()
    replayed = [json.loads(line) for line in done.stdout.splitlines()]
    assert [written(r) for r in replayed] == [written(r) for r in rows]


def test_the_engine_killed_at_random_moments_restarts_and_the_hands_end_as_without_it(
    clean_run: CleanRun, tmp_path: Path
) -> None:
    _, _, clean_rows = clean_run
    folder = tmp_path / "crashed"
    output = run_demo(folder, 3, kills=3)
    assert "engine killed by signal 9; restarting" in output
    health = (folder / "journal" / "demo.health.jsonl").read_text()
    assert "engine killed by signal 9" in health  # kept for the dashboard
    assert "replayed" in output  # the restarted engine rebuilt the open hand from the journal
    crashed = alerts(folder)
    first_three = [r for r in clean_rows if str(r["hand"]) in ("1", "2", "3")]
    assert judged(crashed) == judged(first_three)
    # Nothing written is lost: every shoe read of the three hands is in the journal, and the
    # journal replays to exactly the events the appliance wrote, across the crash.
    items = list(read(folder / "journal" / "demo.jsonl"))
    assert not [i for i in items if isinstance(i, BadLine)]
    reads = sorted({i.shoe_seq for i in items if isinstance(i, CardDrawn)})
    session = DemoSession(seed=SEED, hands=3)
    assert len(reads) == sum(len(h.draws) for h in session.hands)
    assert reads == list(range(1, len(reads) + 1))
    events = tmp_path / "events.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "feltwatch",
            "replay",
            str(folder / "journal" / "demo.jsonl"),
            "--events",
            str(events),
        ],
        capture_output=True,
        check=True,
    )
    assert events.read_bytes() == (folder / "journal" / "demo.events.jsonl").read_bytes()
    seqs = [json.loads(line)["seq"] for line in events.read_text().splitlines()]
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_dashboard_stored_every_alert_and_hand(clean_run: CleanRun) -> None:
    """The dashboard process followed the engine's files: every alert (by id), every hand with
    what the engine computed, the devices' health and the light, all in its store."""
    folder, _output, rows = clean_run
    db = sqlite3.connect(folder / "dashboard.sqlite3")
    stored = {r[0]: r[1:] for r in db.execute("SELECT id, hand, rule, family, seat FROM alerts")}
    assert stored == {r["id"]: (r["hand"], r["rule"], r["family"], r["seat"]) for r in rows}
    hands = db.execute("SELECT hand, complete, summary IS NOT NULL FROM hands").fetchall()
    assert sorted(hands, key=lambda h: int(h[0])) == [(str(n), 1, 1) for n in range(1, HANDS + 1)]
    health = dict(db.execute("SELECT source, status FROM health").fetchall())
    assert {"shoe", "tray", "light", "camera:overhead"} <= set(health)
    (light,) = db.execute("SELECT light FROM poker_tables WHERE name = 'demo'").fetchone()
    assert light in ("amber slow", "red fast", "green steady")
