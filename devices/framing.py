"""Frames on the serial line: HDLC-style byte stuffing with a CRC-16 (docs/protocols.md).

    0x7E | escaped(type:u8 seq:u16be payload crc:u16be) | 0x7E

0x7E delimits frames and never appears inside one (0x7E -> 0x7D 0x5E, 0x7D -> 0x7D 0x5D), so
the decoder finds the next frame after any amount of line noise. The CRC is CRC-16/CCITT-FALSE
(polynomial 0x1021, initial value 0xFFFF) over type, seq and payload.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass

FLAG = 0x7E
ESCAPE = 0x7D
MAX_BODY = 1024
"""Longest unescaped body (type + seq + payload + crc); longer runs are line noise."""
_HEADER = struct.Struct(">BH")
_CRC = struct.Struct(">H")


@dataclass(frozen=True, slots=True)
class Frame:
    type: int
    seq: int
    payload: bytes


def crc16(data: bytes) -> int:
    return binascii.crc_hqx(data, 0xFFFF)


def encode(frame: Frame) -> bytes:
    body = _HEADER.pack(frame.type, frame.seq) + frame.payload
    body += _CRC.pack(crc16(body))
    escaped = body.replace(b"\x7d", b"\x7d\x5d").replace(b"\x7e", b"\x7d\x5e")
    return b"\x7e" + escaped + b"\x7e"


@dataclass(slots=True)
class DecoderStats:
    frames: int = 0
    bad_crc: int = 0
    bad_frames: int = 0
    """Runs between flags that cannot be a frame: too short, too long, a bad escape."""
    discarded_bytes: int = 0


class Decoder:
    """Sans-IO: ``feed`` bytes as they arrive, get the complete frames; never raises."""

    def __init__(self) -> None:
        self.stats = DecoderStats()
        self._body = bytearray()
        self._in_frame = False
        self._escaped = False
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        body = self._body
        for byte in data:
            if byte == FLAG:
                if self._in_frame and (body or self._escaped or self._overflow):
                    frame = self._finish()
                    if frame is not None:
                        frames.append(frame)
                self._in_frame = True
                self._escaped = False
                self._overflow = False
                body.clear()
                continue
            if not self._in_frame:
                self.stats.discarded_bytes += 1
                continue
            if self._overflow:
                self.stats.discarded_bytes += 1
                continue
            if self._escaped:
                self._escaped = False
                if byte not in (0x5D, 0x5E):
                    self._fail_frame()
                    continue
                byte ^= 0x20
            elif byte == ESCAPE:
                self._escaped = True
                continue
            body.append(byte)
            if len(body) > MAX_BODY:
                self._fail_frame()
        return frames

    def _fail_frame(self) -> None:
        """Drop the frame being read; wait for the next flag."""
        self.stats.bad_frames += 1
        self.stats.discarded_bytes += len(self._body)
        self._body.clear()
        self._overflow = True

    def _finish(self) -> Frame | None:
        if self._overflow:
            return None  # counted when it failed
        body = bytes(self._body)
        if self._escaped or len(body) < _HEADER.size + _CRC.size:
            self.stats.bad_frames += 1
            self.stats.discarded_bytes += len(body)
            return None
        (crc,) = _CRC.unpack_from(body, len(body) - _CRC.size)
        if crc16(body[: -_CRC.size]) != crc:
            self.stats.bad_crc += 1
            self.stats.discarded_bytes += len(body)
            return None
        kind, seq = _HEADER.unpack_from(body)
        self.stats.frames += 1
        return Frame(kind, seq, body[_HEADER.size : -_CRC.size])
