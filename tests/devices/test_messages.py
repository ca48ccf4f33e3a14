"""Device messages: every type round-trips; any payload gives a message or MessageError."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devices import messages as m
from devices.reliable import Receiver, Sender, distance

EXAMPLES: list[m.Message] = [
    m.HelloRequest(),
    m.Hello(kind=1, boot_id=7, next_seq=12, oldest_kept=3, device_id="SHOE-0042", firmware="2.1"),
    m.Heartbeat(uptime_ms=123456),
    m.Ack(seq=65535),
    m.Resend(first=65530, last=4),
    m.Error(code=m.ErrorCode.GONE, first=3, last=9, text="gone"),
    m.CardDrawnMsg(shoe_seq=1, deck_id=9, tag_id=2**63, card=b"As"),
    m.ShoeLoadedMsg(deck_id=9, cards=52),
    m.CardUnreadableMsg(shoe_seq=5, deck_id=9),
    m.SensorFault(code=2, text="reader coil open"),
    m.Inventory(requested=True, counts=((25, 100), (100, 60), (5000, 4))),
    m.InventoryRequest(),
    m.ChipTagsMsg(denomination=100, tag_ids=(1, 2, 2**40)),
    m.Lid(state=2),
    m.SetLight(colour=3, pattern=3),
    m.LightStateMsg(colour=4, pattern=2, offline=1),
    m.ButtonPressed(),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda x: type(x).__name__)
def test_round_trip(message: m.Message) -> None:
    assert m.parse(message.TYPE, message.pack()) == message


def test_every_type_has_an_example() -> None:
    assert {type(x) for x in EXAMPLES} == set(m.MESSAGES.values())


@given(st.integers(0, 255), st.binary(max_size=80))
def test_any_payload_is_a_message_or_a_message_error(kind: int, payload: bytes) -> None:
    with contextlib.suppress(m.MessageError):
        m.parse(kind, payload)


def test_sequence_numbers_wrap() -> None:
    assert distance(2, 65534) == 4
    assert distance(65534, 2) == -4


def test_receiver_delivers_once_in_order_and_asks_for_gaps() -> None:
    r = Receiver()
    a, b, c = m.Ack(seq=1), m.Ack(seq=2), m.Ack(seq=3)
    assert r.receive(65535, a) == ([], None)  # held until the hello says where to start
    assert r.sync(65535) == [a]
    assert r.receive(65535, a) == ([], None)  # duplicate
    assert r.receive(1, c) == ([], (0, 0))  # early: 0 is missing
    assert r.receive(0, b) == ([b, c], None)
    assert r.duplicates == 1 and r.expected == 2


def test_sender_resends_what_it_keeps_and_says_what_is_gone() -> None:
    s = Sender(keep=2)
    for i in range(4):
        s.frame(m.CardUnreadableMsg(shoe_seq=i, deck_id=1))
    frames, gone = s.resend(0, 3)
    assert len(frames) == 2 and gone == (0, 1) and s.dropped == 2
    s.acknowledged(2)
    assert list(s.unacked) == [3]
