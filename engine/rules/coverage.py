"""Which catalogue rules the engine checks, and why the others are not checked."""

from __future__ import annotations

import re
from enum import StrEnum

from engine.rules.catalogue import CATALOGUE
from engine.rules.entry import CatalogueEntry
from engine.rules.registry import all_rules


class Status(StrEnum):
    IMPLEMENTED = "implemented"
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


def status(entry: CatalogueEntry) -> tuple[Status, str]:
    """The rule's status and, for a rule not checked, the reason."""
    if entry.id in all_rules():
        return Status.IMPLEMENTED, ""
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
