"""Mucked winners: the best hand at showdown, known from the shoe, must get the pot.

The shoe read every hole card, so the engine knows each live hand even when it is mucked face
down. R-MUCK-7: a tabled winning hand killed before its pot is pushed. R-MUCK-6: the dealer
killed a live hand that would have won. R-MUCK-13 (suppression): a player who throws a better hand
away at showdown without tabling it loses it by his own choice: no table alert, only a
surveillance note; uncontested pots never alert. R-MUCK-11: playing the board needs the cards
tabled; a hand that only plays the board and is mucked raises nothing. R-MUCK-8: losing hands are
killed before the pot is pushed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.ranking import hand_value
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.pots import Pot
    from engine.settlement import Settlement


def _known_hand(hand: Hand, seat: int) -> tuple[str, ...] | None:
    """The seat's hole cards: tabled, or read by the shoe; None when not all are known."""
    needed = hand.table.game.hole_card_count
    shown = hand.shown.get(seat, ())
    if len(shown) == needed:
        return shown
    dealt = hand.hole.get(seat, [])
    if len(dealt) == needed and all(card is not None for card in dealt):
        return tuple(card for card in dealt if card is not None)
    return None


def _contested(s: Settlement, hand: Hand) -> list[Pot]:
    """Pots with two or more live hands eligible, decided at a showdown with a full board."""
    if len(hand.board) < 5:
        return []
    return [pot for pot in s.pots if len([x for x in pot.eligible if x not in hand.folded]) > 1]


def _true_winners(hand: Hand, pot: Pot) -> tuple[list[int], dict[int, int]] | None:
    """Winners of ``pot`` among every eligible live hand (mucked ones too), by the shoe."""
    values: dict[int, int] = {}
    for seat in pot.eligible:
        cards = _known_hand(hand, seat)
        if cards is None:
            return None
        values[seat] = hand_value(hand.table.game, cards, hand.board)
    best = max(values.values())
    return [seat for seat, value in values.items() if value == best], values


def _plays_the_board(hand: Hand, seat: int, value: int) -> bool:
    if hand.table.game.hole_card_count != 2:
        return False  # Omaha cannot play the board (R-SHOW-4)
    return value == hand_value(hand.table.game, (), hand.board)


def _mucked_winners(hand: Hand, s: Settlement) -> list[tuple[int, Pot, bool, bool]]:
    """(seat, pot, tabled first, only plays the board) for each mucked hand that wins or splits
    a contested pot."""
    cached = hand.memo.get("mucked_winners")
    if isinstance(cached, list):
        return cached
    found: list[tuple[int, Pot, bool, bool]] = []
    for pot in _contested(s, hand):
        result = _true_winners(hand, pot)
        if result is None:
            continue
        winners, values = result
        for seat in winners:
            if seat in hand.mucked:
                board = _plays_the_board(hand, seat, values[seat])
                found.append((seat, pot, seat in hand.shown, board))
    hand.memo["mucked_winners"] = found
    return found


def _muck_seq(hand: Hand, seat: int) -> int:
    return next(m.seq for m in hand.record.mucks if m.seat == seat)


def _by(hand: Hand, seat: int) -> str | None:
    return next(m.by for m in hand.record.mucks if m.seat == seat)


def _finding(hand: Hand, seat: int, pot: Pot, what: str) -> Finding:
    cards = _known_hand(hand, seat) or ()
    return Finding(
        message=f"seat {seat}'s {' '.join(cards)} {what}; it wins the {pot.name} pot "
        f"({pot.amount})",
        seats=(seat,),
        cards=cards,
        amounts={pot.name: pot.amount},
        evidence=(_muck_seq(hand, seat),),
    )


@rule("R-MUCK-7", hook="end", severity=Severity.CRITICAL)
def tabled_winner_killed(hand: Hand, s: Settlement) -> Found:
    """A tabled hand that wins is killed before its pot is pushed."""
    return tuple(
        _finding(hand, seat, pot, "was tabled and then killed")
        for seat, pot, tabled, board in _mucked_winners(hand, s)
        if tabled and not board
    )


@rule("R-MUCK-6", hook="end", severity=Severity.CRITICAL)
def dealer_killed_winner(hand: Hand, s: Settlement) -> Found:
    """The dealer killed a live hand that was not tabled and would have won."""
    return tuple(
        _finding(hand, seat, pot, "was killed by the dealer before it was tabled")
        for seat, pot, tabled, board in _mucked_winners(hand, s)
        if not tabled and not board and _by(hand, seat) == "dealer"
    )


@rule("R-MUCK-13", hook="end", severity=Severity.INFO)
def best_hand_thrown_away(hand: Hand, s: Settlement) -> Found:
    """Surveillance note only: a player mucked the best hand at showdown without tabling it."""
    return tuple(
        _finding(
            hand,
            seat,
            pot,
            "was mucked at showdown without being tabled (player's "
            "choice: surveillance note, no table alert)",
        )
        for seat, pot, tabled, board in _mucked_winners(hand, s)
        if not tabled and not board and _by(hand, seat) != "dealer"
    )


@rule("R-MUCK-11", hook="end", severity=Severity.INFO)
def played_the_board(hand: Hand, s: Settlement) -> Found:
    """Surveillance note only: a hand that only played the board was mucked and lost its share
    (to share, the cards must be tabled)."""
    return tuple(
        _finding(hand, seat, pot, "only played the board and was mucked: it loses its share")
        for seat, pot, tabled, board in _mucked_winners(hand, s)
        if board
    )


@rule("R-MUCK-8", hook="end")
def losers_killed_before_push(hand: Hand, s: Settlement) -> Found:
    """The pot of a showdown is pushed while a losing hand is still on the table."""
    if not hand.record.pushes or len(hand.board) < 5 or hand.hand_decided:
        return NONE
    first_push = hand.record.pushes[0].seq
    winners = {seat for shares in s.shares.values() for seat in shares}
    killed = {m.seat: m.seq for m in hand.record.mucks}
    waiting = [
        seat
        for seat in hand.live()
        if seat not in winners and killed.get(seat, first_push + 1) > first_push
    ]
    if not waiting:
        return NONE
    return (
        Finding(
            message=f"the pot was pushed while the losing hand of seat "
            f"{', '.join(map(str, waiting))} was still on the table (kill losing hands first)",
            seats=tuple(waiting),
            evidence=(first_push,),
        ),
    )
