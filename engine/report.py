"""Human-readable text for hand reports and alerts (what ``feltwatch check`` prints)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.alerts import Alert
from engine.hand import HandReport
from engine.mutate import Score


def alert_line(alert: Alert) -> str:
    seat = f" seat {alert.seat}" if alert.seat is not None else ""
    unverified = f" (UNVERIFIED: {alert.unverified})" if alert.unverified else ""
    return (
        f"ALERT {alert.severity.upper():8} {alert.rule:10} {alert.family}{seat} "
        f"[hand {alert.hand}, seq {alert.seq}]: {alert.message}{unverified}"
    )


def _seats(amounts: Mapping[int, int]) -> str:
    return ", ".join(f"seat {seat} {amount}" for seat, amount in sorted(amounts.items())) or "-"


def hand_summary(report: HandReport) -> list[str]:
    s = report.settlement
    state = "" if report.complete else " (no hand_end)"
    if report.cut:
        state += f" (incomplete, not judged: {report.cut})"
    lines = [f"hand {report.hand} at {report.table}{state}"]
    if report.board:
        lines.append(f"  board    {' '.join(report.board)}")
    for seat, cards in sorted(report.shown.items()):
        lines.append(f"  shown    seat {seat}: {' '.join(cards)}")
    pots = []
    for pot in s.pots:
        winners = s.shares.get(pot.name)
        to = _seats(winners) if winners else f"undecided: {s.undecided.get(pot.name, '?')}"
        eligible = ",".join(str(seat) for seat in pot.eligible)
        pots.append(f"{pot.name} {pot.amount} (seats {eligible}) -> {to}")
    lines.append("  pots     " + ("\n           ".join(pots) if pots else "-"))
    if s.returned:
        lines.append(f"  returned {_seats(s.returned)} (uncalled)")
    rake = f"  rake     computed {s.rake}"
    if report.observed_rake is not None:
        rake += f", taken {report.observed_rake}"
    lines.append(rake)
    lines.append(f"  awards   computed {_seats(s.awards)}")
    if report.observed_awards is not None:
        lines.append(f"           observed {_seats(report.observed_awards)}")
    else:
        lines.append("           observed: no award events in the log")
    lines.extend("  " + alert_line(alert) for alert in report.alerts)
    return lines


def score_lines(score: Score, hands: int) -> list[str]:
    """The injected irregularities against the alerts raised: in all and by alert family."""
    lines = [
        f"recall {score.found}/{score.expected} = {score.recall:.1%}, "
        f"false alerts {len(score.false_alerts)} in {hands} hands",
        f"  {'family':32} {'injected':>8} {'caught':>7} {'missed':>7} {'false':>6} "
        f"{'precision':>9} {'recall':>7}",
    ]
    for f in score.by_family():
        lines.append(
            f"  {f.family:32} {f.injected:8d} {f.caught:7d} {f.injected - f.caught:7d} "
            f"{f.false_alerts:6d} {f.precision:9.1%} {f.recall:7.1%}"
        )
    lines += [f"missed: {m.hand} {m.kind} {m.rule}" for m in score.missed]
    lines += [f"false: {alert_line(alert)}" for alert in score.false_alerts]
    return lines
