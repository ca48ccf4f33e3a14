"""Reliable delivery over the frames, the same on both ends of a link (sans-IO).

Each side numbers the reliable messages it sends (16 bits, wrapping) and keeps them until the
other side acknowledges them; unreliable messages (hello, heartbeat, ack, resend) carry the
sender's last reliable number, so a receiver sees a gap even when the lost frame was the last.
The receiver delivers in order, drops duplicates, holds frames that arrive early, and asks for
what is missing.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from devices.framing import Frame, encode
from devices.messages import Message

MODULO = 1 << 16
HALF = MODULO // 2


def distance(later: int, earlier: int) -> int:
    """How far ``later`` is after ``earlier`` in wrapping sequence numbers (negative: before)."""
    d = (later - earlier) % MODULO
    return d - MODULO if d >= HALF else d


@dataclass(slots=True)
class Sender:
    """Numbers outgoing messages and keeps the reliable ones until acknowledged."""

    keep: int = 256
    """How many unacknowledged frames are kept for resending."""
    next_seq: int = 0
    unacked: OrderedDict[int, bytes] = field(default_factory=OrderedDict)
    dropped: int = 0
    """Unacknowledged frames pushed out of the buffer (lost for good if the peer never got them)."""

    @property
    def last_seq(self) -> int:
        return (self.next_seq - 1) % MODULO

    @property
    def oldest_kept(self) -> int:
        return next(iter(self.unacked)) if self.unacked else self.next_seq

    def frame(self, message: Message) -> bytes:
        if not message.RELIABLE:
            return encode(Frame(message.TYPE, self.last_seq, message.pack()))
        seq = self.next_seq
        self.next_seq = (seq + 1) % MODULO
        data = encode(Frame(message.TYPE, seq, message.pack()))
        self.unacked[seq] = data
        while len(self.unacked) > self.keep:
            self.unacked.popitem(last=False)
            self.dropped += 1
        return data

    def acknowledged(self, seq: int) -> None:
        """Everything up to ``seq`` arrived."""
        while self.unacked:
            oldest = next(iter(self.unacked))
            if distance(seq, oldest) < 0:
                break
            self.unacked.popitem(last=False)

    def resend(self, first: int, last: int) -> tuple[list[bytes], tuple[int, int] | None]:
        """The kept frames from ``first`` to ``last``, and the range no longer kept, if any."""
        frames: list[bytes] = []
        gone_first = gone_last = None
        count = distance(last, first) + 1
        for i in range(max(count, 0)):
            seq = (first + i) % MODULO
            data = self.unacked.get(seq)
            if data is None:
                if distance(seq, self.next_seq) < 0:  # sent once, no longer kept
                    gone_first = seq if gone_first is None else gone_first
                    gone_last = seq
            else:
                frames.append(data)
        gone = (gone_first, gone_last) if gone_first is not None and gone_last is not None else None
        return frames, gone

    def pending(self) -> list[bytes]:
        return list(self.unacked.values())


@dataclass(slots=True)
class Receiver:
    """Delivers the peer's reliable messages once each, in order."""

    expected: int | None = None
    early: dict[int, Message] = field(default_factory=dict)
    duplicates: int = 0
    wait_for_sync: bool = True
    """Hold everything until ``sync`` (the host waits for the device's hello); otherwise start
    at the first frame (the device side: the host's numbering starts with its first command)."""

    def sync(self, next_seq: int) -> list[Message]:
        """Start (again) at ``next_seq``; deliver what arrived before and now follows in order."""
        self.expected = next_seq
        self.early = {s: m for s, m in self.early.items() if distance(s, next_seq) >= 0}
        delivered = []
        while self.expected in self.early:
            delivered.append(self.early.pop(self.expected))
            self.expected = (self.expected + 1) % MODULO
        return delivered

    def receive(self, seq: int, message: Message) -> tuple[list[Message], tuple[int, int] | None]:
        """Messages now deliverable in order, and the gap to ask for, if one opened. Before the
        first ``sync`` (the device's hello says where to start) everything waits."""
        if self.expected is None:
            if self.wait_for_sync:
                self.early[seq] = message
                return [], None
            self.expected = seq
        d = distance(seq, self.expected)
        if d < 0 or seq in self.early:
            self.duplicates += 1
            return [], None
        if d > 0:
            self.early[seq] = message
            return [], (self.expected, (seq - 1) % MODULO)
        delivered = [message]
        self.expected = (seq + 1) % MODULO
        while self.expected in self.early:
            delivered.append(self.early.pop(self.expected))
            self.expected = (self.expected + 1) % MODULO
        return delivered, None

    def missing_before(self, last_sent: int) -> tuple[int, int] | None:
        """The range the peer sent up to ``last_sent`` that has not arrived."""
        expected = self.expected
        if expected is None or distance(last_sent, expected) < 0:
            return None
        held = [s for s in self.early if distance(s, expected) > 0]
        if held:  # ask only up to the first frame already held
            first_held = min(held, key=lambda s: distance(s, expected))
            last_sent = (first_held - 1) % MODULO
        return (expected, last_sent)

    def skip(self, first: int, last: int) -> list[Message]:
        """Give up on ``first``..``last`` (lost for good) and deliver what waited behind them."""
        if self.expected is None or distance(last, self.expected) < 0:
            return []
        if distance(first, self.expected) <= 0:
            self.expected = (last + 1) % MODULO
        delivered = []
        while self.expected in self.early:
            delivered.append(self.early.pop(self.expected))
            self.expected = (self.expected + 1) % MODULO
        return delivered

    @property
    def last_received(self) -> int | None:
        return None if self.expected is None else (self.expected - 1) % MODULO
