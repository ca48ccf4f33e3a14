"""Engine inputs round-trip through journal lines; bad lines are named, never crash."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.inputs import CardDrawn, DeviceHealth, LinkStatus, TrayCounted
from engine.observations import (
    CardAppeared,
    CardMoved,
    ChipsInZone,
    DealerHand,
    EngineInput,
    Face,
)
from feltwatch.appliance.journal_codec import INPUT_TYPES, JournalError, decode, encode

EXAMPLES = [
    CardDrawn(ts_ns=5, device="shoe", card="As", tag_id=7, shoe_seq=3, deck_id=1),
    TrayCounted(ts_ns=6, device="tray", counts={25: 40, 100: 3}, requested=True),
    DeviceHealth(
        ts_ns=7,
        device="shoe",
        status=LinkStatus.STALE,
        message="quiet",
        missing_seqs=(4, 5),
        identity={"id": "S1"},
    ),
    CardAppeared(ts_ns=8, camera="c", track=3, zone="seat:1", face=Face.UP, card="Kd", conf=0.9),
    CardMoved(
        ts_ns=8,
        camera="c",
        track=3,
        source="seat:1",
        zone="muck",
        face=Face.DOWN,
        card=None,
        conf=0.5,
    ),
    ChipsInZone(ts_ns=9, camera="c", zone="pot", counts={25: 2, 5: 1}),
    DealerHand(ts_ns=10, camera="c", present=True, zone="pot"),
]


@pytest.mark.parametrize("item", EXAMPLES, ids=lambda i: type(i).__name__)
def test_every_kind_of_input_round_trips_with_its_types(item: EngineInput) -> None:
    line = encode(item)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    back = decode(line)
    assert back == item and type(back) is type(item)


def test_the_registry_holds_every_device_input_and_observation() -> None:
    assert {"CardDrawn", "TrayCounted", "LightAcknowledged", "DeviceHealth"} <= set(INPUT_TYPES)
    assert {
        "CardAppeared",
        "CardMoved",
        "CardTurned",
        "CardGone",
        "ChipsInZone",
        "DealerHand",
    } <= set(INPUT_TYPES)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"{", "not JSON"),
        (b"[1]", "not a JSON object"),
        (b'{"v": 2, "type": "CardDrawn"}', "v: schema 2 is not 1"),
        (b'{"v": 1, "type": "Teleport"}', "type: unknown input type 'Teleport'"),
        (b'{"v": 1, "type": "CardDrawn", "ts_ns": 1, "device": "shoe"}', "CardDrawn.card: missing"),
        (
            b'{"v": 1, "type": "TrayCounted", "ts_ns": 1, "device": "t", "counts": {"x": 1}}',
            "TrayCounted.counts: key 'x' is not an integer",
        ),
        (
            b'{"v": 1, "type": "ChipsInZone", "ts_ns": "1", "camera": "c", "zone": "p",'
            b' "counts": {}}',
            "ChipsInZone.ts_ns: expected an integer",
        ),
        (
            b'{"v": 1, "type": "DealerHand", "ts_ns": 1, "camera": "c", "present": "yes",'
            b' "zone": "p"}',
            "DealerHand.present: expected true or false",
        ),
        (
            b'{"v": 1, "type": "CardAppeared", "ts_ns": 1, "camera": "c", "track": 1, "zone": "z",'
            b' "face": "sideways", "card": null, "conf": 1}',
            "CardAppeared.face: 'sideways'",
        ),
    ],
)
def test_bad_lines_name_what_is_wrong(line: bytes, message: str) -> None:
    with pytest.raises(JournalError, match=message.replace("(", r"\(").replace(")", r"\)")):
        decode(line)


@given(st.binary(max_size=200))
def test_no_line_noise_crashes_the_reader(noise: bytes) -> None:
    with contextlib.suppress(JournalError):
        decode(noise)


def test_only_engine_inputs_are_journalled() -> None:
    with pytest.raises(TypeError, match="not an engine input"):
        encode(object())  # type: ignore[arg-type]  # what the test feeds it
