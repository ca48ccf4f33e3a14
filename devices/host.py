"""The host's side of a device link (sans-IO): frames in, engine inputs and reply bytes out.

It says hello when the link comes up, acknowledges what arrives, asks again for what is missing,
turns each device message into an engine input (``engine.inputs``) and reports the link's
health: connected, stale (silent past its heartbeat), disconnected, and frames lost for good.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from devices.framing import Frame
from devices.messages import (
    COLOURS,
    LID_STATES,
    PATTERNS,
    Ack,
    ButtonPressed,
    CardDrawnMsg,
    CardUnreadableMsg,
    ChipTagsMsg,
    DeviceKind,
    Error,
    ErrorCode,
    Heartbeat,
    Hello,
    HelloRequest,
    Inventory,
    InventoryRequest,
    Lid,
    LightStateMsg,
    Message,
    MessageError,
    Resend,
    SensorFault,
    SetLight,
    ShoeLoadedMsg,
    parse,
)
from devices.reliable import MODULO, Receiver, Sender, distance
from engine.inputs import (
    CardDrawn,
    CardUnreadable,
    ChipTags,
    DeviceHealth,
    DeviceInput,
    LightAcknowledged,
    LightState,
    LinkStatus,
    ShoeLoaded,
    TrayCounted,
    TrayLid,
)

NS = 1_000_000_000


@dataclass(slots=True)
class Output:
    """What the session hands back: inputs for the engine and bytes for the device."""

    inputs: list[DeviceInput] = field(default_factory=list)
    data: bytearray = field(default_factory=bytearray)


class HostSession:
    def __init__(
        self,
        device: str,
        kind: int,
        *,
        heartbeat_s: float = 1.0,
        stale_after_s: float = 3.0,
        resend_after_s: float = 0.5,
    ) -> None:
        self.device = device
        self.kind = kind
        self.heartbeat_ns = int(heartbeat_s * NS)
        self.stale_ns = int(stale_after_s * NS)
        self.resend_ns = int(resend_after_s * NS)
        self.sender = Sender()
        self.receiver = Receiver()
        self.boot_id: int | None = None
        self.identity: dict[str, str] = {}
        self.status = LinkStatus.DISCONNECTED
        self.last_heard_ns = 0
        self.last_sent_ns = 0
        self.last_resend_ns = 0
        self.last_hello_ns = 0
        self.bad_messages = 0
        self.lost: list[int] = []

    # --- link events ------------------------------------------------------------------------

    def connected(self, now_ns: int) -> Output:
        out = Output()
        self.last_heard_ns = now_ns
        self._status(LinkStatus.CONNECTED, "link up", now_ns, out)
        out.data += self.sender.frame(HelloRequest())
        self.last_sent_ns = self.last_hello_ns = now_ns
        return out

    def disconnected(self, now_ns: int, why: str) -> Output:
        out = Output()
        self._status(LinkStatus.DISCONNECTED, why, now_ns, out)
        return out

    def tick(self, now_ns: int) -> Output:
        """Heartbeats, resends of our unacknowledged commands, and the stale watch."""
        out = Output()
        if self.status is LinkStatus.DISCONNECTED:
            return out
        if now_ns - self.last_sent_ns >= self.heartbeat_ns:
            out.data += self.sender.frame(Heartbeat(uptime_ms=(now_ns // 1_000_000) % 2**32))
            self.last_sent_ns = now_ns
        if self.sender.unacked and now_ns - self.last_resend_ns >= self.resend_ns:
            for data in self.sender.pending():
                out.data += data
            self.last_resend_ns = now_ns
        if self.boot_id is None and now_ns - self.last_hello_ns >= self.resend_ns:
            out.data += self.sender.frame(HelloRequest())  # the hello was lost: ask again
            self.last_hello_ns = now_ns
        silent = now_ns - self.last_heard_ns
        if self.status is LinkStatus.CONNECTED and silent > self.stale_ns:
            self._status(LinkStatus.STALE, f"silent for {silent / NS:.1f} s", now_ns, out)
        return out

    def command(self, message: Message, now_ns: int) -> bytes:
        """A command for the device (light state, inventory request)."""
        self.last_sent_ns = now_ns
        self.last_resend_ns = now_ns
        return self.sender.frame(message)

    def set_light(self, colour: str, pattern: str, now_ns: int) -> bytes:
        codes = {name: code for code, name in COLOURS.items()}
        patterns = {name: code for code, name in PATTERNS.items()}
        return self.command(SetLight(colour=codes[colour], pattern=patterns[pattern]), now_ns)

    def request_inventory(self, now_ns: int) -> bytes:
        return self.command(InventoryRequest(), now_ns)

    # --- frames from the device ------------------------------------------------------------

    def receive(self, frames: list[Frame], now_ns: int) -> Output:
        out = Output()
        if not frames:
            return out
        self.last_heard_ns = now_ns
        if self.status is LinkStatus.STALE:
            self._status(LinkStatus.CONNECTED, "heard again", now_ns, out)
        for frame in frames:
            try:
                message = parse(frame.type, frame.payload)
            except MessageError:
                self.bad_messages += 1
                continue
            self._handle(frame, message, now_ns, out)
        return out

    def _handle(self, frame: Frame, message: Message, now_ns: int, out: Output) -> None:
        if isinstance(message, Hello):
            self._hello(message, now_ns, out)
        elif isinstance(message, Heartbeat):
            gap = self.receiver.missing_before(frame.seq)
            if gap is not None:
                self._ask(gap, now_ns, out)
        elif isinstance(message, Ack):
            self.sender.acknowledged(message.seq)
        elif isinstance(message, Error) and message.code == ErrorCode.GONE:
            self._lost(message.first, message.last, now_ns, out)
        elif message.RELIABLE:
            delivered, gap = self.receiver.receive(frame.seq, message)
            for item in delivered:
                self._deliver(item, now_ns, out)
            if gap is not None:
                self._ask(gap, now_ns, out)
            last = self.receiver.last_received
            if last is not None:
                out.data += self.sender.frame(Ack(seq=last))

    def _hello(self, hello: Hello, now_ns: int, out: Output) -> None:
        kind = DeviceKind.NAMES.get(hello.kind, str(hello.kind))
        self.identity = {"kind": kind, "device_id": hello.device_id, "firmware": hello.firmware}
        new_boot = self.boot_id is not None and hello.boot_id != self.boot_id
        if new_boot:
            self._health(f"device restarted (boot {hello.boot_id})", now_ns, out)
        if new_boot or self.receiver.expected is None:
            # Start where the device's buffer starts; frames that came before the hello wait
            # for it, and none of this boot is delivered twice.
            for item in self.receiver.sync(hello.oldest_kept):
                self._deliver(item, now_ns, out)
        self.boot_id = hello.boot_id
        expected = self.receiver.expected
        assert expected is not None
        if distance(hello.oldest_kept, expected) > 0:
            self._lost(expected, (hello.oldest_kept - 1) % MODULO, now_ns, out)
        last_sent = (hello.next_seq - 1) % MODULO
        gap = self.receiver.missing_before(last_sent)
        if gap is not None:
            self._ask(gap, now_ns, out)
        self._health(f"hello from {hello.device_id}, firmware {hello.firmware}", now_ns, out)
        # Our own commands the device may not have: send them again.
        for data in self.sender.pending():
            out.data += data

    def _ask(self, gap: tuple[int, int], now_ns: int, out: Output) -> None:
        out.data += self.sender.frame(Resend(first=gap[0], last=gap[1]))
        self.last_sent_ns = now_ns

    def _lost(self, first: int, last: int, now_ns: int, out: Output) -> None:
        count = distance(last, first) + 1
        missing = tuple((first + i) % MODULO for i in range(max(count, 0)))
        self.lost.extend(missing)
        listed = ", ".join(map(str, missing[:20])) + (" ..." if len(missing) > 20 else "")
        out.inputs.append(
            DeviceHealth(
                ts_ns=now_ns,
                device=self.device,
                status=self.status,
                message=f"{len(missing)} frame(s) lost for good: seq {listed}",
                missing_seqs=missing,
                identity=dict(self.identity),
            )
        )
        for item in self.receiver.skip(first, last):
            self._deliver(item, now_ns, out)

    def _status(self, status: LinkStatus, why: str, now_ns: int, out: Output) -> None:
        if status is self.status:
            return
        self.status = status
        self._health(why, now_ns, out)

    def _health(self, message: str, now_ns: int, out: Output) -> None:
        out.inputs.append(
            DeviceHealth(
                ts_ns=now_ns,
                device=self.device,
                status=self.status,
                message=message,
                identity=dict(self.identity),
            )
        )

    def _deliver(self, message: Message, now_ns: int, out: Output) -> None:
        ts, device = now_ns, self.device
        if isinstance(message, CardDrawnMsg):
            out.inputs.append(
                CardDrawn(
                    ts_ns=ts,
                    device=device,
                    card=message.card.decode("ascii", errors="replace"),
                    tag_id=message.tag_id,
                    shoe_seq=message.shoe_seq,
                    deck_id=message.deck_id,
                )
            )
        elif isinstance(message, ShoeLoadedMsg):
            out.inputs.append(
                ShoeLoaded(ts_ns=ts, device=device, deck_id=message.deck_id, cards=message.cards)
            )
        elif isinstance(message, CardUnreadableMsg):
            out.inputs.append(
                CardUnreadable(
                    ts_ns=ts, device=device, shoe_seq=message.shoe_seq, deck_id=message.deck_id
                )
            )
        elif isinstance(message, SensorFault):
            self._health(f"sensor fault {message.code}: {message.text}", now_ns, out)
        elif isinstance(message, Inventory):
            counts = dict(message.counts)
            out.inputs.append(
                TrayCounted(ts_ns=ts, device=device, counts=counts, requested=message.requested)
            )
        elif isinstance(message, ChipTagsMsg):
            out.inputs.append(
                ChipTags(
                    ts_ns=ts,
                    device=device,
                    denomination=message.denomination,
                    tag_ids=message.tag_ids,
                )
            )
        elif isinstance(message, Lid):
            out.inputs.append(
                TrayLid(ts_ns=ts, device=device, state=LID_STATES.get(message.state, "tamper"))
            )
        elif isinstance(message, ButtonPressed):
            out.inputs.append(LightAcknowledged(ts_ns=ts, device=device))
        elif isinstance(message, LightStateMsg):
            out.inputs.append(
                LightState(
                    ts_ns=ts,
                    device=device,
                    colour=COLOURS.get(message.colour, "off"),
                    pattern=PATTERNS.get(message.pattern, "off"),
                    offline=bool(message.offline),
                )
            )
