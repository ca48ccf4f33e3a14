"""The device's side of a link (sans-IO): what every simulator shares.

It answers hello, numbers and keeps its reliable messages until acknowledged, resends them on
request (or says they are gone), sends heartbeats, and delivers the host's commands once each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from devices.framing import Frame
from devices.messages import (
    Ack,
    Error,
    ErrorCode,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    MessageError,
    Resend,
    parse,
)
from devices.reliable import Receiver, Sender

NS = 1_000_000_000


@dataclass(slots=True)
class DeviceSession:
    kind: int
    device_id: str
    firmware: str = "sim-1.0"
    boot_id: int = 1
    heartbeat_ns: int = NS
    resend_ns: int = NS // 2
    keep: int = 256
    sender: Sender = field(init=False)
    receiver: Receiver = field(default_factory=lambda: Receiver(wait_for_sync=False))
    last_host_heard_ns: int = 0
    """When a valid frame last came from the host (the light's fail-safe watches it)."""
    last_sent_ns: int = 0
    last_resend_ns: int = 0
    commands: list[Message] = field(default_factory=list)
    """Host commands delivered and not yet taken by the simulator."""

    def __post_init__(self) -> None:
        self.sender = Sender(keep=self.keep)

    def hello(self) -> Hello:
        return Hello(
            kind=self.kind,
            boot_id=self.boot_id,
            next_seq=self.sender.next_seq,
            oldest_kept=self.sender.oldest_kept,
            device_id=self.device_id,
            firmware=self.firmware,
        )

    def send(self, message: Message, now_ns: int) -> bytes:
        self.last_sent_ns = now_ns
        if message.RELIABLE:
            self.last_resend_ns = now_ns
        return self.sender.frame(message)

    def receive(self, frames: list[Frame], now_ns: int) -> bytes:
        out = bytearray()
        if frames:
            self.last_host_heard_ns = now_ns
        for frame in frames:
            try:
                message = parse(frame.type, frame.payload)
            except MessageError as exc:
                code = ErrorCode.UNKNOWN_TYPE if "unknown" in str(exc) else ErrorCode.BAD_PAYLOAD
                out += self.send(
                    Error(code=code, first=frame.seq, last=frame.seq, text=str(exc)), now_ns
                )
                continue
            if isinstance(message, HelloRequest):
                out += self.send(self.hello(), now_ns)
                for data in self.sender.pending():
                    out += data
            elif isinstance(message, Heartbeat):
                pass  # the host is alive: noted above for every frame
            elif isinstance(message, Ack):
                self.sender.acknowledged(message.seq)
            elif isinstance(message, Resend):
                frames_back, gone = self.sender.resend(message.first, message.last)
                if gone is not None:
                    text = f"frames {gone[0]}..{gone[1]} are no longer kept"
                    out += self.send(
                        Error(code=ErrorCode.GONE, first=gone[0], last=gone[1], text=text), now_ns
                    )
                for data in frames_back:
                    out += data
            elif message.RELIABLE:
                delivered, _ = self.receiver.receive(frame.seq, message)
                self.commands.extend(delivered)
                last = self.receiver.last_received
                if last is not None:
                    out += self.send(Ack(seq=last), now_ns)
            else:
                self.commands.append(message)
        return bytes(out)

    def tick(self, now_ns: int) -> bytes:
        out = bytearray()
        if now_ns - self.last_sent_ns >= self.heartbeat_ns:
            out += self.send(Heartbeat(uptime_ms=(now_ns // 1_000_000) % 2**32), now_ns)
        if self.sender.unacked and now_ns - self.last_resend_ns >= self.resend_ns:
            for data in self.sender.pending():
                out += data
            self.last_resend_ns = now_ns
        return bytes(out)
