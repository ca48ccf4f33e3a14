"""Detector tiles cut from rendered table videos: labels clipped to the tile, objects mostly
outside left out, the rail's ends inside some tiles and never labelled."""

from __future__ import annotations

from pathlib import Path

from models.image_file import read_image
from models.synth.scene import BACK, CARD, CHIP, HAND
from models.synth.table_tiles import TILE_PX, labels_in, write_split
from models.synth.video import Layout, Truth


def test_an_object_is_clipped_to_the_tile_and_one_mostly_outside_is_left_out() -> None:
    objects = (
        Truth("card", "As", "board", (10.0, 10.0, 50.0, 66.0), False),  # whole
        Truth("card_back", "card_back", "seat:1", (300.0, 100.0, 340.0, 156.0), False),  # half in
        Truth("chip", "red", "pot", (310.0, 200.0, 340.0, 230.0), False),  # a third in
        Truth("hand", "hand", "moving", (-100.0, 200.0, 100.0, 400.0), True),  # 30 % in
    )
    lines = [line.split() for line in labels_in(objects, 0, 0).splitlines()]
    assert [int(line[0]) for line in lines] == [CARD, BACK, HAND]
    card, back, hand = ([float(v) * TILE_PX for v in line[1:]] for line in lines)
    assert card == [30.0, 38.0, 40.0, 56.0]
    assert back == [310.0, 128.0, 20.0, 56.0]  # clipped at the tile's right edge
    assert hand == [50.0, 260.0, 100.0, 120.0]
    assert CHIP not in [int(line[0]) for line in lines]


def test_tiles_of_a_rendered_hand_hold_its_objects_and_the_rails_ends(tmp_path: Path) -> None:
    write_split(tmp_path, "train", 24, seed=3)  # one video: 8 frames, 3 tiles each
    images = sorted((tmp_path / "images" / "train").glob("*.jpg"))
    assert len(images) == 24
    classes = set()
    for image in images:
        assert read_image(image).shape == (TILE_PX, TILE_PX, 3)
        for line in (tmp_path / "labels" / "train" / f"{image.stem}.txt").read_text().splitlines():
            cls, *box = line.split()
            classes.add(int(cls))
            x, y, w, h = map(float, box)
            eps = 1e-5  # six decimals
            assert -eps <= x - w / 2 and x + w / 2 <= 1 + eps
            assert -eps <= y - h / 2 and y + h / 2 <= 1 + eps
    assert {BACK, CHIP} <= classes
    ends = Layout().rail_ends()
    assert all(0 < x < 1920 and 0 < y < 1080 for x, y in ends)
