"""Hand strength from eval7 (a maintained evaluator); higher is better."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

import eval7

from engine.events import Game


@lru_cache(maxsize=64)
def _card(text: str) -> eval7.Card:
    return eval7.Card(text)


def hand_value(game: Game, hole: Sequence[str], board: Sequence[str]) -> int:
    """Best hand value: any five of hole + board in hold'em, exactly two + three in Omaha."""
    if game is Game.PLO:
        return max(
            int(eval7.evaluate([_card(c) for c in (*two, *three)]))
            for two in combinations(hole, 2)
            for three in combinations(board, 3)
        )
    return int(eval7.evaluate([_card(c) for c in (*hole, *board)]))


def hand_name(value: int) -> str:
    return str(eval7.handtype(value))
