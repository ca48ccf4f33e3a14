"""The ``feltwatch`` command line.

Exit codes: 0 done; 1 done, but some input was wrong (each problem printed on stderr) or, for
``phh replay``, a hand was not reproduced; 2 usage error or a file that cannot be read; 74 an
output the disk would not take (full or read-only: one line says which).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from engine import codec, phh
from engine.errors import InputError
from engine.events import Event, HandStart
from engine.phh_replay import replay_files
from engine.report import alert_line, hand_summary
from engine.session import check
from feltwatch.appliance.exits import EXIT_BAD_INPUT, EXIT_CANNOT_WRITE, EXIT_OK, EXIT_UNUSABLE
from feltwatch.cli.central import add_central_parser
from feltwatch.cli.common import naming
from feltwatch.cli.config import add_config_parser
from feltwatch.cli.devices import add_serial_parser, add_sim_parser
from feltwatch.cli.gen import add_gen_parser
from feltwatch.cli.mutated import check_mutated, write_mutated
from feltwatch.cli.run import add_run_parsers
from feltwatch.cli.users import add_users_parser
from feltwatch.cli.vision import add_vision_parsers
from feltwatch.cli.watch import add_watch_parser

WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EROFS, errno.EFBIG, errno.EDQUOT, errno.EIO})


def _print_errors(errors: Sequence[InputError]) -> None:
    for error in errors:
        print(f"error: {error}", file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        result = check(codec.read_file(path), str(path))
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNUSABLE
    _print_errors(result.errors)
    if args.json:
        for alert in result.alerts:
            print(json.dumps(alert.to_json(), separators=(",", ":")))
    else:
        for report in result.hands:
            print("\n".join(hand_summary(report)))
        print(
            f"{len(result.hands)} hands, {len(result.alerts)} alerts, "
            f"{len(result.errors)} input errors"
        )
    return EXIT_BAD_INPUT if result.errors else EXIT_OK


def _existing(names: Sequence[str]) -> list[Path] | None:
    """The paths named, or None (after saying which are missing) when any is missing."""
    paths = [Path(name) for name in names]
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"error: no such file or folder: {', '.join(map(str, missing))}", file=sys.stderr)
        return None
    return paths


def _phh_files(names: Sequence[str]) -> list[Path] | None:
    """The ``.phh`` files named and under the folders named, or None (after saying why) when a
    name is missing or no file is found."""
    paths = _existing(names)
    if paths is None:
        return None
    files = list(phh.iter_phh_files(paths))
    if not files:
        print(f"error: no .phh file in {', '.join(map(str, paths))}", file=sys.stderr)
        return None
    return files


def cmd_phh_replay(args: argparse.Namespace) -> int:
    files = _phh_files(args.paths)
    if files is None:
        return EXIT_UNUSABLE
    summary = replay_files(files)
    for outcome in summary.outcomes:
        if args.json:
            print(json.dumps(outcome.to_json(), separators=(",", ":")))
        elif outcome.problem:
            print(f"{outcome.path}: {outcome.problem}")
        for alert in outcome.alerts if not args.json else ():
            print(f"{outcome.path}: {alert_line(alert)}")
    unchecked = summary.hands - summary.checked
    note = f" ({unchecked} without finishing_stacks, not checked)" if unchecked else ""
    line = f"{summary.hands} hands, {summary.reproduced} reproduced{note}"
    print(line, file=sys.stderr if args.json else sys.stdout)
    return EXIT_BAD_INPUT if summary.failed else EXIT_OK


def cmd_phh_export(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        items = list(codec.read_file(path))
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNUSABLE
    errors = [item for _, item in items if isinstance(item, InputError)]
    _print_errors(errors)
    events = [item for _, item in items if not isinstance(item, InputError)]
    histories = []
    failed = False
    for config, hand_events in phh.split_hands(events):
        try:
            histories.append(phh.from_events(config, hand_events))
        except (phh.PhhError, ValueError) as exc:
            start = hand_events[0]
            hand = start.hand if isinstance(start, HandStart) else "?"
            print(f"error: {path}: hand {hand} cannot be written as PHH: {exc}", file=sys.stderr)
            failed = True
    text = phh.dump_histories(histories)
    if args.output:
        with naming(args.output):
            Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_BAD_INPUT if errors or failed else EXIT_OK


def cmd_rules_list(args: argparse.Namespace) -> int:
    from feltwatch.cli.rules_doc import markdown, plain

    sys.stdout.write(markdown() if args.markdown else plain() + "\n")
    return EXIT_OK


def cmd_phh_mutate(args: argparse.Namespace) -> int:
    import random

    from engine import mutate

    files = _phh_files(args.paths)
    if files is None:
        return EXIT_UNUSABLE
    rng = random.Random(args.seed)
    out = Path(args.out)
    events: list[Event] = []
    expected: list[mutate.Expected] = []
    skipped = 0
    for path in files:
        try:
            hand = phh.to_events(phh.load(path), path=str(path))
        except phh.PhhError as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            skipped += 1
            continue
        name = path.with_suffix("").as_posix()
        done = mutate.mutate(mutate.rename_hand(hand.events, name), rng)
        if done is None:
            skipped += 1
            continue
        mutated, wanted = done
        events += mutate.renumber_from(mutated, len(events) + 1)
        expected.append(wanted)
    write_mutated(out, events, expected)
    kinds = Counter(e.kind for e in expected)
    print(
        f"{len(expected)} hands mutated ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})"
        f", {skipped} skipped -> {out / 'mutated.jsonl'}, {out / 'expected.jsonl'}"
    )
    if args.check:
        return check_mutated(out)
    return EXIT_OK


def cmd_eventlog(args: argparse.Namespace) -> int:
    from feltwatch.cli.eventlog_doc import markdown

    sys.stdout.write(markdown())
    return EXIT_OK


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("feltwatch")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="feltwatch", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"feltwatch {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("check", help="validate a table event log (JSONL) and print alerts")
    p.add_argument("file", metavar="FILE.jsonl")
    p.add_argument("--json", action="store_true", help="print alerts as JSON, one per line")
    p.set_defaults(run=cmd_check)
    p = commands.add_parser(
        "eventlog", help="the event log's reference: every field, its type and unit (markdown)"
    )
    p.set_defaults(run=cmd_eventlog)

    hh = commands.add_parser("phh", help="PHH hand histories").add_subparsers(
        dest="phh_command", required=True, metavar="SUBCOMMAND"
    )
    p = hh.add_parser("replay", help="replay PHH hands and compare payouts with the file")
    p.add_argument("paths", nargs="+", metavar="PATH", help=".phh files or folders")
    p.add_argument("--json", action="store_true", help="one JSON result per hand")
    p.set_defaults(run=cmd_phh_replay)
    p = hh.add_parser("mutate", help="inject one irregularity into each PHH hand")
    p.add_argument("paths", nargs="+", metavar="PATH", help=".phh files or folders")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--out", default="mutated", help="output folder (default ./mutated)")
    p.add_argument(
        "--check", action="store_true", help="then check the mutated log and print the recall"
    )
    p.set_defaults(run=cmd_phh_mutate)
    p = hh.add_parser("export", help="write each hand of an event log as PHH")
    p.add_argument("file", metavar="FILE.jsonl")
    p.add_argument("-o", "--output", help="write here instead of standard output")
    p.set_defaults(run=cmd_phh_export)
    add_gen_parser(commands)
    add_sim_parser(commands)
    add_serial_parser(commands)
    add_vision_parsers(commands)
    add_watch_parser(commands)
    add_run_parsers(commands)
    add_config_parser(commands)
    add_users_parser(commands)
    add_central_parser(commands)
    rules = commands.add_parser("rules", help="the rules catalogue").add_subparsers(
        dest="rules_command", required=True, metavar="SUBCOMMAND"
    )
    p = rules.add_parser("list", help="every catalogue rule with its status")
    p.add_argument("--markdown", action="store_true", help="the coverage table, docs/rules.md")
    p.set_defaults(run=cmd_rules_list)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, not at exit: a full disk is said in one line
        return code
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # an output the disk would not take, a file a command did not expect
        where = exc.filename if exc.filename is not None else "standard output"
        print(f"error: {where}: {exc.strerror or exc}", file=sys.stderr)
        _discard_stdout()
        return EXIT_CANNOT_WRITE if exc.errno in WRITE_ERRNOS else EXIT_UNUSABLE


def _discard_stdout() -> None:
    """What is left in standard output's buffer goes nowhere (the interpreter would try it again
    at exit and print a traceback)."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
