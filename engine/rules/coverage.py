"""Which catalogue rules the engine checks, and why the others are not checked."""

from __future__ import annotations

import re
from enum import StrEnum

from engine.rules.catalogue import CATALOGUE
from engine.rules.entry import CatalogueEntry
from engine.rules.registry import all_rules


class Status(StrEnum):
    IMPLEMENTED = "implemented"
    ENGINE = "computed by the hand engine"
    SENSOR = "needs a sensor we do not have"
    HUMAN = "human judgement"
    OTHER_GAME = "game not played here"
    PLANNED = "checkable, not implemented yet"


_OTHER_GAMES = {"STUD", "RAZZ", "S8", "LOW", "A5", "27", "DRAW"}
_OUR_GAMES = {"ALL", "HE", "OMA", "FLOP"}
_MISSING_SENSORS = {
    "AUDIO": "spoken declarations (no audio sensor)",
    "PLAYER": "player action recognition (not in the event log v1)",
    "DEALER": "dealer action recognition (not in the event log v1)",
}


_COMPUTED = {
    "R-POT-1": "engine/pots.py builds the main and side pots; payouts that differ: R-POT-5",
    "R-POT-3": "engine/settlement.py splits each pot on its own",
    "R-POT-4": "engine/pots.py shares a tied pot equally; payouts that differ: R-POT-5",
    "R-ODD-1": "engine/pots.py gives odd chips one at a time, one per seat at most",
    "R-SHOW-3": "engine/ranking.py: eval7, no wrap-around straights",
    "R-SHOW-4": "engine/ranking.py: Omaha uses exactly two hole and three board cards",
    "R-BLIND-3": "engine/hand.py: heads-up the button posts the small blind and acts first "
    "pre-flop",
    "R-BLIND-6": "engine/hand.py: blinds are live bets; the big blind keeps its option",
    "R-MISDEAL-1": "the misdeal rules stop at the house's cutoff (switch misdeal_cutoff)",
    "R-MISDEAL-9": "R-DEAL-1 does not flag the last two cards of the deal to the button",
    "R-ALLIN-2": "R-ALLIN-1 triggers only once no more betting is possible",
    "R-HAND-5": "a hand keeps the level it started with; blinds at another level: R-BLIND-2",
    "R-HAND-3": "every pot is rebuilt from the bets; a wrong push alerts R-POT-5 or R-SHOW-2",
    "R-EXPOSE-2": "the exposed-card rules prescribe the outcome; nothing is offered to the player",
    "R-DECK-1": "only the 52 cards are read; a joker or unknown card is reported as bad input",
    "R-DECK-5": "no rule alerts on a card the shoe never read (missing cards change nothing)",
    "R-DECK-6": "R-DECK-2 (another back) and R-DECK-3 (duplicate) detect a defective deck",
    "R-MISDEAL-4": "R-DEAL-1 reports the card dealt out of sequence",
    "R-BURN-6": "premature cards are held, not redealt, so no burn is missing after them",
    "R-BLIND-8": "a blind or ante of the whole stack is accepted (R-BLIND-2)",
    "R-ALLIN-10": "every hand report keeps the starting stacks for the elimination order",
    "R-BET-20": "check-raise is legal in hold'em and Omaha: nothing to flag",
    "R-BET-8": "R-BET-7 reads the house switch pl_small_blind_as_big (opening up to 4 x BB)",
    "R-BLIND-4": "R-MISDEAL-6 accepts the moving and the dead button alike",
    "R-ODD-5": "hold'em odd chips go by position and suits never decide a pot",
    "R-MUCK-2": "a hand thrown into the muck during the betting is a fold (engine/hand.py)",
    "R-MUCK-9": "the uncalled part of a bet whose hand was mucked goes back (engine/pots.py)",
}
_PLANNED = {
    "R-SHOW-8": "a request to the players, not an obligation: nothing to alert",
    "R-SHOW-9": "running it twice needs several boards per hand (the event log v1 has one)",
    "R-POT-7": "money carried over from a voided hand is not in the event log v1",
}
_STACKS = "how stacks are built and shown (vision of the stack's shape, not only its count)"
_COLOUR_UPS = "colour-ups and chip races (not in the event log)"
_OPERATOR = "operator input from the floor (not in the event log v1)"
_DECK_EVENTS = "the shoe's new-deck and dealer-change reports (device protocol)"
_NOT_OBSERVED = {
    "R-DECK-7": "card damage or marks (vision of the card surface)",
    "R-DECK-8": _DECK_EVENTS,
    "R-DECK-9": _DECK_EVENTS,
    "R-BET-10": "chip denominations in the bet zones",
    "R-BET-12": "chip denominations in the bet zones",
    "R-BET-24": "chip denominations in the bet zones",
    "R-CHIP-1": _STACKS,
    "R-CHIP-2": _STACKS,
    "R-CHIP-3": _STACKS,
    "R-CHIP-4": "chip identity (foreign chips)",
    "R-CHIP-5": _STACKS,
    "R-CASH-1": "banknotes on the table",
    "R-TABLE-6": _OPERATOR,
    "R-TABLE-7": _OPERATOR,
    "R-TABLE-8": "phones and devices (out of scope for the rules engine, catalogue 3.2 #7)",
    "R-HAND-4": "review clips of the alert",
    "R-SHOW-7": "who asked for a hand to be tabled: the order binds only hands not shown of the "
    "player's own will, and the event log has no requests",
    "R-BLIND-9": _OPERATOR,
    "R-BLIND-10": _OPERATOR,
    "R-BLIND-13": _OPERATOR,
    "R-ALLIN-5": _OPERATOR,
    "R-ALLIN-8": _OPERATOR,
    "R-CHIP-8": _COLOUR_UPS,
    "R-COLOR-1": _COLOUR_UPS,
    "R-COLOR-2": _COLOUR_UPS,
    "R-TRAY-4": _COLOUR_UPS,
}


def status(entry: CatalogueEntry) -> tuple[Status, str]:
    """The rule's status and, for a rule not checked, the reason."""
    if entry.id in all_rules():
        return Status.IMPLEMENTED, ""
    if entry.id in _COMPUTED:
        return Status.ENGINE, _COMPUTED[entry.id]
    if entry.id in _NOT_OBSERVED:
        return Status.SENSOR, _NOT_OBSERVED[entry.id]
    if entry.id in _PLANNED:
        return Status.PLANNED, _PLANNED[entry.id]
    games = set(re.findall(r"[A-Z0-9]+", entry.games))
    if games & _OTHER_GAMES and not games & _OUR_GAMES:
        return Status.OTHER_GAME, f"{entry.games} only; the engine plays hold'em and Omaha"
    if "HUMAN" in entry.needs:
        return Status.HUMAN, "the rule leaves the decision to the floor (catalogue 3.2)"
    for code, why in _MISSING_SENSORS.items():
        if code in entry.needs:
            return Status.SENSOR, why
    if not entry.needs:
        return Status.PLANNED, "procedure with nothing to observe, or a definition"
    return Status.PLANNED, ""


def table() -> list[tuple[CatalogueEntry, Status, str]]:
    return [(entry, *status(entry)) for entry in CATALOGUE.values()]
