"""The host session without a port: the hello, lost frames, duplicates, lost-for-good gaps."""

from __future__ import annotations

from devices.framing import Decoder, Frame
from devices.host import HostSession
from devices.messages import (
    CardDrawnMsg,
    DeviceKind,
    Error,
    ErrorCode,
    Hello,
    Message,
    Resend,
    parse,
)
from engine.inputs import CardDrawn, DeviceHealth


def card(seq: int) -> Frame:
    message = CardDrawnMsg(shoe_seq=seq + 1, deck_id=1, tag_id=seq, card=b"As")
    return Frame(message.TYPE, seq, message.pack())


def hello(next_seq: int, oldest: int, boot: int = 1) -> Frame:
    message = Hello(
        kind=1, boot_id=boot, next_seq=next_seq, oldest_kept=oldest, device_id="S", firmware="1"
    )
    return Frame(message.TYPE, (next_seq - 1) % 65536, message.pack())


def sent(data: bytearray) -> list[Message]:
    return [parse(f.type, f.payload) for f in Decoder().feed(bytes(data))]


def test_frames_before_the_hello_wait_for_it_and_lost_ones_are_asked_for() -> None:
    host = HostSession("shoe", DeviceKind.SHOE)
    host.connected(0)
    early = host.receive([card(2), card(3)], 1)  # 0 and 1 were lost on the line
    assert early.inputs == []
    out = host.receive([hello(next_seq=4, oldest=0)], 2)
    assert Resend(first=0, last=1) in sent(out.data)
    out = host.receive([card(0), card(1)], 3)
    assert [i.shoe_seq for i in out.inputs if isinstance(i, CardDrawn)] == [1, 2, 3, 4]


def test_a_duplicate_is_dropped_and_a_gone_range_is_reported_then_skipped() -> None:
    host = HostSession("shoe", DeviceKind.SHOE)
    host.connected(0)
    host.receive([hello(next_seq=0, oldest=0)], 1)
    host.receive([card(0), card(0)], 2)
    out = host.receive([card(3)], 3)
    assert Resend(first=1, last=2) in sent(out.data)
    gone = Error(code=ErrorCode.GONE, first=1, last=2, text="gone")
    out = host.receive([Frame(gone.TYPE, 3, gone.pack())], 4)
    health = [i for i in out.inputs if isinstance(i, DeviceHealth)]
    assert health[0].missing_seqs == (1, 2)
    assert [i.shoe_seq for i in out.inputs if isinstance(i, CardDrawn)] == [4]
    assert host.receiver.duplicates == 1
