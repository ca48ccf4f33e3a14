"""False alerts on clean hands: 100,000 hands dealt in every legal order (``engine.clean_hands``)
checked with every implemented rule. Prints how often each ordering came up, the alerts by rule
(every one is a false alert: the target is none), and hands per second of the check with every
rule on against the bare hand engine (no rule) on the same hands in the same run.

    .venv/bin/python bench/clean_hands.py [--hands N] [--seed S] [--chunk C]

Exit status 1 when any alert was raised.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from engine import codec  # noqa: E402
from engine.clean_hands import RandomChooser, clean_hands  # noqa: E402
from engine.rules.registry import RuleSet  # noqa: E402
from engine.session import check  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=5000, help="hands generated at a time")
    args = parser.parse_args()
    kinds: Counter[str] = Counter()
    alerts: Counter[str] = Counter()
    examples: dict[str, str] = {}
    hands = errors = 0
    ruled_s = bare_s = 0.0
    for start in range(0, args.hands, args.chunk):
        count = min(args.chunk, args.hands - start)
        rng = random.Random(f"{args.seed}:{start}")
        dealt = clean_hands(RandomChooser(rng), count, prefix=f"s{start}-")
        kinds.update(dealt.kinds)
        text = codec.dump_events(dealt.events)
        items = list(codec.iter_lines("clean.jsonl", io.StringIO(text)))
        began = time.perf_counter()
        result = check(items, "clean.jsonl")
        ruled_s += time.perf_counter() - began
        began = time.perf_counter()
        check(items, "clean.jsonl", RuleSet([]))
        bare_s += time.perf_counter() - began
        hands += len(result.hands)
        errors += len(result.errors)
        for alert in result.alerts:
            alerts[alert.rule] += 1
            examples.setdefault(alert.rule, f"hand {alert.hand} seq {alert.seq}: {alert.message}")
    print(f"{hands} clean hands (seed {args.seed}), {errors} input errors")
    print("orderings:")
    for kind, count in sorted(kinds.items()):
        print(f"  {count:8d}  {kind}")
    total = sum(alerts.values())
    print(f"false alerts: {total} ({100 * total / max(hands, 1):.3f} per 100 hands)")
    for rule, count in alerts.most_common():
        print(f"  {count:8d}  {rule}  e.g. {examples[rule][:160]}")
    ruled, bare = hands / ruled_s, hands / bare_s
    print(
        f"check: {ruled:,.0f} hands/s with every rule, {bare:,.0f} hands/s bare hand engine "
        f"(ratio {ruled / bare:.2f})"
    )
    return 1 if total or errors else 0


if __name__ == "__main__":
    sys.exit(main())
