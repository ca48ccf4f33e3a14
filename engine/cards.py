"""Cards as two-character strings: rank (``23456789TJQKA``) then suit (``cdhs``)."""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
_DECK_SET = frozenset(DECK)


class CardError(ValueError):
    """A card string that is not one of the 52 cards."""


def parse_card(text: object) -> str:
    """Return the canonical card string, accepting a lower-case rank (``"ah"`` -> ``"Ah"``)."""
    if isinstance(text, str) and len(text) == 2:
        canonical = text[0].upper() + text[1].lower()
        if canonical in _DECK_SET:
            return canonical
    raise CardError(f"unknown card {text!r} (expected rank 2-9TJQKA and suit cdhs, e.g. 'As')")


def parse_cards(value: object) -> tuple[str, ...]:
    """Parse a list of cards or a concatenated string (``"AsKd"``); reject repeats."""
    if isinstance(value, str):
        if len(value) % 2:
            raise CardError(f"card string {value!r} has an odd length")
        items: list[object] = [value[i : i + 2] for i in range(0, len(value), 2)]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise CardError(f"expected a list of cards, got {value!r}")
    cards = tuple(parse_card(item) for item in items)
    if len(set(cards)) != len(cards):
        raise CardError(f"duplicate card in {''.join(cards)!r}")
    return cards
