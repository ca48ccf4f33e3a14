"""The standard table layout: where the zones of a poker table are, in table millimetres.

The calibration (``vision.zones``) maps camera pixels to these millimetres; ``feltwatch
calibrate`` writes this layout's zones, for the installer to adjust, into the zone
configuration. Zones: ``seat:N`` (the player's cards), ``bet:N`` (in front of the seat),
``stack:N`` (the player's chips), ``board``, ``pot``, ``burn``, ``muck``, ``shoe``, ``tray``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.zones import CHIP_MM

__all__ = ["CARD_MM", "CHIP_MM", "TableLayout", "overlapping"]

CARD_MM = (63.0, 88.0)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Seats 1..N clockwise from the dealer's left; the dealer at the bottom edge."""

    width_mm: float = 2400.0
    height_mm: float = 1300.0
    seats: int = 6

    def seat_centre(self, seat: int) -> tuple[float, float]:
        """Where a seat's cards go (mm)."""
        angle = math.pi * (0.92 - 0.84 * (seat - 1) / max(1, self.seats - 1))
        cx, cy = self.width_mm / 2, self.height_mm * 0.62
        x = cx + math.cos(angle) * self.width_mm * 0.36
        return x, cy - math.sin(angle) * self.height_mm * 0.39

    def axes(self, zone: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """A zone's two directions (unit vectors, mm): across it, and along the line from its
        seat to the table's centre (for the board, pot, ...: x and y)."""
        _, _, seat = zone.partition(":")
        if not seat:
            return (1.0, 0.0), (0.0, 1.0)
        ux, uy = self._towards_centre(int(seat))
        return (-uy, ux), (ux, uy)

    def _towards_centre(self, seat: int) -> tuple[float, float]:
        x, y = self.seat_centre(seat)
        dx, dy = self.width_mm / 2 - x, self.height_mm * 0.5 - y
        norm = math.hypot(dx, dy) or 1.0
        return dx / norm, dy / norm

    def bet_centre(self, seat: int) -> tuple[float, float]:
        """Where a seat's bets go: towards the pot, clear of its cards."""
        (x, y), (ux, uy) = self.seat_centre(seat), self._towards_centre(seat)
        return x + ux * 175, y + uy * 175

    def stack_centre(self, seat: int) -> tuple[float, float]:
        """Where a seat's chips rest: behind its cards, towards the player."""
        (x, y), (ux, uy) = self.seat_centre(seat), self._towards_centre(seat)
        return x - ux * 180, y - uy * 180

    @property
    def places(self) -> dict[str, tuple[float, float]]:
        w, h = self.width_mm, self.height_mm
        places = {
            "board": (w * 0.5, h * 0.5),
            "pot": (w * 0.5, h * 0.66),
            "burn": (w * 0.63, h * 0.8),
            "muck": (w * 0.37, h * 0.8),
            "shoe": (w * 0.62, h * 0.94),
            "tray": (w * 0.5, h * 0.94),
        }
        for seat in range(1, self.seats + 1):
            places[f"seat:{seat}"] = self.seat_centre(seat)
            places[f"bet:{seat}"] = self.bet_centre(seat)
            places[f"stack:{seat}"] = self.stack_centre(seat)
        return places

    def zones(self) -> dict[str, list[list[float]]]:
        """Zone polygons (mm) for the vision worker's configuration: a seat's cards, bets and
        chips are rectangles along the line from the seat to the table's centre."""
        out = {}
        sizes = {
            "board": (420, 150),
            "pot": (300, 140),
            "burn": (170, 170),
            "muck": (220, 170),
            "shoe": (200, 120),
            "tray": (260, 120),
        }
        # Across: as wide as the seats' spacing allows (9 and 10 seats sit closer together).
        spacing = math.dist(self.seat_centre(1), self.seat_centre(2)) if self.seats > 1 else 400
        across_max = min(100.0, 0.36 * spacing)
        seat_sizes = {
            "seat": (across_max, 80.0),
            "bet": (across_max, 55.0),
            "stack": (across_max, 92.0),
        }
        for name, (x, y) in self.places.items():
            kind, _, seat = name.partition(":")
            if seat:
                across, along = seat_sizes[kind]
                ux, uy = self._towards_centre(int(seat))
            else:
                across, along = (v / 2 for v in sizes[name])
                ux, uy = 0.0, 1.0
            px, py = -uy, ux  # across the seat's line
            out[name] = [
                [
                    round(x + sx * px * across + sy * ux * along, 1),
                    round(y + sx * py * across + sy * uy * along, 1),
                ]
                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
            ]
        return out


def overlapping(zones: dict[str, list[list[float]]]) -> list[tuple[str, str]]:
    """Pairs of zones that overlap (a point in both is given to the first listed)."""
    import cv2
    import numpy as np

    names = list(zones)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            area, _ = cv2.intersectConvexConvex(
                np.array(zones[a], np.float32), np.array(zones[b], np.float32)
            )
            if area > 0:
                out.append((a, b))
    return out
