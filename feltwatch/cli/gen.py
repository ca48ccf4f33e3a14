"""``feltwatch gen clean``: event logs of clean hands dealt in every legal order
(``engine.clean_hands``), with the count of each ordering they took; ``feltwatch gen
irregular``: the same hands with one irregularity each (``engine.mutate``) and their score."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

from engine import codec
from engine.clean_hands import RandomChooser, clean_hands
from engine.events import Event
from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE


def cmd_gen_clean(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("error: --hands must be at least 1", file=sys.stderr)
        return EXIT_UNUSABLE
    dealt = clean_hands(RandomChooser(random.Random(args.seed)), args.hands)
    text = codec.dump_events(dealt.events)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return EXIT_UNUSABLE
    else:
        sys.stdout.write(text)
    report = sys.stderr if not args.output else sys.stdout
    print(f"{dealt.hands} clean hands, {len(dealt.events)} events (seed {args.seed})", file=report)
    for kind, count in sorted(dealt.kinds.items()):
        print(f"  {count:8d}  {kind}", file=report)
    return EXIT_OK


def add_gen_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    gen = commands.add_parser("gen", help="generate event logs").add_subparsers(
        dest="gen_command", required=True, metavar="SUBCOMMAND"
    )
    p = gen.add_parser(
        "clean",
        help="clean hands dealt in every order the rulebooks allow (they must raise no alert)",
    )
    p.add_argument("--hands", type=int, default=1000, help="how many hands (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "-o",
        "--output",
        help="write the event log here (default: standard output; the counts "
        "of each ordering then go to standard error)",
    )
    p.set_defaults(run=cmd_gen_clean)
    p = gen.add_parser(
        "irregular",
        help="generated clean hands, each with one irregularity written at a random point",
    )
    p.add_argument("--hands", type=int, default=1000, help="how many hands (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="irregular", help="output folder (default ./irregular)")
    p.add_argument(
        "--check", action="store_true", help="then check them and print recall and precision"
    )
    p.set_defaults(run=cmd_gen_irregular)


def cmd_gen_irregular(args: argparse.Namespace) -> int:
    from engine import mutate, phh
    from feltwatch.cli.mutated import check_mutated, write_mutated

    if args.hands < 1:
        print("error: --hands must be at least 1", file=sys.stderr)
        return EXIT_UNUSABLE
    rng = random.Random(args.seed)
    dealt = clean_hands(RandomChooser(rng), args.hands)
    events: list[Event] = []
    expected: list[mutate.Expected] = []
    for number, (config, hand) in enumerate(phh.split_hands(dealt.events)):
        named = mutate.rename_hand([config, *hand], f"g{args.seed}-{number + 1}")
        done = mutate.mutate(named, rng, as_dealt=True)
        if done is not None:
            mutated, wanted = done
            events += mutate.renumber_from(mutated, len(events) + 1)
            expected.append(wanted)
    out = Path(args.out)
    try:
        write_mutated(out, events, expected)
    except OSError as exc:
        print(f"error: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNUSABLE
    kinds = Counter(e.kind for e in expected)
    print(f"{len(expected)} of {dealt.hands} generated hands mutated -> {out}")
    for kind, count in sorted(kinds.items()):
        print(f"  {count:8d}  {kind}")
    return check_mutated(out) if args.check else EXIT_OK
