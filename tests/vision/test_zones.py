"""Calibration and zones: a pixel on a tilted view lands in the right table zone."""

from __future__ import annotations

from typing import Any

import pytest

from vision.zones import ZoneError, ZoneMap

CONFIG: dict[str, Any] = {
    # The surface seen in perspective: the far edge is shorter.
    "corners_px": [[300, 100], [980, 100], [1180, 650], [100, 650]],
    "width_mm": 2000,
    "height_mm": 1000,
    "zones": {
        "board": [[700, 450], [1300, 450], [1300, 750], [700, 750]],
        "seat:1": [[0, 800], [600, 800], [600, 1000], [0, 1000]],
        "muck": [[1500, 300], [1700, 300], [1700, 500], [1500, 500]],
    },
}


def test_corners_map_to_the_table_corners() -> None:
    zones = ZoneMap.from_config(CONFIG)
    mapped = zones.calibration.to_table([(300, 100), (1180, 650)])
    assert mapped[0] == pytest.approx((0, 0), abs=1e-3)
    assert mapped[1] == pytest.approx((2000, 1000), abs=1e-3)


def test_pixels_fall_in_their_zones() -> None:
    zones = ZoneMap.from_config(CONFIG)
    centre = (640, 375)  # maps to (1000, 614) mm: the perspective pulls it past the middle
    assert zones.zone_of(centre) == "board"
    assert zones.zone_of((230, 620)) == "seat:1"
    assert zones.zone_of((640, 110)) is None


def test_a_point_asked_again_gets_the_same_zone_and_the_memo_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Still objects are asked about at every pass: the answers are remembered, up to a bound,
    and agree with the table's geometry (each point mapped to millimetres, in a polygon)."""
    monkeypatch.setattr(ZoneMap, "MEMO_POINTS", 50)
    zones = ZoneMap.from_config(CONFIG)
    points = [(float(x), float(y)) for x in range(100, 1200, 37) for y in range(100, 660, 41)]
    first = [zones.zone_of(p) for p in points]
    assert {"board", "seat:1", "muck", None} <= set(first)
    for point, zone in zip(points, first, strict=True):
        ((x, y),) = zones.calibration.to_table([point])
        inside = [
            name
            for name, polygon in CONFIG["zones"].items()
            if min(p[0] for p in polygon) <= x <= max(p[0] for p in polygon)
            and min(p[1] for p in polygon) <= y <= max(p[1] for p in polygon)
        ]
        assert zone == (inside[0] if inside else None)
    assert [zones.zone_of(p) for p in reversed(points)] == first[::-1]
    assert len(zones._memo) <= 50


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"corners_px": [[0, 0], [1, 0], [1, 1]]}, "expected 4 points"),
        ({"corners_px": [[0, 0], [1, 0], [1, 1], [0, 1]]}, "mark the table corners"),
        ({"zones": {"pot": [[0, 0], [1, 1]]}}, "zones.pot: a zone needs at least 3 points"),
        ({"width_mm": "wide"}, "zone configuration"),
        ({"chip_mm": 0}, "chip_mm: a chip's diameter must be positive"),
    ],
)
def test_bad_configurations_say_what_is_wrong(change: dict[str, object], message: str) -> None:
    with pytest.raises(ZoneError, match=message):
        ZoneMap.from_config({**CONFIG, **change})


def test_a_zone_holds_as_many_chips_side_by_side_as_rows_of_them_fit_in_it() -> None:
    """Chips of 39 mm with a little room between them (41 mm each): the muck's 200 mm square
    takes 4 rows of 4; turned by 30 degrees, the same square takes as many; the board's 600 x
    300 mm, 14 rows of 7; bigger chips fewer."""
    zones = ZoneMap.from_config(CONFIG)
    assert zones.chip_places("muck") == 16
    assert zones.chip_places("board") == 14 * 7
    assert zones.chip_places("pot") is None
    c, s = 0.866, 0.5
    turned = [
        (1000 + 100 * (x * c - y * s), 500 + 100 * (x * s + y * c))
        for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    rotated = ZoneMap.from_config({**CONFIG, "zones": {"muck": turned}})
    assert rotated.chip_places("muck") == 16
    assert ZoneMap.from_config({**CONFIG, "chip_mm": 50}).chip_places("muck") == 9
