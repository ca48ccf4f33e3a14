"""The demo's alerts with the models reading every frame: how far the real vision is from
raising exactly the injected irregularities, measured the same way every time.

The live demo reads the frames as they come and drops some when a core is busy, so two runs see
slightly different things. This reads every frame of the rendered session (rendered once into
``--dir``) with the vision worker, adds the shoe's reads on the session's timeline, and feeds the
appliance's engine core (fusion, hand engine, rules) in time order; then the frames a camera
process short of CPU reads (``BUSY_CORE``, or ``--busy FRAME_MS,TILE_MS``: the frames it drops
follow from those costs, the same every run); in the same run the peer: the
observer fed the renderer's ground truth. It prints each run's alerts by hand against the
injected ones.

    .venv/bin/python bench/demo_alerts.py [--hands 12] [--seed 7] [--dir build/bench-e2e]
        [--busy FRAME_MS,TILE_MS]

About 40 frames a second on one core (12 hands: 16,000 frames).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine.alerts import Alert  # noqa: E402
from engine.observations import Observation  # noqa: E402
from feltwatch.demo.frames import (  # noqa: E402
    BUSY_CORE,
    BusyCore,
    alerts_of,
    observed_by_models,
    observed_truth,
)
from models.synth.session import DemoSession  # noqa: E402


def report(name: str, session: DemoSession, alerts: list[Alert], seconds: float) -> None:
    injected = {e.hand: e for e in session.expected}
    by_hand: dict[str, list[Alert]] = {}
    for alert in alerts:
        by_hand.setdefault(alert.hand, []).append(alert)
    caught = [h for h, e in injected.items() if any(a.rule == e.rule for a in by_hand.get(h, []))]
    false = [a for a in alerts if a.hand not in injected or a.rule != injected[a.hand].rule]
    print(
        f"{name}: {len(alerts)} alerts in {seconds:.0f} s; injected caught {len(caught)} of "
        f"{len(injected)} (hands {', '.join(caught) or '-'}); other alerts {len(false)}: "
        + ", ".join(f"{rule} {n}" for rule, n in Counter(a.rule for a in false).most_common())
    )
    for hand in sorted(by_hand, key=int):
        rules = Counter(f"{a.rule} seat {a.seat}" for a in by_hand[hand])
        mark = f" (injected: {injected[hand].rule})" if hand in injected else ""
        print(f"    hand {hand}{mark}: " + "; ".join(f"{r} x{n}" for r, n in rules.items()))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=Path("build/bench-e2e"))
    parser.add_argument(
        "--busy",
        default=f"{BUSY_CORE.frame_ms:g},{BUSY_CORE.tile_ms:g}",
        help="a busy core's costs: ms a frame, ms a tile read",
    )
    args = parser.parse_args()
    frame_ms, tile_ms = (float(v) for v in args.busy.split(","))
    core = BusyCore(frame_ms=frame_ms, tile_ms=tile_ms)
    from feltwatch.demo.prerender import prerender

    session = DemoSession(seed=args.seed, hands=args.hands)
    args.dir.mkdir(parents=True, exist_ok=True)
    video = prerender(session, args.dir)  # once per seed and hands: not counted
    for name, observe in (
        ("models (every frame)", lambda: observed_by_models(session, video).observations),
        ("models (a busy core)", lambda: busy(session, video, core)),
        ("ground truth (the peer)", lambda: observed_truth(session)),
    ):
        started = time.monotonic()
        alerts = alerts_of(session, observe())
        report(name, session, alerts, time.monotonic() - started)


def busy(session: DemoSession, video: Path, core: BusyCore) -> list[Observation]:
    observed = observed_by_models(session, video, core)
    print(f"a busy core: {observed.dropped} of {observed.frames} frames dropped")
    return observed.observations


if __name__ == "__main__":
    main()
