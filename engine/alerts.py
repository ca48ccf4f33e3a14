"""Alerts the engine raises, with the rule id of rules-catalogue.md that they enforce."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Family(StrEnum):
    EXPOSED_CARD = "exposed_card"
    BOXED_CARD = "boxed_card"
    MUCKED_WINNER = "mucked_winner"
    CHIP_MISCOUNT = "chip_miscount"
    BET_SIZING = "other:bet sizing"
    ACTION_ORDER = "other:action order"
    OUT_OF_TURN = "other:out of turn"
    BLINDS = "other:blinds/button"
    PREMATURE_CARD = "other:premature card"
    SEQUENCE = "other:hand sequence"


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


@dataclass(frozen=True, slots=True, kw_only=True)
class Alert:
    hand: str
    seq: int
    """``seq`` of the event that proves the violation."""
    rule: str
    family: Family
    severity: Severity
    seat: int | None
    message: str

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "seq": self.seq,
            "rule": self.rule,
            "family": str(self.family),
            "severity": str(self.severity),
            "seat": self.seat,
            "message": self.message,
        }
