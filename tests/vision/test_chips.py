"""Chip colour -> denomination from the configured chip set, on drawn and on real chips."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.eval import real_chips
from models.synth.scene import chip_sprite
from vision.chips import (
    DEFAULT_CHIP_SET,
    ChipColour,
    ChipReader,
    ChipSetError,
    chip_set_from_config,
)

POKEVISOR = Path(__file__).resolve().parents[3] / "shared/data/chips-real/PokeVisor/crops"


@pytest.mark.parametrize("chip", DEFAULT_CHIP_SET, ids=lambda c: c.name)
def test_every_drawn_chip_reads_as_its_colour_and_denomination(chip: ChipColour) -> None:
    sprite = np.clip(chip_sprite(chip.name, 40) * 0.8 + 20, 0, 255).astype(np.uint8)  # dimmer
    assert ChipReader().read(sprite) == chip


def test_a_chip_set_comes_from_the_config_and_bad_entries_are_named() -> None:
    chips = chip_set_from_config({"pink": {"bgr": [180, 105, 255], "denomination": 2500}})
    assert chips == (ChipColour("pink", (180, 105, 255), 2500),)
    with pytest.raises(ChipSetError, match=r"chips\.pink"):
        chip_set_from_config({"pink": {"bgr": [1, 2], "denomination": 5}})
    with pytest.raises(ChipSetError, match=r"chips\.red\.denomination"):
        chip_set_from_config({"red": {"bgr": [0, 0, 200], "denomination": 0}})
    with pytest.raises(ChipSetError, match="empty"):
        chip_set_from_config({})


@pytest.mark.skipif(not POKEVISOR.is_dir(), reason="../shared/data is not beside the clone")
def test_real_chips_read_right_once_the_set_is_calibrated_from_other_chips_of_it() -> None:
    """Leave one out: each real photo is read with the colours sampled from the other photos
    (an installer's calibration); the default scheme alone is not enough under real light."""
    result = real_chips()
    assert result["crops"] == 29
    accuracy = result["accuracy_calibrated_leave_one_out"]
    assert isinstance(accuracy, float) and accuracy >= 0.8  # measured 25 / 29
