"""Inject one irregularity into a clean hand, and say which alert it must raise; score the
alerts raised against those expected, by family.

A PHH hand becomes a complete table event log first: rake (5 %, capped at three big blinds),
losing hands killed before the push, and the pots pushed side pots first, all as the engine
computes them, so the clean hand raises no alert. A generated clean hand (``engine.clean_hands``)
is taken as dealt. Then one irregularity, chosen with the seed among those the hand allows
(``engine.mutations``), is written into it at a point chosen with the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.alerts import Alert
from engine.events import Event, HandEnd, HandStart, TableConfig
from engine.mutations import MUTATIONS
from engine.mutations.base import Expected, Mutation, complete, play, renumber
from engine.mutations.cards import boxed_card, exposed_hole_card
from engine.mutations.chips import mucked_winner, short_award

__all__ = [
    "MUTATIONS",
    "Expected",
    "Mutation",
    "boxed_card",
    "complete",
    "exposed_hole_card",
    "mucked_winner",
    "play",
    "short_award",
]


def mutate(
    events: Sequence[Event],
    rng: random.Random,
    *,
    as_dealt: bool = False,
    kinds: Sequence[str] | None = None,
) -> tuple[list[Event], Expected] | None:
    """One irregularity, chosen among ``kinds`` (default: all) that this hand allows.

    ``as_dealt``: the hand is complete already (generated); otherwise it is completed first."""
    clean = renumber(events) if as_dealt else complete(events)
    report = play(clean)
    order = list(kinds if kinds is not None else MUTATIONS)
    rng.shuffle(order)
    for kind in order:
        done = MUTATIONS[kind](list(clean), report, rng)
        if done is not None:
            mutated, expected = done
            return renumber(mutated), expected
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class FamilyScore:
    family: str
    injected: int
    caught: int
    false_alerts: int

    @property
    def recall(self) -> float:
        return self.caught / self.injected if self.injected else 1.0

    @property
    def precision(self) -> float:
        raised = self.caught + self.false_alerts
        return self.caught / raised if raised else 1.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    expected: int
    found: int
    false_alerts: tuple[Alert, ...]
    missed: tuple[Expected, ...]

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    hit: tuple[Expected, ...] = ()

    def by_family(self) -> list[FamilyScore]:
        """Injected, caught and false alerts of each alert family."""
        families = sorted(
            {e.family for e in self.hit + self.missed} | {a.family for a in self.false_alerts}
        )
        return [
            FamilyScore(
                family=family,
                injected=sum(e.family == family for e in self.hit + self.missed),
                caught=sum(e.family == family for e in self.hit),
                false_alerts=sum(a.family == family for a in self.false_alerts),
            )
            for family in families
        ]


def score(expected: Sequence[Expected], alerts: Sequence[Alert]) -> Score:
    """Each expected alert must be raised in its hand with its rule and family; every other
    alert is a false alert."""
    wanted = {(e.hand, e.rule, e.family): e for e in expected}
    hit: set[tuple[str, str, str]] = set()
    false_alerts = []
    for alert in alerts:
        key = (alert.hand, alert.rule, alert.family)
        if key in wanted:
            hit.add(key)
        else:
            false_alerts.append(alert)
    missed = tuple(e for key, e in wanted.items() if key not in hit)
    return Score(
        expected=len(wanted),
        found=len(hit),
        false_alerts=tuple(false_alerts),
        missed=missed,
        hit=tuple(e for key, e in wanted.items() if key in hit),
    )


def rename_hand(events: Sequence[Event], hand: str) -> list[Event]:
    """The hand named ``hand``, at a table of that name (hands from different files are not
    consecutive deals of one table)."""
    renamed: list[Event] = []
    for event in events:
        if isinstance(event, HandStart | HandEnd):
            event = replace(event, hand=hand)
        elif isinstance(event, TableConfig):
            event = replace(event, table=hand)
        renamed.append(event)
    return renamed


def renumber_from(events: Sequence[Event], first_seq: int) -> list[Event]:
    return [replace(e, seq=first_seq + i) for i, e in enumerate(events)]
