"""The live pipeline's alerts on demo sessions nobody tuned to: injected, caught, missed and
false alerts per 100 hands, by alert family, for the models against the renderer's ground
truth (the peer, the same sessions in the same run).

Each seed is a 12-hand demo session (``models.synth.session``: irregularities of every family
the cameras see, at hands and seats the seed picks), read frame by frame as
``bench/demo_alerts.py`` reads it: the vision worker on every rendered frame (``--vision
models``: each session is rendered once into ``--dir``, about 10 minutes a session on one core)
or the observer fed the renderer's own sightings (``--vision truth``), the shoe's reads on the
session's timeline, and the appliance's engine core (fusion, hand engine, rules).

The seeds are a held-out block (``HELD_OUT``): never looked at while developing; fixes are made
on other seeds and checked here. Targets: with the ground truth exactly the injected alerts;
with the models at least 97 % caught and at most 1 false alert per 100 hands.

    .venv/bin/python bench/alerts.py [--seeds 9000-9019] [--hands 12] [--vision truth,models]
        [--dir build/bench-alerts] [--jobs N] [--render-only]

``--render-only`` renders the sessions the models read (into ``--dir``, kept for later runs;
at low priority, so it can go on beside other work) and reads nothing.

Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine.alerts import Alert  # noqa: E402
from engine.mutate import Expected  # noqa: E402

HELD_OUT = range(9000, 9020)
"""Seeds never used while developing."""
RECALL_TARGET = 0.97
FALSE_PER_100_TARGET = 1.0


@dataclass(slots=True)
class Tally:
    hands: int = 0
    injected: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    false: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.hands += other.hands
        self.injected.update(other.injected)
        self.caught.update(other.caught)
        self.false.update(other.false)
        self.seconds += other.seconds
        self.examples += other.examples


def score(seed: int, hands: int, expected: tuple[Expected, ...], alerts: list[Alert]) -> Tally:
    """Each injected irregularity is caught by an alert of its rule in its hand; every other
    alert is false (counted in its own family)."""
    tally = Tally(hands=hands)
    wanted = {(e.hand, e.rule): e for e in expected}
    hit = set()
    for alert in alerts:
        key = (alert.hand, alert.rule)
        if key in wanted:
            hit.add(key)
        else:
            tally.false[alert.family] += 1
            tally.examples.append(f"seed {seed} hand {alert.hand}: {alert.rule} {alert.message}")
    for key, e in wanted.items():
        tally.injected[e.family] += 1
        if key in hit:
            tally.caught[e.family] += 1
        else:
            tally.examples.append(f"seed {seed} hand {e.hand}: missed {e.kind} ({e.rule})")
    return tally


def run_seed(seed: int, hands: int, vision: str, folder: Path) -> Tally:
    from feltwatch.demo.frames import alerts_of, observed_by_models, observed_truth
    from models.synth.session import DemoSession

    session = DemoSession(seed=seed, hands=hands)
    if vision == "models":
        from feltwatch.demo.prerender import prerender

        path = folder / f"seed-{seed}"
        path.mkdir(parents=True, exist_ok=True)
        video = prerender(session, path)  # once per seed and hands: not counted
        started = time.monotonic()
        observations = observed_by_models(session, video).observations
    else:
        started = time.monotonic()
        observations = observed_truth(session)
    alerts = alerts_of(session, observations)
    tally = score(seed, hands, session.expected, alerts)
    tally.seconds = time.monotonic() - started
    return tally


def render(seeds: range, hands: int, folder: Path, jobs: int) -> None:
    from feltwatch.demo.prerender import prerender
    from models.synth.session import DemoSession

    os.nice(19)  # the renderers inherit it
    for seed in seeds:
        path = folder / f"seed-{seed}"
        path.mkdir(parents=True, exist_ok=True)
        prerender(DemoSession(seed=seed, hands=hands), path, jobs=jobs)


def report(vision: str, tally: Tally) -> bool:
    families = sorted(set(tally.injected) | set(tally.false))
    print(f"\n{vision}: {tally.hands} hands, {tally.seconds:.0f} s of reading and judging")
    print(f"  {'family':32} {'injected':>8} {'caught':>7} {'missed':>7} {'false/100 hands':>16}")
    for family in families:
        injected, caught = tally.injected[family], tally.caught[family]
        false = 100 * tally.false[family] / max(tally.hands, 1)
        print(f"  {family:32} {injected:8d} {caught:7d} {injected - caught:7d} {false:16.2f}")
    injected, caught = sum(tally.injected.values()), sum(tally.caught.values())
    false = 100 * sum(tally.false.values()) / max(tally.hands, 1)
    recall = caught / injected if injected else 1.0
    print(f"  {'all':32} {injected:8d} {caught:7d} {injected - caught:7d} {false:16.2f}")
    for line in tally.examples[:20]:
        print(f"    {line[:200]}")
    if vision == "truth":
        return recall == 1.0 and false == 0
    return recall >= RECALL_TARGET and false <= FALSE_PER_100_TARGET


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    first, last = HELD_OUT[0], HELD_OUT[-1]
    parser.add_argument("--seeds", default=f"{first}-{last}", help="a range A-B, both included")
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--vision", default="truth,models", help="truth, models or both")
    parser.add_argument("--dir", type=Path, default=Path("build/bench-alerts"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--render-only", action="store_true")
    args = parser.parse_args()
    low, _, high = args.seeds.partition("-")
    seeds = range(int(low), int(high or low) + 1)
    if args.render_only:
        render(seeds, args.hands, args.dir, args.jobs)
        return 0
    passed = True
    for vision in args.vision.split(","):
        tally = Tally()
        with ProcessPoolExecutor(args.jobs) as pool:
            jobs = [pool.submit(run_seed, s, args.hands, vision, args.dir) for s in seeds]
            for job in jobs:
                tally.add(job.result())
        passed = report(vision, tally) and passed
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
