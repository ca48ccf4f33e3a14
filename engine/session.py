"""A table's stream of events: the current configuration, the open hand, the finished hands."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.alerts import Alert
from engine.errors import EventError, InputError
from engine.events import Event, HandEnd, HandStart, TableConfig, TrayCount
from engine.hand import Hand, HandReport, PreviousHand, RuleHooks
from engine.rules.registry import RuleSet

_SESSION_TYPES = frozenset({TableConfig, HandStart, HandEnd, TrayCount})


class TableSession:
    """Feed events in log order; each finished hand comes back as a ``HandReport``.

    ``feed`` raises ``EventError`` for an event that cannot be applied; the session stays usable
    and the event is skipped.
    """

    def __init__(self, rules: RuleHooks | None = None) -> None:
        """``rules``: the checks to run (default: every implemented rule; ``RuleSet([])``: none,
        the bare hand engine)."""
        self.rules = rules if rules is not None else RuleSet()
        self.config: TableConfig | None = None
        self.hand: Hand | None = None
        self.last_seq = 0
        self.last_tray: TrayCount | None = None
        self.last_button: PreviousHand | None = None

    def feed(self, event: Event) -> HandReport | None:
        self.last_seq = event.seq
        kind = type(event)
        hand = self.hand
        if hand is not None and kind not in _SESSION_TYPES:
            hand.apply(event)  # the common case, first
            return None
        if isinstance(event, TableConfig):
            if self.config is None or self.config.table != event.table:
                self.last_button = None  # another table: its last hand says nothing here
                self.last_tray = None
            self.config = event  # a hand already open keeps the configuration it started with
            return None
        if isinstance(event, HandStart):
            return self._start(event)
        if isinstance(event, TrayCount):
            self.last_tray = event
        if self.hand is None:
            if isinstance(event, TrayCount):
                return None
            raise EventError("type", f"{event.TYPE} outside a hand (no hand_start before it)")
        if isinstance(event, HandEnd):
            if event.hand != self.hand.hand:
                raise EventError(
                    "hand", f"hand_end of hand {event.hand} but hand {self.hand.hand} is open"
                )
            return self._close(complete=True, seq=event.seq)
        self.hand.apply(event)
        return None

    def cut(self, reason: str) -> None:
        """A line is missing or unreadable: the hand open, if any, is not judged past it."""
        if self.hand is not None:
            self.hand.cut_here(reason)

    def close(self) -> HandReport | None:
        """End of the log: settle the hand still open, if any, without judging its end (the log
        was cut off: the hand may still be in play)."""
        if self.hand is None:
            return None
        self.hand.cut_here("the log ends before its hand_end")
        return self._close(complete=False, seq=self.last_seq)

    def _start(self, event: HandStart) -> HandReport | None:
        if self.config is None:
            raise EventError("type", "hand_start before any table line")
        # Raises (a bad seat or button) before the open hand is touched.
        new_hand = Hand(self.config, event, self.rules, self.last_tray)
        new_hand.previous = self.last_button
        previous = None
        if self.hand is not None:
            self.hand.superseded_by = event
            previous = self._close(complete=False, seq=event.seq)
        self.hand = new_hand
        return previous

    def _close(self, *, complete: bool, seq: int) -> HandReport:
        assert self.hand is not None
        report = self.hand.finish(complete=complete, seq=seq)
        self.last_button = PreviousHand(
            button=self.hand.button,
            seats=self.hand.seats,
            rules_raised=frozenset(alert.rule for alert in report.alerts),
            awarded=bool(self.hand.record.awards),
        )
        self.hand = None
        return report


def play_hand(events: Iterable[Event], rules: RuleHooks | None = None) -> HandReport:
    """The report of the one hand ``events`` hold (all rules unless ``rules`` says otherwise)."""
    session = TableSession(rules)
    report = None
    for event in events:
        report = session.feed(event) or report
    report = session.close() or report
    if report is None:
        raise EventError("type", "no hand in these events")
    return report


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckResult:
    hands: tuple[HandReport, ...]
    errors: tuple[InputError, ...]

    @property
    def alerts(self) -> tuple[Alert, ...]:
        return tuple(alert for hand in self.hands for alert in hand.alerts)


def check(
    items: Iterable[tuple[int, Event | InputError]], path: str, rules: RuleHooks | None = None
) -> CheckResult:
    """Run numbered events (as ``codec.read_file`` yields them) through a ``TableSession``."""
    session = TableSession(rules)
    hands: list[HandReport] = []
    errors: list[InputError] = []
    for line, item in items:
        if isinstance(item, InputError):
            errors.append(item)
            if not item.line_kept:
                session.cut(f"line {line} could not be read")
            continue
        try:
            report = session.feed(item)
        except EventError as exc:
            errors.append(InputError(path=path, line=line, field=exc.field, message=exc.message))
            session.cut(f"line {line} could not be applied")
            continue
        if report is not None:
            hands.append(report)
    last = session.close()
    if last is not None:
        hands.append(last)
    return CheckResult(hands=tuple(hands), errors=tuple(errors))
