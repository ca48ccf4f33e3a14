"""Showdown procedure: all-in hands face up (TDA rule 17), nobody mucks in an all-in showdown
(R-ALLIN-1, R-ALLIN-3), the all-in hand shown before the side pot is pushed (R-ALLIN-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import CardSeen, Event, Muck
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.settlement import Settlement


def _all_in_showdown(hand: Hand) -> bool:
    """Betting is over with two or more hands live and at least one of them all-in."""
    return (
        hand.record.betting_over_seq is not None
        and any(seat in hand.all_in for seat in hand.live())
        and not hand.hand_decided
    )


@rule(
    "R-ALLIN-1",
    hook="before",
    events=(CardSeen,),
    zones=("board", "burn"),
    switches=("tournament",),
)
def all_in_hands_face_up(hand: Hand, event: Event) -> Found:
    """Tournaments: once an all-in is called and betting is over, every live hand is turned face
    up before the next card is dealt."""
    assert isinstance(event, CardSeen)
    if not hand.table.house_rules.tournament or event.to not in ("board", "burn"):
        return NONE
    if not _all_in_showdown(hand) or len(hand.board) >= 5:
        return NONE
    hidden = [seat for seat in hand.live() if seat not in hand.shown]
    if not hidden or hand.memo.get("allin_1"):
        return NONE
    hand.memo["allin_1"] = True
    return (
        Finding(
            message=f"cards dealt after the all-in was called while seat "
            f"{', '.join(map(str, hidden))} still had its hand face down (all hands face up)",
            seats=tuple(hidden),
        ),
    )


@rule("R-ALLIN-3", hook="before", events=(Muck,), switches=("tournament",))
def no_muck_in_all_in_showdown(hand: Hand, event: Event) -> Found:
    """Tournaments: no live hand may be mucked in an all-in showdown; all are shown."""
    assert isinstance(event, Muck)
    if not hand.table.house_rules.tournament or not _all_in_showdown(hand):
        return NONE
    if event.seat in hand.folded or event.seat in hand.shown:
        return NONE
    return (
        Finding(
            message=f"seat {event.seat} mucked without showing in an all-in showdown "
            "(every live hand must be shown)",
            seats=(event.seat,),
        ),
    )


@rule("R-ALLIN-4", hook="end", switches=("tournament",))
def all_in_hand_shown_before_side_pot(hand: Hand, s: Settlement) -> Found:
    """Tournaments: the all-in player's cards are turned up before the side pot is awarded."""
    if not hand.table.house_rules.tournament or len(s.pots) < 2:
        return NONE
    side_names = {pot.name for pot in s.pots[1:]}
    first_side = next((a.seq for a in hand.record.awards if a.pot in side_names), None)
    if first_side is None:
        return NONE
    in_side = {seat for pot in s.pots[1:] for seat in pot.eligible}
    shown_at = {show.seat: show.seq for show in hand.record.shows}
    hidden = [
        seat
        for seat in s.pots[0].eligible
        if seat not in in_side
        and seat not in hand.mucked
        and shown_at.get(seat, first_side + 1) > first_side
    ]
    if not hidden:
        return NONE
    return (
        Finding(
            message=f"the side pot was pushed while all-in seat {', '.join(map(str, hidden))} "
            "still had its cards face down",
            seats=tuple(hidden),
            evidence=(first_side,),
        ),
    )
