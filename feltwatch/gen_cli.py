"""``feltwatch gen clean``: event logs of clean hands dealt in every legal order
(``engine.clean_hands``), with the count of each ordering they took."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from engine import codec
from engine.clean_hands import RandomChooser, clean_hands

EXIT_OK, EXIT_USAGE = 0, 2


def cmd_gen_clean(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("error: --hands must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    dealt = clean_hands(RandomChooser(random.Random(args.seed)), args.hands)
    text = codec.dump_events(dealt.events)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return EXIT_USAGE
    else:
        sys.stdout.write(text)
    report = sys.stderr if not args.output else sys.stdout
    print(f"{dealt.hands} clean hands, {len(dealt.events)} events (seed {args.seed})", file=report)
    for kind, count in sorted(dealt.kinds.items()):
        print(f"  {count:8d}  {kind}", file=report)
    return EXIT_OK


def add_gen_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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
