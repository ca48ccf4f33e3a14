"""Clean hands dealt in every order the rulebooks allow raise no alert.

Hypothesis makes every decision of the dealing (``engine.clean_hands``), so a hand that raises an
alert shrinks to a short one; a seeded run of a few thousand hands checks that every ordering
kind comes up. ``bench/clean_hands.py`` runs 100,000.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec
from engine.clean_hands import RandomChooser, clean_hands
from engine.events import Event
from engine.session import CheckResult, check

T = TypeVar("T")


class DataChooser:
    """Hypothesis's data as the dealer's decisions."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(options))

    def chance(self, p: float) -> bool:
        return self.data.draw(st.booleans())

    def number(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


def _checked(events: list[Event]) -> CheckResult:
    text = codec.dump_events(events)
    return check(codec.iter_lines("clean.jsonl", io.StringIO(text)), "clean.jsonl")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_a_clean_hand_dealt_in_any_legal_order_raises_no_alert(data: st.DataObject) -> None:
    dealt = clean_hands(DataChooser(data), 2)
    result = _checked(dealt.events)
    assert not result.errors
    assert [h.hand for h in result.hands if not h.complete] == []
    assert result.alerts == ()


REQUIRED = [
    "uncontested: winner keeps",
    "uncontested: winner mucks before",
    "uncontested: winner mucks after",
    "uncontested: winner shows one",
    "uncontested: winner shows all",
    "uncalled bet handed back at once (uncalled)",
    "uncalled bet handed back at once (main)",
    "uncalled bet handed back apart, first",
    "uncalled bet handed back apart, last",
    "uncalled bet handed back with the pot",
    "several losing hands killed, in any order",
    "losing hand killed as soon as it is shown",
    "side pots",
    "all-in hands tabled before the board (tournament)",
    "all-in showdown",
    "called hand shown on request",
    "a hand tabled before the one due first, of the player's own will",
    "split pot",
    "odd chip",
    "antes",
    "big-blind ante",
    "straddle",
    "rake with a cap",
    "rake without a cap",
    "no rake",
    "game NLHE",
    "game PLHE",
    "game FLHE",
    "game PLO",
    "short forced bet",
    "hand tabled one card at a time",
    "pots pushed without their names",
    "a pot pushed in two stacks",
    *(f"{n} seats in the hand" for n in range(2, 11)),
]


def test_three_thousand_seeded_clean_hands_take_every_ordering_and_raise_no_alert() -> None:
    dealt = clean_hands(RandomChooser(random.Random(20261204)), 3000)
    missing = [kind for kind in REQUIRED if not dealt.kinds[kind]]
    assert missing == []
    result = _checked(dealt.events)
    assert len(result.hands) == 3000 and not result.errors
    assert result.alerts == ()
