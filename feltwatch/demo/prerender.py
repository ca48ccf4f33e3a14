"""The demo session rendered beforehand to one Motion-JPEG file (``feltwatch demo --prerender``,
the frame-by-frame tests and benchmarks), on every core.

Rendering a 12-hand session takes about 10 minutes on one core (16,000 frames of 1080p). Each
frame is drawn from the scene's state at its index alone, so each hand is rendered to a file of
its own, the hands shared among processes, and the files are joined by copying their JPEG
packets (nothing encoded again). The stretches are the hands whatever the number of processes,
so the file is the same on any machine (the encoder's rate control starts afresh in each
stretch: the first frames of a stretch are encoded a little differently than in the middle of
a longer one).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.synth.session import DemoSession


def video_path(session: DemoSession, folder: Path) -> Path:
    """Where the session's video lies: one file per seed, hands and renderer version (a video
    drawn by an older renderer is not played to the models)."""
    from models.synth.video import RENDERING

    return folder / f"session-{session.seed}-{len(session.hands)}-r{RENDERING}.avi"


def render_stretch(session: DemoSession, path: Path, start: int, stop: int) -> Path:
    """Frames ``start`` to ``stop`` (excluded) of ``session`` written to ``path``; the frames
    before ``start`` move the scene on without being drawn."""
    import cv2

    from models.synth.video import FPS
    from vision.recorder import FOURCC

    writer = cv2.VideoWriter(str(path), FOURCC, FPS, session.layout.frame)
    if not writer.isOpened():
        raise OSError(f"cannot write the demo's video {path}")
    try:
        for frame in session.frames_of(draw=lambda index: start <= index < stop):
            if frame.index >= stop:
                break
            if frame.index >= start:
                writer.write(frame.image)
    finally:
        writer.release()
    return path


def join(parts: list[Path], path: Path) -> int:
    """The frames of ``parts``, in order, copied to ``path`` (their JPEG packets, not decoded);
    the number of frames."""
    import av

    from vision.recorder import append_packet

    frames = 0
    try:
        with av.open(str(path), "w", format="avi") as out:
            target = None
            for part in parts:
                with av.open(str(part)) as container:
                    stream = container.streams.video[0]
                    if target is None:
                        target = out.add_stream_from_template(stream)
                    for packet in container.demux(stream):
                        if not packet.size:  # the flush packet at the end
                            continue
                        append_packet(out, target, packet, frames)
                        frames += 1
    except av.error.FFmpegError as exc:
        raise OSError(f"{path}: {exc}") from exc
    return frames


def prerender(session: DemoSession, folder: Path, jobs: int | None = None) -> Path:
    """The session rendered to a Motion-JPEG file in ``folder``, once per seed, hands and
    renderer, on ``jobs`` processes (default: one per core)."""
    path = video_path(session, folder)
    if path.exists():
        return path
    hands = [(hand.first_frame, hand.first_frame + hand.frames) for hand in session.hands]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(hands)))
    print(f"[demo] rendering the session to {path} (once, {jobs} processes)", flush=True)
    folder.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part.avi")
    stretches = [path.with_suffix(f".hand{k + 1}.avi") for k in range(len(hands))]
    try:
        if jobs == 1:
            for stretch, (start, stop) in zip(stretches, hands, strict=True):
                render_stretch(session, stretch, start, stop)
        else:
            # spawn, not fork: the caller may hold thread pools (OpenCV's, onnxruntime's) that
            # a forked child would inherit locked
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(jobs, mp_context=context) as pool:
                done = [
                    pool.submit(render_stretch, session, stretch, start, stop)
                    for stretch, (start, stop) in zip(stretches, hands, strict=True)
                ]
                for future in done:
                    future.result()
        written = join(stretches, part)
    finally:
        for stretch in stretches:
            stretch.unlink(missing_ok=True)
    if written != session.frames:
        part.unlink(missing_ok=True)
        raise OSError(f"{path}: {written} frames joined, the session has {session.frames}")
    part.replace(path)
    return path
