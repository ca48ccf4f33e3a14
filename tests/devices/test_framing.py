"""The frame decoder: round trips, any delivery, noise, bad CRCs, and fuzzing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devices.framing import Decoder, Frame, crc16, encode

FRAMES = [
    Frame(0x10, 0, b""),
    Frame(0x10, 1, b"\x7e\x7d\x7e"),  # flag and escape bytes inside: stuffed
    Frame(0x20, 65535, bytes(range(256))),
    Frame(0x03, 42, b"heartbeat"),
]
STREAM = b"".join(encode(f) for f in FRAMES)


def test_crc16_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_whole_buffer_and_byte_at_a_time_give_the_same_frames() -> None:
    assert Decoder().feed(STREAM) == FRAMES
    decoder = Decoder()
    got = [frame for i in range(len(STREAM)) for frame in decoder.feed(STREAM[i : i + 1])]
    assert got == FRAMES
    assert decoder.stats.frames == 4 and decoder.stats.bad_crc == 0


def _corrupt(data: bytes, index: int) -> bytes:
    out = bytearray(data)
    out[index] ^= 0x01
    return bytes(out)


good = encode(Frame(0x10, 7, b"card"))
NOISE_MATRIX = [
    ("noise before", b"\x00\xffgarbage" + good, 1, {}),
    ("noise with a flag before", b"ab\x7ecd" + good, 1, {"bad_frames": 1}),
    ("bad crc", _corrupt(good, 5), 0, {"bad_crc": 1}),
    ("bad crc then good", _corrupt(good, 5) + good, 1, {"bad_crc": 1}),
    ("cut short then good", good[:5] + good, 1, {"bad_frames": 1}),
    ("bad escape", b"\x7e\x10\x7d\x11\x00\x00\x7e" + good, 1, {"bad_frames": 1}),
    ("over-long run", b"\x7e" + b"x" * 5000 + good, 1, {"bad_frames": 1}),
    ("empty frames between", b"\x7e\x7e\x7e" + good + b"\x7e\x7e", 1, {}),
]


@pytest.mark.parametrize(
    ("name", "data", "frames", "bad"), NOISE_MATRIX, ids=[m[0] for m in NOISE_MATRIX]
)
def test_noise_and_crc_matrix(name: str, data: bytes, frames: int, bad: dict[str, int]) -> None:
    decoder = Decoder()
    assert len(decoder.feed(data)) == frames
    for field, count in bad.items():
        assert getattr(decoder.stats, field) == count, name


@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    decoder = Decoder()
    decoder.feed(data)
    for i in range(0, len(data), 7):
        decoder.feed(data[i : i + 7])


frames_strategy = st.lists(
    st.builds(Frame, st.integers(0, 255), st.integers(0, 65535), st.binary(max_size=64)),
    min_size=1,
    max_size=8,
)


@given(
    frames_strategy, st.lists(st.binary(max_size=40), min_size=9, max_size=9), st.integers(1, 64)
)
def test_valid_frames_among_garbage_are_all_recovered(
    frames: list[Frame], garbage: list[bytes], chunk: int
) -> None:
    data = bytearray(garbage[0])
    for frame, noise in zip(frames, garbage[1:], strict=False):
        data += encode(frame) + noise
    decoder = Decoder()
    got = [f for i in range(0, len(data), chunk) for f in decoder.feed(bytes(data[i : i + chunk]))]
    it = iter(got)
    assert all(any(frame == g for g in it) for frame in frames), "every valid frame, in order"
