"""Human-readable text for hand reports and alerts (what ``feltwatch check`` prints)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.alerts import Alert
from engine.hand import HandReport


def alert_line(alert: Alert) -> str:
    seat = f" seat {alert.seat}" if alert.seat is not None else ""
    return (
        f"ALERT {alert.severity.upper():8} {alert.rule:10} {alert.family}{seat} "
        f"[hand {alert.hand}, seq {alert.seq}]: {alert.message}"
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
