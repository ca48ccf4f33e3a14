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
}
_STACKS = "chip stacks in front of each seat and colour-ups (not in the event log v1)"
_NOT_OBSERVED = {
    "R-ALLIN-6": _STACKS,
    "R-ALLIN-7": _STACKS,
    "R-CHIP-6": _STACKS,
    "R-CHIP-8": _STACKS,
    "R-COLOR-1": _STACKS,
    "R-COLOR-2": _STACKS,
    "R-TRAY-4": _STACKS,
}


def status(entry: CatalogueEntry) -> tuple[Status, str]:
    """The rule's status and, for a rule not checked, the reason."""
    if entry.id in all_rules():
        return Status.IMPLEMENTED, ""
    if entry.id in _COMPUTED:
        return Status.ENGINE, _COMPUTED[entry.id]
    if entry.id in _NOT_OBSERVED:
        return Status.SENSOR, _NOT_OBSERVED[entry.id]
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
