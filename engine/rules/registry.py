"""The rule registry: every implemented rule is a small function registered under its id.

A rule looks at a hand through one hook:

- ``action``: before an ``action`` event is applied, with the betting situation it meets;
- ``before`` / ``after``: around any other event, with the hand state before or after it;
- ``end``: once, when the hand is over, with the settlement.

It yields ``Finding``s; the registry turns them into ``Alert``s with the rule's family and
severity and a message that cites the catalogue id and the seed it comes from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.alerts import Alert, Severity
from engine.events import Action, Event
from engine.rules.catalogue import CATALOGUE

if TYPE_CHECKING:
    from engine.hand import ActionContext, Hand
    from engine.settlement import Settlement


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    message: str
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    amounts: Mapping[str, int] = field(default_factory=dict)
    evidence: tuple[int, ...] = ()
    severity: Severity | None = None
    """Overrides the rule's default severity for this finding."""


Findings = Iterator[Finding]
Found = tuple[Finding, ...]
NONE: Found = ()
"""What a rule returns when it finds nothing (cheaper than an empty generator)."""
ActionCheck = Callable[["Hand", "ActionContext"], Iterable[Finding]]
EventCheck = Callable[["Hand", Event], Iterable[Finding]]
EndCheck = Callable[["Hand", "Settlement"], Iterable[Finding]]

HOOKS = ("action", "before", "after", "end")


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    id: str
    hook: str
    check: Callable[..., Iterable[Finding]]
    severity: Severity
    switches: tuple[str, ...]
    """House-rule switches (``TableConfig.house_rules``) the rule reads."""
    events: tuple[type[Event], ...]
    """Event types a ``before``/``after`` rule looks at (empty: all)."""

    @property
    def family(self) -> str:
        return CATALOGUE[self.id].family

    @property
    def source(self) -> str:
        return CATALOGUE[self.id].source


RULES: dict[str, Rule] = {}


def rule(
    rule_id: str,
    *,
    hook: str,
    severity: Severity = Severity.WARNING,
    switches: tuple[str, ...] = (),
    events: tuple[type[Event], ...] = (),
) -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
    """Register the decorated function as the check of catalogue rule ``rule_id``."""
    if rule_id not in CATALOGUE:
        raise ValueError(f"{rule_id} is not in the rules catalogue")
    if hook not in HOOKS:
        raise ValueError(f"hook must be one of {HOOKS}")

    def register(check: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
        if rule_id in RULES:
            raise ValueError(f"{rule_id} is registered twice")
        RULES[rule_id] = Rule(
            id=rule_id,
            hook=hook,
            check=check,
            severity=severity,
            switches=switches,
            events=events,
        )
        return check

    return register


class RuleSet:
    """The rules a table runs, in id order per hook; it implements ``engine.hand.RuleHooks``."""

    def __init__(self, rules: Iterable[Rule] | None = None) -> None:
        chosen = sorted(rules if rules is not None else all_rules().values(), key=lambda r: r.id)
        self.by_hook: dict[str, list[Rule]] = {hook: [] for hook in HOOKS}
        for item in chosen:
            self.by_hook[item.hook].append(item)
        self._before: dict[type[Event], list[Rule]] = {}
        self._after: dict[type[Event], list[Rule]] = {}

    def _for_event(self, hook: str, kind: type[Event]) -> list[Rule]:
        return [r for r in self.by_hook[hook] if not r.events or kind in r.events]

    def before(self, hand: Hand, event: Event) -> None:
        kind = type(event)
        rules = self._before.get(kind)
        if rules is None:
            rules = self._before[kind] = self._for_event("before", kind)
        if kind is Action:
            context = hand.action_context(event)  # type: ignore[arg-type]
            for item in self.by_hook["action"]:
                found = item.check(hand, context)
                if found:
                    self._emit(hand, item, found, event.seq)
        for item in rules:
            found = item.check(hand, event)
            if found:
                self._emit(hand, item, found, event.seq)

    def after(self, hand: Hand, event: Event) -> None:
        kind = type(event)
        rules = self._after.get(kind)
        if rules is None:
            rules = self._after[kind] = self._for_event("after", kind)
        for item in rules:
            found = item.check(hand, event)
            if found:
                self._emit(hand, item, found, event.seq)

    def end(self, hand: Hand, settlement: Settlement) -> None:
        for item in self.by_hook["end"]:
            found = item.check(hand, settlement)
            if found:
                self._emit(hand, item, found, hand.last_seq)

    @staticmethod
    def _emit(hand: Hand, item: Rule, findings: Iterable[Finding], seq: int) -> None:
        for found in findings:
            evidence = found.evidence or (seq,)
            hand.alerts.append(
                Alert(
                    hand=hand.hand,
                    seq=max(evidence),
                    rule=item.id,
                    family=item.family,
                    severity=found.severity or item.severity,
                    seat=found.seats[0] if found.seats else None,
                    message=f"{found.message} [{item.id}; {item.source}]",
                    seats=found.seats,
                    cards=found.cards,
                    amounts=found.amounts,
                    evidence=tuple(sorted(set(evidence))),
                )
            )


def all_rules() -> dict[str, Rule]:
    """Every implemented rule (importing the rule modules registers them)."""
    from engine.rules import load

    load()
    return RULES
