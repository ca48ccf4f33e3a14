"""Alerts the engine raises, each for a rule of rules-catalogue.md."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    INFO = "info"
    """For the surveillance log and review only."""
    WARNING = "warning"
    """The dealer should check and correct."""
    CRITICAL = "critical"
    """Stop the hand: a pot, a deal or the deck is wrong."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Alert:
    hand: str
    seq: int
    """``seq`` of the event that proves the violation (the last of ``evidence``)."""
    rule: str
    family: str
    """``exposed_card``, ``boxed_card``, ``mucked_winner``, ``chip_miscount`` or
    ``other:<topic>``, as the catalogue gives it."""
    severity: Severity
    seat: int | None
    """The seat the alert is about first (see ``seats``)."""
    message: str
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    amounts: Mapping[str, int] = field(default_factory=dict)
    evidence: tuple[int, ...] = ()
    """``seq`` of every event that proves it."""
    unverified: str = ""
    """Why the evidence may be wrong (the camera's view was degraded during the hand): such an
    alert is raised for a person to check, never as critical."""

    def to_json(self) -> dict[str, object]:
        extra: dict[str, object] = {"unverified": self.unverified} if self.unverified else {}
        return {
            "hand": self.hand,
            "seq": self.seq,
            "rule": self.rule,
            "family": self.family,
            "severity": str(self.severity),
            "seat": self.seat,
            "message": self.message,
            "seats": list(self.seats),
            "cards": list(self.cards),
            "amounts": dict(self.amounts),
            "evidence": list(self.evidence),
        } | extra


def alert_id(table: str, alert: Mapping[str, object]) -> str:
    """A stable id for an alert (``Alert.to_json()`` or a row of the alerts file): the same
    alert raised again after a restart, or delivered twice, has the same id."""
    listed = alert.get("cards") or ()
    cards = listed if isinstance(listed, list | tuple) else (listed,)
    key = "|".join(
        str(part)
        for part in (
            table,
            alert["hand"],
            alert["seq"],
            alert["rule"],
            alert.get("seat"),
            ",".join(str(c) for c in cards),
        )
    )
    return hashlib.sha256(key.encode()).hexdigest()[:20]
