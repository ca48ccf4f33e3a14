"""Two `models.eval` reports side by side: every figure before and after, as a Markdown table.

    .venv/bin/python -m models.eval_compare BEFORE.json AFTER.json

BEFORE and AFTER are what `models.eval --json` writes (`build/recipe/models/eval.json` after a
recipe run, `models/recipe-run.json`'s `eval` once installed). Timings are left out: they
measure the machine, not the networks.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

TIMING = "seconds"
"""A key holding this names a timing (``seconds_per_frame``), left out."""


@dataclass(frozen=True)
class FigureChange:
    """One figure of the reports: its dotted name and its value in each (None: absent)."""

    name: str
    before: int | float | None
    after: int | float | None

    @property
    def change(self) -> int | float | None:
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


class ReportError(ValueError):
    """A report that cannot be read: the message names the file and what is wrong."""


def figures(report: object, prefix: str = "") -> dict[str, int | float]:
    """Every number in a report by its dotted name (counts stay int), timings left out."""
    found: dict[str, int | float] = {}
    if not isinstance(report, dict):
        return found
    for key, value in report.items():
        if TIMING in key:
            continue
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(figures(value, f"{name}."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            found[name] = value
    return found


def compare(before: object, after: object) -> list[FigureChange]:
    """The figures of both reports, in the after report's order, then those only before had."""
    old, new = figures(before), figures(after)
    names = list(new) + [name for name in old if name not in new]
    return [FigureChange(name, old.get(name), new.get(name)) for name in names]


def _cell(value: int | float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:+d}" if signed else f"{value:d}"
    return f"{value:+.4f}" if signed else f"{value:.4f}"


def table(changes: list[FigureChange]) -> str:
    rows = ["| figure | before | after | change |", "| --- | --- | --- | --- |"]
    for item in changes:
        rows.append(
            f"| {item.name} | {_cell(item.before)} | {_cell(item.after)} "
            f"| {_cell(item.change, signed=True)} |"
        )
    return "\n".join(rows)


def read_report(path: Path) -> object:
    """The report in PATH; a `models/recipe-run.json` gives its `eval`."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{path}: not a JSON report: {exc}") from exc
    if isinstance(report, dict) and isinstance(report.get("eval"), dict):
        report = report["eval"]
    if not isinstance(report, dict) or not figures(report):
        raise ReportError(f"{path}: holds no figures of a models.eval report")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    try:
        before, after = read_report(args.before), read_report(args.after)
    except ReportError as exc:
        print(f"eval_compare: {exc}", file=sys.stderr)
        return 2
    print(table(compare(before, after)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
