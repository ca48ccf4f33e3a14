"""The dealer's chip tray (RFID): no movement during a hand, rake never into the tray."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.settlement import Settlement


def _difference(before: Mapping[int, int], after: Mapping[int, int]) -> dict[int, int]:
    """Chips by denomination that came into (+) or went out of (-) the tray."""
    return {
        denomination: after.get(denomination, 0) - before.get(denomination, 0)
        for denomination in sorted(set(before) | set(after))
        if after.get(denomination, 0) != before.get(denomination, 0)
    }


def _value(difference: Mapping[int, int]) -> int:
    return sum(denomination * count for denomination, count in difference.items())


def _tray_change(hand: Hand) -> tuple[dict[int, int], tuple[int, ...]] | None:
    trays = hand.record.trays
    first = hand.tray_before or (trays[0] if trays else None)
    if first is None or not trays or trays[-1] is first:
        return None
    return _difference(first.counts, trays[-1].counts), (first.seq, trays[-1].seq)


def _describe(difference: Mapping[int, int]) -> str:
    return ", ".join(f"{count:+d} x {denomination}" for denomination, count in difference.items())


@rule("R-TRAY-3", hook="end", severity=Severity.CRITICAL, switches=("rake_to_tray",))
def tray_moved_in_hand(hand: Hand, s: Settlement) -> Found:
    """The tray inventory changed during the hand by more than the rake the house drops in it."""
    change = _tray_change(hand)
    if change is None:
        return NONE
    difference, evidence = change
    rake = hand.observed_rake if hand.observed_rake is not None else s.rake
    expected = rake if hand.table.house_rules.rake_to_tray else 0
    value = _value(difference)
    if not difference or value == expected or (value == rake and rake):
        return NONE
    return (
        Finding(
            message=f"the chip tray changed during the hand by {value} ({_describe(difference)})"
            f"; it should have changed by {expected}",
            amounts={f"tray_{d}": n for d, n in difference.items()} | {"value": value},
            evidence=evidence,
        ),
    )


@rule("R-RAKE-2", hook="end", switches=("rake_to_tray",))
def rake_into_tray(hand: Hand, s: Settlement) -> Found:
    """The rake goes to the drop box, never into the chip tray (unless the house says so)."""
    change = _tray_change(hand)
    if change is None or hand.table.house_rules.rake_to_tray:
        return NONE
    difference, evidence = change
    rake = hand.observed_rake if hand.observed_rake is not None else s.rake
    if not rake or _value(difference) != rake:
        return NONE
    return (
        Finding(
            message=f"the rake ({rake}) went into the chip tray ({_describe(difference)}) "
            "instead of the drop box",
            amounts={"rake": rake},
            evidence=evidence,
        ),
    )
