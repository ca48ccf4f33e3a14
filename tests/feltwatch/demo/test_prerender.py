"""The demo session rendered on every core: stretches of frames rendered apart, in any process,
and joined by copying their packets."""

from __future__ import annotations

from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from feltwatch.demo.prerender import join, render_stretch
from models.synth.session import DemoSession


def _packets(path: Path) -> list[bytes]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return [bytes(p) for p in container.demux(stream) if p.size]


def test_stretches_rendered_apart_are_joined_frame_for_frame(tmp_path: Path) -> None:
    session = DemoSession(seed=7, hands=1)
    # Frames 300 to 340: the dealer is pitching the hole cards, so consecutive frames differ.
    parts = [
        render_stretch(session, tmp_path / "a.avi", 300, 317),
        render_stretch(session, tmp_path / "b.avi", 317, 340),
    ]
    assert join(parts, tmp_path / "joined.avi") == 40
    joined = _packets(tmp_path / "joined.avi")
    assert joined == _packets(parts[0]) + _packets(parts[1])  # copied, not encoded again
    assert len(set(joined)) > 20
    # Each frame is the renderer's (within the JPEG encoding), in order.
    truth = {f.index: f.image for f in session.frames_of(draw=lambda i: 300 <= i < 340)}
    capture = cv2.VideoCapture(str(tmp_path / "joined.avi"))
    for index in range(300, 340):
        ok, image = capture.read()
        assert ok, index
        assert np.abs(image.astype(np.int16) - truth[index]).mean() < 4, index
    assert not capture.read()[0]
    capture.release()
    # A stretch is the same file whichever process renders it, and whatever came before.
    again = render_stretch(session, tmp_path / "again.avi", 317, 340)
    assert _packets(again) == _packets(parts[1])


def test_a_stretch_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.avi"
    broken.write_bytes(b"not a video")
    with pytest.raises(OSError, match=r"joined\.avi"):
        join([broken], tmp_path / "joined.avi")
