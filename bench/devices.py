"""Device links: decoder throughput and the latency from the pty to the engine input.

1. Decoder throughput in frames/s on 20,000 card-drawn frames, against pyserial's own
   ``serial.threaded.FramedPacket`` (start/stop bytes, no stuffing, no CRC) on the same payloads
   in the same run.
2. Latency over a real pty, one card at a time, 10,000 cards: from the moment the simulated shoe
   has written the frame's last byte to the moment the host link hands ``CardDrawn`` to its
   sink; p50 and p99, against a bare pty round trip of the same bytes (write on one end, read on
   the other) measured in the same run.

    .venv/bin/python bench/devices.py [--frames N] [--cards N]
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

# This file is named like the package it measures: import the package, not this script.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]

from serial.threaded import FramedPacket  # noqa: E402

from devices.framing import Decoder, Frame, encode  # noqa: E402
from devices.host import HostSession  # noqa: E402
from devices.link import DeviceLink  # noqa: E402
from devices.messages import CardDrawnMsg, DeviceKind, Message  # noqa: E402
from devices.sim.device import DeviceSession  # noqa: E402
from devices.sim.devices import Shoe  # noqa: E402
from devices.sim.runner import PtyDevice  # noqa: E402
from engine.inputs import CardDrawn, DeviceInput  # noqa: E402


def throughput(frames: int) -> None:
    payloads = [
        CardDrawnMsg(shoe_seq=i, deck_id=1, tag_id=i * 7919, card=b"As").pack()
        for i in range(frames)
    ]
    ours = b"".join(encode(Frame(0x10, i % 65536, p)) for i, p in enumerate(payloads))
    chunks = [ours[i : i + 256] for i in range(0, len(ours), 256)]
    best = float("inf")
    for _ in range(5):
        decoder = Decoder()
        start = time.perf_counter()
        got = 0
        for chunk in chunks:
            got += len(decoder.feed(chunk))
        best = min(best, time.perf_counter() - start)
    assert got == frames

    class Counting(FramedPacket):
        START, STOP = b"(", b")"

        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def handle_packet(self, packet: bytes) -> None:
            self.count += 1

    plain = b"".join(b"(" + p.hex().encode() + b")" for p in payloads)
    peer_chunks = [plain[i : i + 256] for i in range(0, len(plain), 256)]
    peer_best = float("inf")
    for _ in range(5):
        peer = Counting()
        start = time.perf_counter()
        for chunk in peer_chunks:
            peer.data_received(chunk)
        peer_best = min(peer_best, time.perf_counter() - start)
    assert peer.count == frames
    ours_rate, peer_rate = frames / best, frames / peer_best
    print(f"decoder (stuffing + CRC-16)              {ours_rate:12,.0f} frames/s")
    print(f"pyserial FramedPacket (no CRC, no stuffing) {peer_rate:9,.0f} frames/s")
    print(f"ratio decoder / FramedPacket:            {ours_rate / peer_rate:6.2f}x")


def pty_round_trip(samples: int, size: int) -> list[int]:
    master, slave = os.openpty()
    tty.setraw(slave)
    data = b"x" * size
    out = []
    for _ in range(samples):
        start = time.monotonic_ns()
        os.write(master, data)
        got = 0
        while got < size:
            select.select([slave], [], [], 1)
            got += len(os.read(slave, 4096))
        out.append(time.monotonic_ns() - start)
    os.close(master)
    os.close(slave)
    return out


class TimedPty(PtyDevice):
    """The simulator, noting when each card's frame was fully written."""

    written: dict[int, int]

    def _write(self, data: bytes) -> None:
        super()._write(data)
        done = time.monotonic_ns()
        for frame in Decoder().feed(data):
            if frame.type == CardDrawnMsg.TYPE:
                message = CardDrawnMsg.unpack(frame.payload)
                assert isinstance(message, CardDrawnMsg)
                self.written[message.shoe_seq] = done


def latency(cards: int) -> list[int]:
    shoe = Shoe(seed=1)
    sim = TimedPty(shoe, DeviceSession(kind=DeviceKind.SHOE, device_id="BENCH"))
    sim.written = {}
    delivered: dict[int, int] = {}
    arrived = threading.Event()

    def sink(item: DeviceInput) -> None:
        if isinstance(item, CardDrawn):
            delivered[item.shoe_seq] = time.monotonic_ns()
            arrived.set()

    sim.start()
    link = DeviceLink(sim.port, HostSession("shoe", DeviceKind.SHOE), sink).start()

    def draw(now: int) -> list[Message]:
        loaded = [] if shoe.cards else [shoe.load()]  # a new deck every 52 cards
        return [*loaded, *[m for m in [shoe.draw()] if m is not None]]

    for i in range(cards):
        arrived.clear()
        sim.act(draw)
        if not arrived.wait(5):
            raise RuntimeError(f"card {i + 1} never arrived")
    link.stop()
    sim.stop()
    return [delivered[seq] - sim.written[seq] for seq in delivered if seq in sim.written]


def percentile(values: list[int], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))] / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--cards", type=int, default=10_000)
    args = parser.parse_args()
    throughput(args.frames)
    lat = latency(args.cards)
    bare = pty_round_trip(args.cards, len(encode(Frame(0x10, 1, b"x" * 18))))
    print(
        f"pty -> CardDrawn latency over {len(lat):,} cards: p50 {percentile(lat, 50):.0f} us, "
        f"p99 {percentile(lat, 99):.0f} us, mean {statistics.mean(lat) / 1000:.0f} us"
    )
    print(
        f"bare pty write -> read of the same bytes:    p50 {percentile(bare, 50):.0f} us, "
        f"p99 {percentile(bare, 99):.0f} us"
    )
    ratio = percentile(lat, 50) / percentile(bare, 50)
    print(f"ratio latency p50 / bare pty p50:        {ratio:6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
