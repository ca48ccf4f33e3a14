"""The appliance's engine, without threads or clocks: engine inputs in arrival order -> fusion ->
table event log -> hand engine and rules -> alerts, as they are proved.

The same inputs in the same order give the same events and alerts: the live engine, a restart
replaying the journal, and ``feltwatch replay`` all run this.

A device or a camera may deliver an input twice (a frame resent after an acknowledgement was
lost, an observation resent after the engine restarted): the second copy is dropped here. A
shoe read is known by its deck and shoe sequence number; a camera's observations come in time
order, so one at or before the last one taken from that camera is a copy when it equals one
taken at that time (or is older).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.alerts import Alert, Severity
from engine.errors import EventError
from engine.events import Event, HandEnd, HandStart, TableConfig
from engine.fusion import Fusion
from engine.hand import HandReport
from engine.inputs import CardDrawn
from engine.observations import EngineInput, Observation, ViewDegraded
from engine.session import TableSession


@dataclass(frozen=True, slots=True, kw_only=True)
class Proved:
    """An alert and the input that completed its proof."""

    alert: Alert
    table: str
    input_ts_ns: int
    """When the source saw that input (a camera frame, a serial frame)."""


@dataclass(slots=True)
class Step:
    """What one input completed."""

    events: list[Event] = field(default_factory=list)
    alerts: list[Proved] = field(default_factory=list)
    reports: list[HandReport] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Events the engine could not apply (named; the run goes on)."""
    health: list[tuple[str, str, str]] = field(default_factory=list)
    """(source, status, message): conditions of the inputs a person should know of (a camera
    whose view is degraded: ``warning``; clear again: ``ok``)."""
    duplicate: bool = False


def _key(alert: Alert) -> tuple[object, ...]:
    return (alert.hand, alert.seq, alert.rule, alert.seat, alert.cards)


class EngineCore:
    def __init__(self, table: TableConfig, *, button: int = 1, camera: str | None = None) -> None:
        """``camera``: the camera whose observations the fusion reads (None: any); the others'
        are journalled (and recorded) but the fusion of several views is not built yet."""
        self.table = table
        self.camera = camera
        self.fusion = Fusion(table, button=button, camera=camera is not None)
        self.session = TableSession()
        self.inputs = 0
        self._draws: set[tuple[str, int, int]] = set()
        self._camera_last: dict[str, tuple[int, list[Observation]]] = {}
        self._alerts_seen = 0
        self.degraded: list[ViewDegraded] = []
        """The stretches the fusion's camera was degraded (the longest report of each)."""
        self._hand_since_ns: int | None = None
        self._as_raised: dict[tuple[object, ...], Alert] = {}
        """The open hand's alerts as they were raised (unverified or not)."""

    @property
    def open_hand(self) -> str | None:
        hand = self.session.hand
        return hand.hand if hand is not None else None

    def open_alerts(self) -> list[Alert]:
        """The alerts of the hand still open (a restarted engine announces them again)."""
        hand = self.session.hand
        return [self._as_raised.get(_key(a), a) for a in hand.alerts] if hand is not None else []

    def is_duplicate(self, item: EngineInput) -> bool:
        if isinstance(item, CardDrawn):
            key = (item.device, item.deck_id, item.shoe_seq)
            if key in self._draws:
                return True
            self._draws.add(key)
            return False
        if isinstance(item, Observation):
            last = self._camera_last.get(item.camera)
            if last is not None:
                last_ts, at_last = last
                if item.ts_ns < last_ts or (item.ts_ns == last_ts and item in at_last):
                    return True
                if item.ts_ns == last_ts:
                    at_last.append(item)
                    return False
            self._camera_last[item.camera] = (item.ts_ns, [item])
        return False

    def feed(self, item: EngineInput) -> Step:
        step = Step()
        if self.is_duplicate(item):
            step.duplicate = True
            return step
        self.inputs += 1
        if isinstance(item, Observation) and self.camera not in (None, item.camera):
            return step
        ts_ns = item.ts_ns
        if isinstance(item, ViewDegraded):
            self._degraded(item, step)
            return step
        events = self.fusion.feed(item)
        step.errors += self.fusion.refused
        self.fusion.refused.clear()
        for event in events:
            step.events.append(event)
            try:
                report = self.session.feed(event)
            except EventError as exc:
                step.errors.append(f"seq {event.seq} {event.TYPE}: {exc.field}: {exc.message}")
                continue
            hand = self.session.hand
            fired: list[Alert] = []
            if report is not None:  # a hand closed: the rules that judge at the end spoke
                fired = list(report.alerts[self._alerts_seen :])
                step.reports.append(report)
                self._alerts_seen = 0
            if hand is not None and len(hand.alerts) > self._alerts_seen:
                fired += hand.alerts[self._alerts_seen :]
                self._alerts_seen = len(hand.alerts)
            if isinstance(event, HandEnd):
                self._alerts_seen = 0
            step.alerts += [
                Proved(alert=self._judged(a, ts_ns), table=self.table.table, input_ts_ns=ts_ns)
                for a in fired
            ]
            if isinstance(event, HandStart):
                self._hand_since_ns = event.ts_ms * 1_000_000
                self._as_raised.clear()
        return step

    def _degraded(self, item: ViewDegraded, step: Step) -> None:
        if self.camera not in (None, item.camera):
            return
        source = f"vision:{item.camera}"
        last = self.degraded[-1] if self.degraded else None
        if last is not None and last.since_ns == item.since_ns:
            self.degraded[-1] = item  # the same stretch, reported longer
        else:
            self.degraded.append(item)
            step.health.append((source, "warning", f"view degraded: {item.reason}"))
        if item.ended:
            step.health.append((source, "ok", f"view clear again (it was degraded: {item.reason})"))

    def _judged(self, alert: Alert, ts_ns: int) -> Alert:
        """An alert of a hand during which the camera's view was degraded is raised unverified,
        with the reason, and never as critical: the evidence may be a card or chips unseen."""
        judged = self._as_raised[_key(alert)] = self._verified(alert, ts_ns)
        return judged

    def _verified(self, alert: Alert, ts_ns: int) -> Alert:
        since = self._hand_since_ns
        if since is None:
            return alert
        overlaps = [d for d in self.degraded if d.since_ns <= ts_ns and d.ts_ns >= since]
        if not overlaps:
            return alert
        worst = max(overlaps, key=lambda d: d.frames_dropped)
        severity = Severity.WARNING if alert.severity is Severity.CRITICAL else alert.severity
        why = f"the {worst.camera} camera's view was degraded during the hand ({worst.reason})"
        return replace(alert, severity=severity, unverified=why)
