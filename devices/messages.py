"""The messages of the three device protocols and their payloads (docs/protocols.md).

Every message is a frozen dataclass with a type code; ``pack`` gives its payload bytes and
``unpack`` reads one back, raising ``MessageError`` (never anything else) on a bad payload.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar


class MessageError(ValueError):
    """A frame whose payload does not fit its type."""


def _text(value: str) -> bytes:
    data = value.encode("utf-8")[:255]
    return bytes([len(data)]) + data


def _read_text(payload: bytes, offset: int) -> tuple[str, int]:
    if offset >= len(payload):
        raise MessageError("text length missing")
    size = payload[offset]
    data = payload[offset + 1 : offset + 1 + size]
    if len(data) != size:
        raise MessageError("text cut short")
    return data.decode("utf-8", errors="replace"), offset + 1 + size


@dataclass(frozen=True, slots=True)
class Message:
    TYPE: ClassVar[int] = 0
    RELIABLE: ClassVar[bool] = False
    """Sent with a new sequence number, kept until acknowledged and resent if need be."""
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct("")

    def pack(self) -> bytes:
        assert self.FORMAT is not None
        names: tuple[str, ...] = self.__slots__
        return self.FORMAT.pack(*(getattr(self, name) for name in names))

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        assert cls.FORMAT is not None
        if len(payload) != cls.FORMAT.size:
            raise MessageError(
                f"{cls.__name__} payload is {len(payload)} bytes, not {cls.FORMAT.size}"
            )
        return cls(*cls.FORMAT.unpack(payload))


# --- common ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HelloRequest(Message):
    TYPE: ClassVar[int] = 0x01


class DeviceKind:
    SHOE = 1
    TRAY = 2
    LIGHT = 3
    NAMES: ClassVar[dict[int, str]] = {1: "shoe", 2: "tray", 3: "light"}


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Device identity, firmware, and where its reliable sequence stands."""

    TYPE: ClassVar[int] = 0x02
    FORMAT: ClassVar[struct.Struct | None] = None
    kind: int
    boot_id: int
    next_seq: int
    oldest_kept: int
    """The oldest sequence number still in the device's resend buffer."""
    device_id: str
    firmware: str

    def pack(self) -> bytes:
        head = struct.pack(">BIHH", self.kind, self.boot_id, self.next_seq, self.oldest_kept)
        return head + _text(self.device_id) + _text(self.firmware)

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        if len(payload) < 9:
            raise MessageError("Hello payload too short")
        kind, boot_id, next_seq, oldest = struct.unpack_from(">BIHH", payload)
        device_id, offset = _read_text(payload, 9)
        firmware, _ = _read_text(payload, offset)
        return cls(kind, boot_id, next_seq, oldest, device_id, firmware)


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    """Carries the sender's last reliable sequence number as the frame's seq."""

    TYPE: ClassVar[int] = 0x03
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">I")
    uptime_ms: int


@dataclass(frozen=True, slots=True)
class Ack(Message):
    """Everything up to and including ``seq`` arrived."""

    TYPE: ClassVar[int] = 0x04
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">H")
    seq: int


@dataclass(frozen=True, slots=True)
class Resend(Message):
    TYPE: ClassVar[int] = 0x05
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">HH")
    first: int
    last: int


class ErrorCode:
    UNKNOWN_TYPE = 1
    BAD_PAYLOAD = 2
    GONE = 3
    """A resend was asked for frames the device no longer keeps."""


@dataclass(frozen=True, slots=True)
class Error(Message):
    TYPE: ClassVar[int] = 0x06
    FORMAT: ClassVar[struct.Struct | None] = None
    code: int
    first: int
    last: int
    text: str

    def pack(self) -> bytes:
        return struct.pack(">BHH", self.code, self.first, self.last) + _text(self.text)

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        if len(payload) < 5:
            raise MessageError("Error payload too short")
        code, first, last = struct.unpack_from(">BHH", payload)
        text, _ = _read_text(payload, 5)
        return cls(code, first, last, text)


# --- shoe -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardDrawnMsg(Message):
    TYPE: ClassVar[int] = 0x10
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">IIQ2s")
    shoe_seq: int
    deck_id: int
    tag_id: int
    card: bytes


@dataclass(frozen=True, slots=True)
class ShoeLoadedMsg(Message):
    TYPE: ClassVar[int] = 0x11
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">IB")
    deck_id: int
    cards: int


@dataclass(frozen=True, slots=True)
class CardUnreadableMsg(Message):
    TYPE: ClassVar[int] = 0x12
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">II")
    shoe_seq: int
    deck_id: int


@dataclass(frozen=True, slots=True)
class SensorFault(Message):
    TYPE: ClassVar[int] = 0x13
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = None
    code: int
    text: str

    def pack(self) -> bytes:
        return bytes([self.code]) + _text(self.text)

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        if not payload:
            raise MessageError("SensorFault payload empty")
        text, _ = _read_text(payload, 1)
        return cls(payload[0], text)


# --- tray -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Inventory(Message):
    TYPE: ClassVar[int] = 0x20
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = None
    requested: bool
    counts: tuple[tuple[int, int], ...]
    """(denomination, chips) pairs."""

    def pack(self) -> bytes:
        out = bytes([1 if self.requested else 0, len(self.counts)])
        return out + b"".join(struct.pack(">IH", d, n) for d, n in self.counts)

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        if len(payload) < 2 or len(payload) != 2 + 6 * payload[1]:
            raise MessageError("Inventory payload does not match its count")
        pairs = tuple(struct.iter_unpack(">IH", payload[2:]))
        return cls(bool(payload[0]), tuple((int(d), int(n)) for d, n in pairs))


@dataclass(frozen=True, slots=True)
class InventoryRequest(Message):
    TYPE: ClassVar[int] = 0x21


@dataclass(frozen=True, slots=True)
class ChipTagsMsg(Message):
    TYPE: ClassVar[int] = 0x22
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = None
    denomination: int
    tag_ids: tuple[int, ...]

    def pack(self) -> bytes:
        head = struct.pack(">IB", self.denomination, len(self.tag_ids))
        return head + b"".join(struct.pack(">Q", t) for t in self.tag_ids)

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        if len(payload) < 5 or len(payload) != 5 + 8 * payload[4]:
            raise MessageError("ChipTags payload does not match its count")
        (denomination,) = struct.unpack_from(">I", payload)
        tags = tuple(int(t) for (t,) in struct.iter_unpack(">Q", payload[5:]))
        return cls(int(denomination), tags)


LID_STATES = {0: "closed", 1: "open", 2: "tamper"}


@dataclass(frozen=True, slots=True)
class Lid(Message):
    TYPE: ClassVar[int] = 0x23
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">B")
    state: int


# --- light ----------------------------------------------------------------------------------

COLOURS = {0: "off", 1: "green", 2: "amber", 3: "red", 4: "blue"}
PATTERNS = {0: "off", 1: "steady", 2: "slow", 3: "fast", 4: "double"}
OFFLINE_LOOK = (4, 2)
"""What the light shows by itself when the host's heartbeats stop: blue, slow blink."""


@dataclass(frozen=True, slots=True)
class SetLight(Message):
    TYPE: ClassVar[int] = 0x30
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">BB")
    colour: int
    pattern: int


@dataclass(frozen=True, slots=True)
class LightStateMsg(Message):
    TYPE: ClassVar[int] = 0x31
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct | None] = struct.Struct(">BBB")
    colour: int
    pattern: int
    offline: int


@dataclass(frozen=True, slots=True)
class ButtonPressed(Message):
    TYPE: ClassVar[int] = 0x32
    RELIABLE: ClassVar[bool] = True


MESSAGES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        HelloRequest,
        Hello,
        Heartbeat,
        Ack,
        Resend,
        Error,
        CardDrawnMsg,
        ShoeLoadedMsg,
        CardUnreadableMsg,
        SensorFault,
        Inventory,
        InventoryRequest,
        ChipTagsMsg,
        Lid,
        SetLight,
        LightStateMsg,
        ButtonPressed,
    )
}


def parse(kind: int, payload: bytes) -> Message:
    """The message of a frame; ``MessageError`` for an unknown type or a bad payload."""
    cls = MESSAGES.get(kind)
    if cls is None:
        raise MessageError(f"unknown message type 0x{kind:02x}")
    try:
        return cls.unpack(payload)
    except struct.error as exc:
        raise MessageError(f"{cls.__name__}: {exc}") from None
