"""The files of injected irregularities (``mutated.jsonl``, the event log, and
``expected.jsonl``, the alert each must raise) and their score: ``feltwatch phh mutate`` and
``feltwatch gen irregular``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine import codec, mutate
from engine.events import Event
from engine.mutate import Expected
from engine.report import score_lines
from engine.session import check
from feltwatch.appliance.exits import EXIT_BAD_INPUT, EXIT_OK
from feltwatch.cli.common import naming


def write_mutated(out: Path, events: list[Event], expected: list[Expected]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with naming(out / "mutated.jsonl"):
        (out / "mutated.jsonl").write_text(codec.dump_events(events), encoding="utf-8")
    with naming(out / "expected.jsonl"):
        (out / "expected.jsonl").write_text(
            "".join(json.dumps(e.to_json()) + "\n" for e in expected), encoding="utf-8"
        )


def check_mutated(out: Path) -> int:
    """Check ``out/mutated.jsonl`` and score its alerts against ``out/expected.jsonl``."""
    result = check(codec.read_file(out / "mutated.jsonl"), str(out / "mutated.jsonl"))
    for error in result.errors:
        print(f"error: {error}", file=sys.stderr)
    expected = [
        mutate.Expected(
            hand=row["hand"],
            kind=row["kind"],
            rule=row["rule"],
            family=row["family"],
            seats=tuple(row["seats"]),
        )
        for row in map(json.loads, (out / "expected.jsonl").read_text("utf-8").splitlines())
    ]
    s = mutate.score(expected, result.alerts)
    print("\n".join(score_lines(s, len(result.hands))))
    return EXIT_OK if not s.missed and not s.false_alerts and not result.errors else EXIT_BAD_INPUT
