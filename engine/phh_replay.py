"""Replay PHH hands through the engine and compare its payouts with the file's finishing stacks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from engine.alerts import Alert
from engine.errors import EventError
from engine.hand import HandReport, RuleHooks
from engine.phh import PhhError, PhhHand, load_all, to_events
from engine.session import play_hand


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayOutcome:
    path: str
    hand: str
    checked: bool
    """The file has finishing stacks to compare with."""
    reproduced: bool
    problem: str
    """The first difference, or why the hand could not be replayed; empty when reproduced."""
    alerts: tuple[Alert, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "hand": self.hand,
            "checked": self.checked,
            "reproduced": self.reproduced,
            "problem": self.problem,
            "alerts": [alert.to_json() for alert in self.alerts],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaySummary:
    outcomes: tuple[ReplayOutcome, ...]

    @property
    def hands(self) -> int:
        return len(self.outcomes)

    @property
    def checked(self) -> int:
        return sum(o.checked for o in self.outcomes)

    @property
    def reproduced(self) -> int:
        return sum(o.reproduced for o in self.outcomes)

    @property
    def failed(self) -> int:
        return sum(o.checked and not o.reproduced for o in self.outcomes)


def run_hand(hand: PhhHand, rules: RuleHooks | None = None) -> HandReport:
    """Play the hand through a table session (all rules unless ``rules`` says otherwise)."""
    return play_hand(hand.events, rules)


def first_difference(hand: PhhHand, report: HandReport) -> str:
    expected = hand.finishing_stacks or {}
    computed = report.settlement.finishing_stacks
    if computed is None:
        why = "; ".join(f"{pot}: {reason}" for pot, reason in report.settlement.undecided.items())
        return f"payout undecided ({why})"
    unit = hand.units_per_chip
    for position, seat in enumerate(sorted(expected, key=list(expected).index), start=1):
        if computed.get(seat) != expected[seat]:
            return (
                f"p{position} (seat {seat}) finishes with {computed.get(seat, 0) / unit:g}, "
                f"the file says {expected[seat] / unit:g}"
            )
    return ""


def replay_hand(hand: PhhHand) -> ReplayOutcome:
    try:
        report = run_hand(hand)
    except EventError as exc:
        return ReplayOutcome(
            path=hand.path,
            hand=hand.hand,
            checked=hand.finishing_stacks is not None,
            reproduced=False,
            problem=f"engine rejected the hand: {exc}",
            alerts=(),
        )
    problem = first_difference(hand, report) if hand.finishing_stacks is not None else ""
    return ReplayOutcome(
        path=hand.path,
        hand=hand.hand,
        checked=hand.finishing_stacks is not None,
        reproduced=hand.finishing_stacks is not None and not problem,
        problem=problem,
        alerts=report.alerts,
    )


def replay_files(paths: Iterable[Path]) -> ReplaySummary:
    """Every hand of the files (``.phh``: one, ``.phhs``: each section)."""
    outcomes = []
    for path in paths:
        try:
            histories = load_all(path)
        except PhhError as exc:
            outcomes.append(_unread(str(path), path.stem, str(exc)))
            continue
        for number, history in enumerate(histories, start=1):
            where = str(path) if len(histories) == 1 else f"{path} [{number}]"
            try:
                hand = to_events(history, path=str(path))
            except PhhError as exc:
                outcomes.append(_unread(where, path.stem, str(exc)))
                continue
            outcomes.append(replay_hand(replace(hand, path=where)))
    return ReplaySummary(outcomes=tuple(outcomes))


def _unread(where: str, hand: str, why: str) -> ReplayOutcome:
    return ReplayOutcome(
        path=where, hand=hand, checked=True, reproduced=False, problem=why, alerts=()
    )
