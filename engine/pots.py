"""Uncalled bets, main and side pots, split shares with odd chips, and rake.

Pure functions over a ledger of what each seat put in (rules-catalogue.md R-POT-1, R-POT-3,
R-POT-6, R-ODD-2, R-RAKE-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class Pot:
    name: str
    """``main``, ``side1``, ``side2``, ... in the order they were formed."""
    amount: int
    eligible: tuple[int, ...]


UNCALLED_POT = "uncalled"
"""The ``pot`` of an award that hands an uncalled bet back to its owner."""


def uncalled_return(committed: Mapping[int, int]) -> tuple[int | None, int]:
    """The seat whose top contribution nobody matched, and the amount to give back to it."""
    if len(committed) < 2:
        return None, 0
    ranked = sorted(committed.items(), key=lambda item: item[1], reverse=True)
    (top_seat, top), (_, second) = ranked[0], ranked[1]
    return (top_seat, top - second) if top > second else (None, 0)


def build_pots(committed: Mapping[int, int], live: Iterable[int], dead_main: int = 0) -> list[Pot]:
    """Layer the contributions at each live seat's level (live = not folded).

    ``dead_main`` (a big-blind ante) goes to the main pot. Consecutive layers with the same
    eligible seats are one pot.
    """
    live_set = set(live)
    levels = sorted({committed.get(seat, 0) for seat in live_set})
    layers: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        if level <= previous:
            continue
        amount = sum(min(c, level) - min(c, previous) for c in committed.values())
        eligible = tuple(sorted(s for s in live_set if committed.get(s, 0) >= level))
        if layers and layers[-1][1] == eligible:
            layers[-1] = (layers[-1][0] + amount, eligible)
        else:
            layers.append((amount, eligible))
        previous = level
    # Money above every live seat's level (impossible after the uncalled return) stays in play.
    leftover = sum(max(c - previous, 0) for c in committed.values())
    if not layers:
        layers.append((0, tuple(sorted(live_set))))
    first_amount, first_eligible = layers[0]
    layers[0] = (first_amount + dead_main, first_eligible)
    if leftover:
        last_amount, last_eligible = layers[-1]
        layers[-1] = (last_amount + leftover, last_eligible)
    return [
        Pot(name="main" if i == 0 else f"side{i}", amount=amount, eligible=eligible)
        for i, (amount, eligible) in enumerate(layers)
    ]


def rake_amount(total: int, pct: Decimal, cap: int) -> int:
    """Percent of the pot rounded down to a whole chip unit, at most ``cap`` (0 = no cap)."""
    if total <= 0 or pct <= 0:
        return 0
    raked = int((Decimal(total) * pct / 100).to_integral_value(rounding=ROUND_FLOOR))
    return min(raked, cap) if cap > 0 else raked


def take_rake(pots: Sequence[Pot], rake: int) -> list[Pot]:
    """Take the rake from the main pot first, then the side pots in order."""
    result = []
    for pot in pots:
        taken = min(rake, pot.amount)
        rake -= taken
        result.append(Pot(name=pot.name, amount=pot.amount - taken, eligible=pot.eligible))
    return result


def split(amount: int, winners: Sequence[int], button: int, seat_count: int) -> dict[int, int]:
    """Share ``amount`` equally; odd chips one each to the tied seats clockwise from the button."""
    order = sorted(winners, key=lambda seat: (seat - button - 1) % seat_count)
    share, odd = divmod(amount, len(order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}
