"""One row of the rules catalogue."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class CatalogueEntry:
    id: str
    games: str
    needs: tuple[str, ...]
    """Observation codes of the catalogue: FACE, BACK, SHOE, TRAY, CHIPS, DEALER, PLAYER, STATE,
    AUDIO, HUMAN."""
    family: str
    summary: str
    source: str
    """Primary citation: seed file number and section."""
