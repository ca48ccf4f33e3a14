"""The renderer's ground truth as the detector's sightings: what a perfect detector (and a
perfect motion mask: what is carried is ``moving``) would report for a frame. The observer and
everything after it can then be tested, and the demo run, apart from the models' errors
(``feltwatch demo --vision truth``)."""

from __future__ import annotations

from collections.abc import Iterable

from models.synth.video import Truth
from vision.chips import DEFAULT_CHIP_SET
from vision.recognise import Sighting

DENOMINATIONS = {chip.name: chip.denomination for chip in DEFAULT_CHIP_SET}


def sightings(objects: Iterable[Truth]) -> list[Sighting]:
    out = []
    for o in objects:
        if o.kind == "card":
            out.append(Sighting("card", 0.9, o.box, o.name, 0.95, moving=o.moving))
        elif o.kind == "chip":
            denomination = DENOMINATIONS[o.name]
            out.append(
                Sighting(
                    "chip", 0.9, o.box, colour=o.name, denomination=denomination, moving=o.moving
                )
            )
        else:
            out.append(Sighting(o.kind, 0.9, o.box, moving=o.moving))
    return out
