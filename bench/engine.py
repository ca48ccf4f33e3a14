"""Hands per second: our engine vs pokerkit's own ``State`` on the same real PHH hands.

Both sides start from hands already read from disk (pokerkit's ``HandHistory``) and play every
hand to its payouts. Ours is measured bare (the hand engine), with every implemented rule on, and
with the conversion from PHH to the event log in front. Target: the hand engine at least 10 times
faster than pokerkit; the rate with every rule on is reported beside it.

    .venv/bin/python bench/engine.py [PHH_DIR] [--seconds S]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# This file is named like the package it measures: import the package, not this script.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine import codec, mutate, phh  # noqa: E402
from engine.events import Event  # noqa: E402
from engine.phh_replay import first_difference, run_hand  # noqa: E402
from engine.rules.registry import RULES, RuleSet  # noqa: E402
from engine.session import check  # noqa: E402

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh"


def rate(label: str, hands: int, work: Callable[[], None], seconds: float) -> float:
    """Run ``work`` (one pass over all hands) until ``seconds`` have passed; best pass wins."""
    best = float("inf")
    spent = 0.0
    passes = 0
    while spent < seconds or passes < 3:
        start = time.perf_counter()
        work()
        took = time.perf_counter() - start
        best = min(best, took)
        spent += took
        passes += 1
    per_s = hands / best
    print(f"{label:44} {per_s:12,.0f} hands/s  ({passes} passes, best {best * 1000:.1f} ms)")
    return per_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("phh_dir", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--check-hands", type=int, default=10_000, help="hands for the check run")
    args = parser.parse_args()

    histories = []
    for path in phh.iter_phh_files([args.phh_dir]):
        hh = phh.load(path)
        if hh.finishing_stacks is not None:
            histories.append((path, hh))
    converted = [phh.to_events(hh, path=str(path)) for path, hh in histories]
    for hand in converted:  # same work on both sides: every hand must come out right
        problem = first_difference(hand, run_hand(hand))
        assert not problem, f"{hand.path}: {problem}"
    n = len(histories)
    import engine.hand

    build = "compiled with mypyc" if engine.hand.__file__.endswith(".so") else "plain Python"
    print(f"{n} real hands with finishing stacks from {args.phh_dir}; engine: {build}")

    no_rules = RuleSet([])
    all_rules = RuleSet()

    def engine_core() -> None:
        for hand in converted:
            run_hand(hand, no_rules)

    def ours() -> None:
        for hand in converted:
            run_hand(hand, all_rules)

    def ours_with_conversion() -> None:
        for path, hh in histories:
            run_hand(phh.to_events(hh, path=str(path)))

    def pokerkit_state() -> None:
        for _, hh in histories:
            for state in hh:  # noqa: B007 - the last state holds the payouts
                pass
            assert not state.status

    core_rate = rate("feltwatch hand engine, no rules", n, engine_core, args.seconds)
    engine_rate = rate(f"feltwatch engine + all {len(RULES)} rules", n, ours, args.seconds)
    full_rate = rate("feltwatch PHH conversion + engine", n, ours_with_conversion, args.seconds)
    peer_rate = rate("pokerkit State (HandHistory -> payouts)", n, pokerkit_state, args.seconds)
    print(f"ratio engine, no rules / pokerkit:     {core_rate / peer_rate:6.1f}x  (target >= 10x)")
    print(f"ratio engine, all rules / pokerkit:    {engine_rate / peer_rate:6.1f}x")
    print(f"ratio conversion+engine / pokerkit:    {full_rate / peer_rate:6.1f}x")

    # `feltwatch check` on a 10,000-hand event log: read + parse + engine + every rule.
    events: list[Event] = []
    for i in range(args.check_hands):
        hand = converted[i % n]
        done = mutate.complete(mutate.rename_hand(hand.events, f"{i}:{hand.hand}"))
        events += mutate.renumber_from(done, len(events) + 1)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "hands.jsonl"
        log.write_text(codec.dump_events(events), encoding="utf-8")
        size_mb = log.stat().st_size / 1e6
        start = time.perf_counter()
        result = check(codec.read_file(log), str(log))
        took = time.perf_counter() - start
    assert not result.errors and not result.alerts and len(result.hands) == args.check_hands
    check_rate = args.check_hands / took
    print(
        f"feltwatch check, {args.check_hands:,} hands ({size_mb:.0f} MB)  "
        f"{check_rate:12,.0f} hands/s  ({took:.1f} s, 0 alerts)"
    )
    print(f"ratio check / pokerkit:                {check_rate / peer_rate:6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
