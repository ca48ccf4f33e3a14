"""Fuzz every reader of outside input for as long as asked: inputs tried, refused (the reader's
own message or exit code), tracebacks and runs over 10 s, per reader (``tests/fuzzing.py``).
The peer, in the same run: the unmutated seed inputs, each of which a reader must take.

    .venv/bin/python bench/fuzz.py [--inputs 100000] [--seed 1] [--reader SUBSTRING]

Exit status 1 when any reader gave a traceback or took over 10 s on an input.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzzing import SLOW_S, readers, run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="per reader")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reader", default="", help="only readers whose name holds this")
    args = parser.parse_args()
    failed = False
    print(f"{'reader':34} {'tried':>8} {'refused':>8} {'tracebacks':>10} {'over 10 s':>9} "
          f"{'inputs/s':>9}")  # fmt: skip
    rng = random.Random(args.seed)
    for reader in readers():
        if args.reader not in reader.name:
            continue
        seeds = run(reader.name, reader.feed, iter(reader.seeds))
        tally = run(reader.name, reader.feed, reader.fuzzed(rng, args.inputs))
        rate = tally.tried / max(tally.seconds, 1e-9)
        print(f"{reader.name:34} {tally.tried:8d} {tally.refused:8d} {len(tally.tracebacks):10d} "
              f"{len(tally.slow):9d} {rate:9.0f}   seeds taken {seeds.tried - seeds.refused}"
              f" of {seeds.tried}", flush=True)  # fmt: skip
        for line in tally.tracebacks[:5] + tally.slow[:5] + seeds.tracebacks[:5]:
            print(f"    {line}")
        failed = failed or bool(tally.tracebacks or tally.slow or seeds.tracebacks or seeds.refused)
    print(f"(slow: over {SLOW_S:.0f} s for one input)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
