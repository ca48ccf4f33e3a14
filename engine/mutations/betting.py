"""Irregularities of the betting: a bet or raise of the wrong size, the rest of the hand played
on (the calls after it follow the new size, the pots pushed as they now stand)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from engine.events import Action, ActionKind, CardSeen, Event, StackCount, TrayCount
from engine.hand import ActionContext, HandReport
from engine.mutations.base import Expected, expect, repush, states, table_of

Resize = Callable[[ActionContext, random.Random], int | None]
"""The wrong total for the street an action meets (None: this action cannot be made wrong)."""


def _resized(
    events: list[Event], report: HandReport, rng: random.Random, resize: Resize
) -> tuple[list[Event], Action] | None:
    """One bet or raise of the hand made ``resize``'s size, where nothing after it depends on
    its size but the calls (no later raise on its street, nor in the hand at pot limit; nobody
    all-in in the hand; no stack or tray count); the pots pushed again."""
    if any(isinstance(e, StackCount | TrayCount) for e in events):
        return None
    candidates: list[tuple[int, int, int]] = []
    """(index, the wrong total, street): the street counted by board cards seen."""
    last_raise: dict[int, int] = {}
    street = 0
    anyone_all_in = False
    for i, hand in states(events):
        event = events[i]
        if hand is None:
            continue
        if isinstance(event, CardSeen) and event.to == "board":
            street += 1
        if not isinstance(event, Action) or event.action not in (ActionKind.BET, ActionKind.RAISE):
            anyone_all_in = anyone_all_in or bool(hand.all_in)
            continue
        last_raise[street] = i
        context = hand.action_context(event)
        to = None if context.goes_all_in else resize(context, rng)
        if to is not None:
            candidates.append((i, to, street))
    if anyone_all_in:
        return None
    last = max(last_raise.values(), default=0)
    pot_limit = table_of(events).game.is_pot_limit
    choices = [  # pot limit: a smaller pot lowers the limit of every bet after it
        (i, to)
        for i, to, street in candidates
        if last_raise[street] == i and (i == last or not pot_limit)
    ]
    if not choices:
        return None
    i, to = rng.choice(choices)
    action = events[i]
    assert isinstance(action, Action)
    events[i] = replace(action, to=to)
    for j in range(i + 1, len(events)):  # the calls of that bet, to its new size
        later = events[j]
        if isinstance(later, CardSeen) and later.to == "board":
            break
        if isinstance(later, Action) and later.action is ActionKind.CALL and later.to == action.to:
            events[j] = replace(later, to=to)
    return repush(events), action


def _unit(context: ActionContext) -> int:
    return context.table.house_rules.chip_unit


def _short_raise(context: ActionContext, rng: random.Random) -> int | None:
    unit = _unit(context)
    if context.table.game.is_fixed_limit or not context.current_bet or context.min_raise <= unit:
        return None
    return context.current_bet + unit * rng.randint(1, (context.min_raise - 1) // unit)


def _short_bet(context: ActionContext, rng: random.Random) -> int | None:
    unit = _unit(context)
    if context.table.game.is_fixed_limit or context.current_bet or context.table.bb <= unit:
        return None
    return unit * rng.randint(1, (context.table.bb - 1) // unit)


def short_raise(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """No-limit or pot-limit: a raise by less than the last full bet or raise, not all-in."""
    done = _resized(events, report, rng, _short_raise)
    if done is None:
        return None
    return done[0], expect(report, "short_raise", "R-BET-2", (done[1].seat,))


def short_bet(
    events: list[Event], report: HandReport, rng: random.Random
) -> tuple[list[Event], Expected] | None:
    """No-limit or pot-limit: an opening bet smaller than the big blind, not all-in."""
    done = _resized(events, report, rng, _short_bet)
    if done is None:
        return None
    return done[0], expect(report, "short_bet", "R-BET-1", (done[1].seat,))
