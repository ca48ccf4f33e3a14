"""The rule registry: every implemented rule is a small function registered under its id.

A rule looks at a hand through one hook:

- ``action``: before an ``action`` event is applied, with the betting situation it meets;
- ``before`` / ``after``: around any other event, with the hand state before or after it;
- ``end``: once, when the hand is over, with the settlement.

It yields ``Finding``s; the registry turns them into ``Alert``s with the rule's family and
severity and a message that cites the catalogue id and the seed it comes from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from engine.alerts import Alert, Severity
from engine.events import Action, ActionKind, Award, CardSeen, Event, Face, Muck, Show
from engine.rules.catalogue import CATALOGUE

if TYPE_CHECKING:
    from engine.hand import Hand
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


Found = tuple[Finding, ...]
NONE: Found = ()
"""What a rule returns when it finds nothing (cheaper than an empty generator)."""

Hook = Literal["action", "before", "after", "end"]
HOOKS: tuple[Hook, ...] = ("action", "before", "after", "end")
Phase = Literal["deal", "play"]
"""``deal``: before the hand's first action; ``play``: after it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    id: str
    hook: Hook
    check: Callable[..., Iterable[Finding]]
    severity: Severity
    switches: tuple[str, ...]
    """House-rule switches (``TableConfig.house_rules``) the rule reads."""
    events: tuple[type[Event], ...]
    """Event types a ``before``/``after`` rule looks at (empty: all)."""
    zones: tuple[str, ...]
    """For ``card`` events: the zones it looks at (``seat``, ``board``, ``burn``, ``muck``,
    ``off_table``, ``shoe``; empty: all)."""
    face_up_only: bool
    """For ``card`` events: only cards seen face up (a card off the table counts as seen)."""
    raises_only: bool
    """For ``action`` rules: only actions that bet or raise."""
    first_action_only: bool
    """For rules on ``action`` events: only the hand's first action (the deal is complete)."""
    phase: Phase | None
    """None: both."""
    back_only: bool
    """For ``card`` events: only cards whose back vision saw."""

    def wants(
        self, kind: type[Event], zone: str | None, face_up: bool, back: bool, dealing: bool
    ) -> bool:
        if self.events and kind not in self.events:
            return False
        first = kind is Action and dealing
        if self.first_action_only and kind is Action and not first:
            return False
        if self.phase is not None and (self.phase == "deal") != dealing:
            return False
        if zone is None:
            return True
        return (
            (not self.zones or zone in self.zones)
            and (face_up or not self.face_up_only or zone == "off_table")
            and (back or not self.back_only)
        )

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
    hook: Hook,
    severity: Severity = Severity.WARNING,
    switches: tuple[str, ...] = (),
    events: tuple[type[Event], ...] = (),
    zones: tuple[str, ...] = (),
    face_up_only: bool = False,
    raises_only: bool = False,
    first_action_only: bool = False,
    phase: Phase | None = None,
    back_only: bool = False,
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
            zones=zones,
            face_up_only=face_up_only,
            raises_only=raises_only,
            first_action_only=first_action_only,
            phase=phase,
            back_only=back_only,
        )
        return check

    return register


_DEAL_JUDGED = "deal judged"
_WITHOUT_ACTION = "without an action"


def _ends_the_deal(event: Event) -> bool:
    """An event that comes only once the hole cards are all dealt and the betting is done."""
    if isinstance(event, CardSeen):
        return event.to in ("board", "burn")
    return isinstance(event, Show | Muck | Award)


class RuleSet:
    """The rules a table runs, in id order per hook; it implements ``engine.hand.RuleHooks``."""

    def __init__(self, rules: Iterable[Rule] | None = None) -> None:
        chosen = sorted(rules if rules is not None else all_rules().values(), key=lambda r: r.id)
        self.by_hook: dict[Hook, list[Rule]] = {hook: [] for hook in HOOKS}
        for item in chosen:
            self.by_hook[item.hook].append(item)
        self._any_action = self.by_hook["action"]
        self._non_raise = [r for r in self._any_action if not r.raises_only]
        self._deal_rules = [r for r in self.by_hook["before"] if r.first_action_only]
        """The rules that judge the deal once it is complete, at the hand's first action."""
        self._plans: dict[tuple[object, ...], tuple[list[Rule], list[Rule]]] = {}

    def __len__(self) -> int:
        """How many rules run (an empty set is false: the hand skips its hooks)."""
        return sum(len(rules) for rules in self.by_hook.values())

    def _plan(self, event: Event, hand: Hand) -> tuple[list[Rule], list[Rule]]:
        """The rules that look before and after ``event`` (cached by event type, zone and face,
        and for actions whether it is the hand's first)."""
        kind = type(event)
        dealing = not hand.record.actions
        card = event if isinstance(event, CardSeen) else None
        if card is not None:
            key: tuple[object, ...] = (kind, card.to, card.face, card.back is not None, dealing)
        else:
            key = (kind, dealing)
        plan = self._plans.get(key)
        if plan is None:
            zone: str | None = None
            face_up = back = False
            if card is not None:
                zone = "seat" if card.to_seat is not None else card.to
                face_up = card.face is Face.UP
                back = card.back is not None
            before, after = (
                [r for r in self.by_hook[hook] if r.wants(kind, zone, face_up, back, dealing)]
                for hook in ("before", "after")
            )
            plan = self._plans[key] = (before, after)
        return plan

    def apply(self, hand: Hand, event: Event, handler: Callable[[Event], None]) -> None:
        if not hand.record.actions and _DEAL_JUDGED not in hand.memo:
            if type(event) is Action:
                hand.memo[_DEAL_JUDGED] = True
            elif _ends_the_deal(event) and hand.hole_cards_dealt():
                self._judge_the_deal(hand, event.seq)
        before, after = self._plan(event, hand)
        if hand.memo.get(_DEAL_JUDGED) is _WITHOUT_ACTION:
            before = [r for r in before if not r.first_action_only]
        seq = event.seq
        if type(event) is Action:
            context = hand.action_context(event)
            for item in self._any_action if context.raises else self._non_raise:
                found = item.check(hand, context)
                if found:
                    self._emit(hand, item, found, seq)
        for item in before:
            found = item.check(hand, event)
            if found:
                self._emit(hand, item, found, seq)
        handler(event)
        for item in after:
            found = item.check(hand, event)
            if found:
                self._emit(hand, item, found, seq)

    def _judge_the_deal(self, hand: Hand, seq: int) -> None:
        """The deal is over and nobody acted (every hand but one is all-in on its blind or
        ante): the rules that judge the deal at the first action judge it now."""
        hand.memo[_DEAL_JUDGED] = _WITHOUT_ACTION
        if not hand.record.placements:
            return
        probe = Action(seq=seq, ts_ms=0, seat=hand.seats[0], action=ActionKind.CHECK)
        for item in self._deal_rules:
            found = item.check(hand, probe)
            if found:
                self._emit(hand, item, found, seq)

    def end(self, hand: Hand, settlement: Settlement) -> None:
        if not hand.record.actions and _DEAL_JUDGED not in hand.memo:
            self._judge_the_deal(hand, hand.last_seq)
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
