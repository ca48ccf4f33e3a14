"""The rolling recording: segments, the disk budget, a full disk, and the frames of a moment."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.recorder import (
    Recorder,
    RecordingThread,
    copy_between,
    covered_until,
    frames_between,
    segments,
)

S = 1_000_000_000


def frame(level: int) -> np.ndarray:
    return np.full((90, 160, 3), level, np.uint8)


def record(recorder: Recorder, seconds: int, fps: int = 10, start_s: int = 100) -> None:
    for i in range(seconds * fps):
        recorder.add(frame(i % 200), start_s * S + i * S // fps)


def test_segments_close_in_turn_and_give_back_the_frames_of_a_moment(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path, segment_s=5, budget_bytes=10**9, fps=5)
    record(recorder, 12)
    assert [s.closed for s in segments(tmp_path)] == [True, True, False]
    assert covered_until(tmp_path) == 100 * S + 9_800_000_000
    got = list(frames_between(tmp_path, 103 * S, 107 * S))
    assert [ts for ts, _ in got] == [103 * S + k * 200_000_000 for k in range(21)]
    for ts, image in got:  # the frame recorded at that time (Motion-JPEG: nearly the same)
        i = (ts - 100 * S) // 100_000_000
        assert abs(float(image.mean()) - i % 200) < 3
    recorder.close()
    assert all(s.closed for s in segments(tmp_path))
    assert covered_until(tmp_path) == 111_800_000_000


def test_the_oldest_segments_go_to_keep_within_the_budget(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path, segment_s=5, budget_bytes=10**9, fps=5)
    record(recorder, 10)
    recorder.close()
    one_segment = max(s.size() for s in segments(tmp_path))
    budget = int(2.5 * one_segment)
    recorder = Recorder(tmp_path / "b", segment_s=5, budget_bytes=budget, fps=5)
    record(recorder, 60)
    recorder.close()
    kept = segments(tmp_path / "b")
    assert recorder.deleted >= 8
    assert sum(s.size() for s in kept) <= budget
    assert kept[-1].start_ns == 155 * S  # the newest are kept


def test_a_full_disk_stops_the_recording_and_it_starts_again_when_there_is_room(
    tmp_path: Path,
) -> None:
    free = [0]
    recorder = Recorder(
        tmp_path, segment_s=5, budget_bytes=10**9, fps=5, bytes_free=lambda _: free[0]
    )
    record(recorder, 6)
    assert "disk full" in recorder.error and str(tmp_path) in recorder.error
    assert segments(tmp_path) == []
    free[0] = 10**12
    record(recorder, 12, start_s=106)
    assert recorder.error == ""
    assert segments(tmp_path)[0].start_ns == 110 * S  # tried again a segment after the last try


def test_a_clip_copies_the_recorded_frames_without_encoding_them_again(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path / "cam", segment_s=5, budget_bytes=10**9, fps=5)
    record(recorder, 12)
    recorder.close()
    clip = tmp_path / "clip.avi"
    frames, nearest = copy_between(tmp_path / "cam", 103 * S, 107 * S, clip, 105 * S)
    recorded = list(frames_between(tmp_path / "cam", 103 * S, 107 * S))
    assert frames == len(recorded) == 21  # across two segments
    assert nearest is not None and np.array_equal(nearest, recorded[10][1])
    capture = cv2.VideoCapture(str(clip))
    copied = []
    while (read := capture.read())[0]:
        copied.append(read[1])
    assert len(copied) == 21  # the same JPEG data (two JPEG decoders: within a level or two)
    for a, (_, b) in zip(copied, recorded, strict=True):
        assert np.abs(a.astype(int) - b.astype(int)).max() <= 2
    assert copy_between(tmp_path / "cam", 200 * S, 210 * S, tmp_path / "none.avi", 0) == (0, None)
    assert not (tmp_path / "none.avi").exists()


def test_a_segment_cut_short_gives_the_frames_it_has(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path, segment_s=5, budget_bytes=10**9, fps=5)
    record(recorder, 6)
    recorder.close()
    first = segments(tmp_path)[0].video
    first.write_bytes(first.read_bytes()[: first.stat().st_size // 2])  # a power cut
    got = [ts for ts, _ in frames_between(tmp_path, 100 * S, 106 * S)]
    assert 0 < len(got) < 30 and got == sorted(got)


def test_the_recording_thread_records_at_the_recorder_rate_and_counts_what_it_skips(
    tmp_path: Path,
) -> None:
    recorder = Recorder(tmp_path, segment_s=5, budget_bytes=10**9, fps=5)
    thread = RecordingThread(recorder, queue_frames=30)  # the frames come faster than live
    for i in range(60):  # 6 s at 10 frames/s: 30 kept at 5 a second
        thread.add(frame(i), 100 * S + i * S // 10)
    thread.close()
    assert thread.skipped == 0 and thread.error == ""
    assert len(list(frames_between(tmp_path, 0, 200 * S))) == 30
    behind = Recorder(tmp_path / "b", segment_s=5, budget_bytes=10**9)
    full = RecordingThread(behind, queue_frames=1)
    full._queue.put(None)  # the thread stops at once: nothing more is taken from the queue
    full._thread.join()
    full.add(frame(1), 100 * S)  # fills the one place
    full.add(frame(2), 101 * S)
    assert full.skipped == 1 and "1 frames not recorded" in full.error
