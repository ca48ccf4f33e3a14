"""Rolling recording of one camera: segments of ``segment_s`` seconds (Motion-JPEG in AVI, which
OpenCV writes everywhere), each with the capture time of every frame in a sidecar index, the
oldest deleted to keep the camera within its disk budget.

    <dir>/<camera>/<start_ns>.part.avi   the segment being written (and its .ts index)
    <dir>/<camera>/<start_ns>.avi         closed segments; <start_ns>.ts: one ts_ns per frame

Clips are cut from closed segments (``copy_between`` copies the JPEG frames of a moment into a
clip file without decoding them; ``frames_between`` decodes them). A disk that fills up or
fails stops the recording with the reason in ``error`` (the camera keeps watching) and it
starts again with the next segment once there is room.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import av
import cv2
import numpy as np

FOURCC = cv2.VideoWriter.fourcc(*"MJPG")
MIN_FREE_BYTES = 200_000_000
"""Below this much free space a new segment is not started (the oldest are deleted first)."""


def _bytes_free(path: Path) -> int:
    return shutil.disk_usage(path).free


@dataclass(frozen=True, slots=True)
class Segment:
    start_ns: int
    video: Path
    index: Path

    @property
    def closed(self) -> bool:
        return not self.video.name.endswith(".part.avi")

    def times(self) -> list[int]:
        try:
            return [int(line) for line in self.index.read_text().split()]
        except (OSError, ValueError):
            return []

    def size(self) -> int:
        total = 0
        for path in (self.video, self.index):
            with contextlib.suppress(OSError):
                total += path.stat().st_size
        return total


def segments(folder: Path) -> list[Segment]:
    """The camera's segments, oldest first (closed and the one being written)."""
    out = []
    for video in folder.glob("*.avi"):
        stem = video.name.removesuffix(".avi").removesuffix(".part")
        if stem.isdigit():
            out.append(Segment(int(stem), video, folder / f"{stem}.ts"))
    return sorted(out, key=lambda s: s.start_ns)


class Recorder:
    def __init__(
        self,
        folder: Path,
        *,
        segment_s: float,
        budget_bytes: int,
        fps: float = 5.0,
        bytes_free: Callable[[Path], int] = _bytes_free,
    ) -> None:
        self.folder = folder
        self.segment_ns = int(segment_s * 1e9)
        self.budget_bytes = budget_bytes
        self.frame_ns = int(1e9 / fps)
        self.fps = fps
        self.bytes_free = bytes_free
        self.error = ""
        """Why the recording is stopped (empty while it records)."""
        self.deleted = 0
        """Segments deleted to stay within the budget."""
        self._writer: cv2.VideoWriter | None = None
        self._index: TextIO | None = None
        self._segment: Segment | None = None
        self._last_ns: int | None = None
        self._failed_at: int | None = None

    def add(self, image: np.ndarray, ts_ns: int) -> None:
        """Record a frame (at most ``fps`` a second are kept)."""
        if image.size == 0 or (self._last_ns is not None and ts_ns - self._last_ns < self.frame_ns):
            return
        segment = self._segment
        if segment is None or ts_ns - segment.start_ns >= self.segment_ns:
            self.close()
            if self._failed_at is not None and ts_ns - self._failed_at < self.segment_ns:
                return  # wait a segment's length before trying the disk again
            if not self._open(image, ts_ns):
                self._failed_at = ts_ns
                return
            self._failed_at = None
        assert self._writer is not None and self._index is not None
        try:
            self._writer.write(image)
            self._index.write(f"{ts_ns}\n")
            self._index.flush()
        except OSError as exc:
            self._stop(f"{self.folder}: cannot write: {exc.strerror or exc}")
            self._failed_at = ts_ns
            return
        self._last_ns = ts_ns

    def _open(self, image: np.ndarray, ts_ns: int) -> bool:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._enforce_budget(keep_free=True)
            if self.bytes_free(self.folder) < MIN_FREE_BYTES:
                self.error = f"{self.folder}: disk full: recording stopped until there is room"
                return False
            video = self.folder / f"{ts_ns}.part.avi"
            index = self.folder / f"{ts_ns}.ts"
            h, w = image.shape[:2]
            writer = cv2.VideoWriter(str(video), FOURCC, self.fps, (w, h))
            if not writer.isOpened():
                self.error = f"{video}: cannot open a video file for writing"
                return False
            self._index = index.open("w")
        except OSError as exc:
            self.error = f"{self.folder}: cannot record: {exc.strerror or exc}"
            return False
        self._writer = writer
        self._segment = Segment(ts_ns, video, index)
        self.error = ""
        return True

    def _stop(self, why: str) -> None:
        self.close()
        self.error = why

    def close(self) -> None:
        """Close the segment being written (it becomes available to clips)."""
        segment, self._segment = self._segment, None
        if self._writer is not None:
            self._writer.release()
            self._writer = None
        if self._index is not None:
            with contextlib.suppress(OSError):
                self._index.close()
            self._index = None
        if segment is not None:
            with contextlib.suppress(OSError):
                segment.video.replace(segment.video.with_name(f"{segment.start_ns}.avi"))
        self._enforce_budget(keep_free=False)

    def _enforce_budget(self, *, keep_free: bool) -> None:
        closed = [s for s in segments(self.folder) if s.closed]
        total = sum(s.size() for s in closed)
        while closed and (
            total > self.budget_bytes
            or (keep_free and self.bytes_free(self.folder) < MIN_FREE_BYTES)
        ):
            oldest = closed.pop(0)
            total -= oldest.size()
            for path in (oldest.video, oldest.index):
                with contextlib.suppress(OSError):
                    path.unlink()
            self.deleted += 1


def _recorded(
    folder: Path, start_ns: int, end_ns: int
) -> Iterator[tuple[int, av.Packet[av.video.stream.VideoStream], av.video.stream.VideoStream]]:
    """The recorded frames with capture times in [start_ns, end_ns], from closed segments, as
    the JPEG packets of their files (demultiplexed, not decoded) with the stream of each. A
    segment that cannot be read any further (cut short by a power cut) gives what it has."""
    for segment in segments(folder):
        if not segment.closed:
            continue
        times = segment.times()
        if not times or times[-1] < start_ns or times[0] > end_ns:
            continue
        try:
            with av.open(str(segment.video)) as container:
                stream = container.streams.video[0]
                packets = (p for p in container.demux(stream) if p.size)  # no flush packets
                for ts_ns, packet in zip(times, packets, strict=False):
                    if ts_ns > end_ns:
                        break
                    if ts_ns >= start_ns:
                        yield ts_ns, packet, stream
        except (av.error.FFmpegError, OSError, IndexError):
            continue


def _decoded(jpeg: bytes) -> np.ndarray | None:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    return image if isinstance(image, np.ndarray) else None


def frames_between(folder: Path, start_ns: int, end_ns: int) -> Iterator[tuple[int, np.ndarray]]:
    """The recorded frames with capture times in [start_ns, end_ns], from closed segments
    (only those are decoded)."""
    for ts_ns, packet, _ in _recorded(folder, start_ns, end_ns):
        image = _decoded(bytes(packet))
        if image is not None:
            yield ts_ns, image


def append_packet(
    out: av.container.OutputContainer,
    target: av.video.stream.VideoStream,
    packet: av.Packet[av.video.stream.VideoStream],
    index: int,
) -> None:
    """Mux a demultiplexed JPEG ``packet`` into ``out`` as frame ``index`` of ``target``
    (copied: nothing decoded or encoded again)."""
    packet.stream = target
    packet.pts = packet.dts = index
    out.mux(packet)


def copy_between(
    folder: Path, start_ns: int, end_ns: int, clip: Path, near_ns: int
) -> tuple[int, np.ndarray | None]:
    """Write the recorded frames with capture times in [start_ns, end_ns] to ``clip`` (an AVI)
    by copying their JPEG data, nothing decoded or encoded again; the number of frames (0:
    nothing recorded then, no file) and the frame captured nearest ``near_ns``, decoded. A
    failed write (a full disk) raises ``OSError`` naming the clip."""
    frames, nearest = 0, None
    out: av.container.OutputContainer | None = None
    try:
        target = None
        for ts_ns, packet, stream in _recorded(folder, start_ns, end_ns):
            if out is None:
                out = av.open(str(clip), "w", format="avi")
                target = out.add_stream_from_template(stream)
            if nearest is None or abs(ts_ns - near_ns) < nearest[0]:
                nearest = (abs(ts_ns - near_ns), bytes(packet))
            assert target is not None
            append_packet(out, target, packet, frames)
            frames += 1
    except av.error.FFmpegError as exc:
        raise OSError(f"{clip}: {exc}") from exc
    finally:
        if out is not None:
            out.close()
    return frames, _decoded(nearest[1]) if nearest is not None else None


PLAY_FPS_MAX = 30


def playable(clip: Path, out: Path) -> bool:
    """``clip`` (Motion-JPEG AVI, which browsers do not play) encoded again as H.264 in MP4 with
    its index first (``faststart``: a browser plays and seeks it as it loads), at the clip's frame
    rate, its sides cut to even numbers; False when the clip holds no frame. A failed write
    raises ``OSError`` naming the file."""
    frames = 0
    try:
        with av.open(str(clip)) as source:
            stream = source.streams.video[0]
            rate = stream.average_rate or stream.guessed_rate or 5
            rate = min(rate, PLAY_FPS_MAX)
            width, height = (
                stream.codec_context.width // 2 * 2,
                stream.codec_context.height // 2 * 2,
            )
            with av.open(str(out), "w", format="mp4", options={"movflags": "+faststart"}) as sink:
                video = sink.add_stream("libx264", rate=rate)
                video.width, video.height, video.pix_fmt = width, height, "yuv420p"
                video.options = {"crf": "23", "preset": "veryfast"}
                for frame in source.decode(stream):
                    image = frame.to_ndarray(format="rgb24")[:height, :width]
                    picture = av.VideoFrame.from_ndarray(image, format="rgb24")
                    picture.pts = frames
                    sink.mux(video.encode(picture.reformat(format="yuv420p")))
                    frames += 1
                sink.mux(video.encode(None))
    except av.error.FFmpegError as exc:
        raise OSError(f"{out}: {exc}") from exc
    if not frames:
        out.unlink(missing_ok=True)
    return frames > 0


def covered_until(folder: Path) -> int | None:
    """The capture time of the last frame in a closed segment (None: nothing closed yet)."""
    closed = [s for s in segments(folder) if s.closed]
    for segment in reversed(closed):
        times = segment.times()
        if times:
            return times[-1]
    return None


class RecordingThread:
    """A ``Recorder`` fed by the frame loop without making it wait for the JPEG encoder (15-20
    ms a 1080p frame): the frames to keep queue for a thread that records them at a lower
    priority than the detector's. If the encoder falls ``queue_frames`` behind (the cores are
    saturated), the newest frames are not recorded, counted in ``skipped`` and said in
    ``error``."""

    def __init__(self, recorder: Recorder, *, queue_frames: int = 10, nice: int = 5) -> None:
        self.recorder = recorder
        self.nice = nice
        self.skipped = 0
        self._queue: queue.Queue[tuple[np.ndarray, int] | None] = queue.Queue(queue_frames)
        self._last_ns: int | None = None
        self._thread = threading.Thread(target=self._run, name="recording", daemon=True)
        self._thread.start()

    @property
    def error(self) -> str:
        if self.recorder.error or not self.skipped:
            return self.recorder.error
        return f"{self.recorder.folder}: {self.skipped} frames not recorded (encoder behind)"

    def add(self, image: np.ndarray, ts_ns: int) -> None:
        """Queue a frame if the recording keeps it (at most the recorder's ``fps``)."""
        if image.size == 0:
            return
        if self._last_ns is not None and ts_ns - self._last_ns < self.recorder.frame_ns:
            return
        self._last_ns = ts_ns
        try:
            self._queue.put_nowait((image, ts_ns))
        except queue.Full:
            self.skipped += 1

    def close(self) -> None:
        """Record what is queued, then close the segment."""
        self._queue.put(None)
        self._thread.join()
        self.recorder.close()

    def _run(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # not Linux: at the loop's priority
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        while (item := self._queue.get()) is not None:
            self.recorder.add(*item)
