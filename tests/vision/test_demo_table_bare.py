"""The committed detector on the demo's table with nothing on it: its rail, betting line and
printed board, burn and muck boxes, each hand's cloth and camera noise. A card or back box
there keeps a tracked card alive after it is gone (the tracker matches weak boxes to its tracks),
so a folded hand never ends and the demo raises alerts nobody injected. The demo's seed and
four seeds it does not play."""

from __future__ import annotations

import numpy as np
import pytest

from models.synth.session import DemoSession
from vision.detector import BACK, FACE
from vision.recognise import Recogniser

SEEDS = (7, 1, 2, 3, 4)
HANDS = 12


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser()


@pytest.mark.parametrize("seed", SEEDS)
def test_no_card_on_the_bare_demo_table(recogniser: Recogniser, seed: int) -> None:
    session = DemoSession(seed=seed, hands=HANDS)
    seen = []
    for hand in session.hands:
        video = session.video(hand)
        bare = np.clip(video.background + video.noise[0], 0, 255).astype(np.uint8)
        seen += [
            (hand.number, s.kind, round(s.conf, 2), tuple(round(v) for v in s.box))
            for s in recogniser.frame(bare)
            if s.kind in (FACE, BACK)
        ]
    assert seen == []
