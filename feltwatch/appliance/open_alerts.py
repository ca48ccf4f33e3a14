"""The table's open alerts and the light they call for: red while a critical alert is open, amber
while a warning is, green only when none is; blue double blinks, unless a critical alert is open,
while the appliance cannot record (``FAULT``).

An alert opens when the engine raises it (a note, severity info, does not light anything). An
acknowledgement on a dashboard closes that alert; the dealer's button on the light closes every
alert open at the table (the dashboard records them as acknowledged by the dealer). The light's
file (``<table>.light.jsonl``) records each of these in order, so a restarted engine finds the
alerts still open there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from engine.alerts import Severity

Look = tuple[str, str]
"""The light's colour and pattern."""

LOOKS: dict[Severity, Look] = {
    Severity.CRITICAL: ("red", "fast"),
    Severity.WARNING: ("amber", "slow"),
}
NORMAL: Look = ("green", "steady")
FAULT: Look = ("blue", "double")
"""The appliance cannot record (a disk it writes is full or failing): it still judges, what it
writes waits in memory; shown unless a critical alert is open (the dealer calls the floor)."""

CAUSE_ALERT = "alert"
CAUSE_DASHBOARD = "dashboard"
CAUSE_BUTTON = "light button"
CAUSE_FAULT = "fault"


class OpenAlerts:
    """Alert id -> severity of the alerts not yet acknowledged (not thread-safe: the caller
    holds its lock)."""

    def __init__(self) -> None:
        self._open: dict[str, Severity] = {}

    def __len__(self) -> int:
        return len(self._open)

    def raised(self, alert_id: str, severity: Severity) -> bool:
        """The alert opens; False for a note (nothing to light)."""
        if severity not in LOOKS:
            return False
        self._open[alert_id] = severity
        return True

    def acknowledged(self, alert_id: str) -> None:
        self._open.pop(alert_id, None)

    def button(self) -> None:
        """The dealer pressed the light's button: every alert of the table is acknowledged."""
        self._open.clear()

    @property
    def look(self) -> Look:
        for severity in (Severity.CRITICAL, Severity.WARNING):
            if severity in self._open.values():
                return LOOKS[severity]
        return NORMAL

    def look_with(self, fault: bool) -> Look:
        """The look while the appliance is (``fault``) or is not in a fault."""
        look = self.look
        if fault and look != LOOKS[Severity.CRITICAL]:
            return FAULT
        return look

    def replay(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Follow the light file's rows, in order."""
        for row in rows:
            cause, alert_id = row.get("cause"), row.get("alert")
            if cause == CAUSE_BUTTON:
                self.button()
            elif cause == CAUSE_DASHBOARD and isinstance(alert_id, str):
                self.acknowledged(alert_id)
            elif cause == CAUSE_ALERT and isinstance(alert_id, str):
                try:
                    self.raised(alert_id, Severity(str(row.get("severity"))))
                except ValueError:
                    continue

    @classmethod
    def from_file(cls, path: Path) -> OpenAlerts:
        """The alerts a light file leaves open (its unreadable lines are passed over)."""
        found = cls()
        if not path.exists():
            return found
        rows: list[Mapping[str, Any]] = []
        with path.open("rb") as file:
            for line in file:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if isinstance(row, dict):
                    rows.append(row)
        found.replay(rows)
        return found
