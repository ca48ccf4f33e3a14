"""A frame as a camera process takes it."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Shot(NamedTuple):
    ts_ns: int
    image: np.ndarray
    """BGR; empty when the demo renders the ground truth only."""
    truth: tuple[object, ...] = ()
    """What the demo table's renderer put in the frame (``models.synth.video.Truth``)."""
