"""Betting actions against the situation they meet: turn, amounts, limits (R-BET-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.events import ActionKind
from engine.rules.registry import NONE, Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import ActionContext, Hand


_PAST = {"fold": "folded", "check": "checked", "call": "called", "bet": "bet", "raise": "raised"}


def _what(c: ActionContext) -> str:
    return f"seat {c.event.seat} {_PAST.get(c.event.action, 'went all-in')}"


@rule("R-BET-17", hook="action")
def out_of_turn(hand: Hand, c: ActionContext) -> Found:
    """An action by a seat whose turn it is not, that folded, or after the betting closed."""
    seat = c.event.seat
    if c.folded or c.all_in:
        state = "after folding" if c.folded else "while all-in"
        return (Finding(message=f"{_what(c)} {state}", seats=(seat,)),)
    if not c.round_open:
        return (
            Finding(
                message=f"{_what(c)} after the {c.street.name.lower()} betting was over",
                seats=(seat,),
            ),
        )
    if c.to_act != seat and c.flow_next != seat and c.to_act is not None:
        return (
            Finding(
                message=f"{_what(c)} out of turn: seat {c.to_act} was to act",
                seats=(seat, c.to_act),
            ),
        )
    return NONE


@rule("R-BET-5", hook="action")
def short_call(hand: Hand, c: ActionContext) -> Found:
    """A check facing a bet, or a call short of the bet without being all-in."""
    if c.folded or c.all_in:
        return NONE
    seat = c.event.seat
    owed = min(c.current_bet, c.all_in_to)
    if c.event.action is ActionKind.CHECK and c.current_bet > c.my_bet:
        return (
            Finding(
                message=f"seat {seat} checked facing a bet of {c.current_bet}",
                seats=(seat,),
                amounts={"to_call": c.current_bet - c.my_bet},
            ),
        )
    if c.event.action is ActionKind.CALL and c.to < owed:
        return (
            Finding(
                message=f"seat {seat} called to {c.to} but the bet to call is {c.current_bet}",
                seats=(seat,),
                amounts={"called_to": c.to, "bet": c.current_bet, "short": owed - c.to},
            ),
        )
    return NONE


def _raise_size_applies(c: ActionContext) -> bool:
    return not (c.folded or c.all_in) and c.round_open and c.raises


@rule("R-BET-1", hook="action", raises_only=True)
def minimum_bet(hand: Hand, c: ActionContext) -> Found:
    """No-limit and pot-limit: an opening bet below the big blind, unless all-in."""
    if c.table.game.is_fixed_limit or not _raise_size_applies(c) or c.current_bet:
        return NONE
    if c.to < c.table.bb and not c.goes_all_in:
        return (
            Finding(
                message=f"seat {c.event.seat} bet {c.to}, below the minimum bet of {c.table.bb}",
                seats=(c.event.seat,),
                amounts={"to": c.to, "minimum": c.table.bb},
            ),
        )
    return NONE


@rule("R-BET-2", hook="action", raises_only=True)
def minimum_raise(hand: Hand, c: ActionContext) -> Found:
    """A raise smaller than the last full bet or raise of the street, unless all-in."""
    if c.table.game.is_fixed_limit or not _raise_size_applies(c) or not c.current_bet:
        return NONE
    least = c.current_bet + c.min_raise
    if c.to < least and not c.goes_all_in:
        return (
            Finding(
                message=f"seat {c.event.seat} raised to {c.to}, below the minimum of {least}",
                seats=(c.event.seat,),
                amounts={"to": c.to, "minimum": least},
            ),
        )
    return NONE


@rule("R-BET-7", hook="action", raises_only=True)
def pot_limit_maximum(hand: Hand, c: ActionContext) -> Found:
    """Pot limit: a bet or raise above the pot after the call."""
    if not c.table.game.is_pot_limit or not _raise_size_applies(c):
        return NONE
    limit = c.pot_limit_to
    if min(c.to, c.all_in_to) > limit:
        return (
            Finding(
                message=f"seat {c.event.seat} made it {c.to}, above the pot limit of {limit}",
                seats=(c.event.seat,),
                amounts={"to": c.to, "maximum": limit},
            ),
        )
    return NONE


@rule("R-BET-19", hook="action", raises_only=True, switches=("fl_max_bets", "fl_cap_heads_up"))
def fixed_limit(hand: Hand, c: ActionContext) -> Found:
    """Fixed limit: bets and raises of exactly one bet size, and no raise past the cap."""
    if not c.table.game.is_fixed_limit or not _raise_size_applies(c):
        return NONE
    seat = c.event.seat
    limit_to = c.current_bet + c.bet_size
    to = min(c.to, c.all_in_to)
    if _bet_and_a_half(c):
        return NONE  # R-BET-4: a raise by chips, to be completed
    if to != limit_to and not (c.goes_all_in and to < limit_to):
        return (
            Finding(
                message=f"seat {seat} made it {to} in fixed limit; the limit is {limit_to}",
                seats=(seat,),
                amounts={"to": to, "limit": limit_to},
            ),
        )
    rules = c.table.house_rules
    uncapped = c.live_count == 2 and not rules.fl_cap_heads_up
    full = 2 * (to - c.current_bet) >= c.bet_size
    if full and c.limit_bets >= rules.fl_max_bets and not uncapped:
        return (
            Finding(
                message=f"seat {seat} raised after the cap of {rules.fl_max_bets} bets",
                seats=(seat,),
                amounts={"bets": c.limit_bets + 1, "cap": rules.fl_max_bets},
            ),
        )
    return NONE


@rule("R-BET-6", hook="action", raises_only=True)
def reopened(hand: Hand, c: ActionContext) -> Found:
    """A re-raise by a seat that has acted and faces less than a full raise since."""
    if not _raise_size_applies(c) or c.acted_at is None:
        return NONE
    threshold = (c.bet_size + 1) // 2 if c.table.game.is_fixed_limit else c.min_raise
    faced = c.current_bet - c.acted_at
    if faced < threshold:
        return (
            Finding(
                message=f"seat {c.event.seat} re-raised, but it faced only {faced} more since it "
                f"acted, less than a full raise: the betting was not reopened to it",
                seats=(c.event.seat,),
                amounts={"faced": faced, "full_raise": threshold},
            ),
        )
    return NONE


def _bet_and_a_half(c: ActionContext) -> bool:
    """Fixed limit: chips of at least half a bet over the bet, short of a full raise."""
    to = min(c.to, c.all_in_to)
    return (
        c.table.game.is_fixed_limit
        and not c.goes_all_in
        and c.current_bet > 0
        and c.current_bet + c.bet_size / 2 <= to < c.current_bet + c.bet_size
    )


@rule("R-BET-4", hook="action", raises_only=True)
def raise_by_chips(hand: Hand, c: ActionContext) -> Found:
    """Fixed limit: a bet and a half or more put in counts as a raise, completed to a full one."""
    if not _raise_size_applies(c) or not _bet_and_a_half(c):
        return NONE
    full = c.current_bet + c.bet_size
    return (
        Finding(
            message=f"seat {c.event.seat} put in {c.to - c.my_bet} to make it {c.to}: a bet and a"
            f" half counts as a raise, to be completed to {full}",
            seats=(c.event.seat,),
            amounts={"to": c.to, "complete_to": full},
        ),
    )


@rule("R-BET-21", hook="action", raises_only=True, switches=("chip_unit",))
def chip_unit(hand: Hand, c: ActionContext) -> Found:
    """Bets and raises are multiples of the smallest chip in play."""
    unit = c.table.house_rules.chip_unit
    if unit <= 1 or not _raise_size_applies(c) or c.goes_all_in or c.to % unit == 0:
        return NONE
    return (
        Finding(
            message=f"seat {c.event.seat} made it {c.to}, not a multiple of the smallest chip "
            f"in play ({unit})",
            seats=(c.event.seat,),
            amounts={"to": c.to, "chip_unit": unit},
        ),
    )
