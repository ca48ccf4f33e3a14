"""The demo's hands exported as PHH come back: our replay and pokerkit's own state machine (with
the house's rake: a percentage of the pot rounded down, capped, no flop no drop) play every hand
to the finishing stacks the export wrote, and a ``.phhs`` of several hands reads back whole."""

from __future__ import annotations

import dataclasses
import warnings
from decimal import ROUND_FLOOR, Decimal
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from pokerkit import HandHistory

from engine.core import EngineCore
from engine.observations import EngineInput
from engine.phh import dump_histories, from_events, split_hands
from engine.phh_replay import replay_files
from feltwatch.demo.frames import CAMERA, observed_truth, shoe_reads
from models.synth.session import DemoSession

HANDS = 12
"""The demo's whole session (the seed puts its irregularities in hands 2, 4, 7 and 12)."""


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    session = DemoSession(seed=7, hands=HANDS)
    inputs: list[EngineInput] = [*observed_truth(session), *shoe_reads(session)]
    inputs.sort(key=lambda i: i.ts_ns)
    core = EngineCore(session.table, button=1, camera=CAMERA)
    events = [event for item in inputs for event in core.feed(item).events]
    histories = [from_events(config, hand) for config, hand in split_hands(events)]
    assert len(histories) == HANDS
    path = tmp_path_factory.mktemp("export") / "demo.phhs"
    path.write_text(dump_histories(histories))
    return path


def test_every_exported_hand_replays_to_its_finishing_stacks(exported: Path) -> None:
    summary = replay_files([exported])
    assert summary.hands == HANDS
    assert [o.problem for o in summary.outcomes if not o.reproduced] == []


def house_rake(
    amount: int, state: Any, *, pct: Decimal, cap: int, no_drop: bool
) -> tuple[int, int]:
    if no_drop and not any(state.board_cards):
        return 0, amount
    raked = int((Decimal(amount) * pct / 100).to_integral_value(rounding=ROUND_FLOOR))
    raked = min(raked, cap) if cap else raked
    return raked, amount - raked


def test_pokerkit_plays_every_exported_hand_to_its_finishing_stacks(exported: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of every user-defined field
        hands = list(HandHistory.loads_all(exported.read_text()))
    assert len(hands) == HANDS
    killed = 0
    for hand in hands:
        fields = hand.user_defined_fields
        killed += "_tabled_then_killed" in fields
        rake = partial(house_rake, pct=Decimal(fields["_rake_percentage"]),
                       cap=fields["_rake_cap"], no_drop=fields["_no_flop_no_drop"])  # fmt: skip
        final = list(dataclasses.replace(hand, rake=rake))[-1]
        assert not final.status
        assert list(final.stacks) == list(hand.finishing_stacks or ()), hand.hand
    assert killed == 1  # hand 2's winner, tabled and killed: written as mucked, kept beside
