"""An alert's evidence: the clip of each camera around the input that proved it, and a key frame
with the zones and the alert drawn, listed in the table's clips.jsonl."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from engine.alerts import Alert, Severity
from engine.core import Proved
from engine.table_files import TableFiles
from feltwatch.appliance.clips import ClipMaker
from models.image_file import read_image
from models.synth.video import Layout
from vision.recorder import Recorder
from vision.zones import ZoneMap

S = 1_000_000_000
LAYOUT = Layout(seats=6, frame=(640, 360))


def test_an_alert_gets_a_clip_and_a_key_frame_from_each_camera_that_recorded(
    tmp_path: Path,
) -> None:
    recorder = Recorder(tmp_path / "overhead", segment_s=5, budget_bytes=10**9, fps=5)
    for i in range(20 * 10):  # 20 s at 10 frames/s, from t = 100 s
        recorder.add(np.full((360, 640, 3), 60, np.uint8), 100 * S + i * S // 10)
    recorder.close()
    now = [112 * S]
    clips = ClipMaker(
        TableFiles(table="t7", journal_dir=tmp_path, media_root=tmp_path),
        {"overhead": ZoneMap.from_config(LAYOUT.zone_config()), "dealer": None},
        before_s=2,
        after_s=3,
        wait_s=5,
        clock=lambda: now[0],
    )
    alert = Alert(
        hand="4",
        seq=57,
        rule="R-POT-5",
        family="chip_miscount",
        severity=Severity.CRITICAL,
        seat=3,
        message="seat 3 was pushed 99, computed 100",
    )
    clips.add(Proved(alert=alert, table="t7", input_ts_ns=110 * S))
    again = Alert(
        hand="4",
        seq=58,
        rule="R-RAKE-1",
        family="chip_miscount",
        severity=Severity.WARNING,
        seat=None,
        message="rake taken 1, computed 0",
    )
    clips.add(Proved(alert=again, table="t7", input_ts_ns=111 * S))  # the same moment
    clips.cut_due()  # the overhead recording covers it; the dealer camera has nothing yet
    assert clips.made == []
    now[0] = 121 * S  # past the wait: cut with what there is
    clips.cut_due()
    rows = [
        json.loads(line) for line in (tmp_path / "clips/t7/clips.jsonl").read_text().splitlines()
    ]
    overhead, dealer, shared, _ = rows
    assert shared["shared"] and shared["clip"] == overhead["clip"] and shared["frames"] == 26
    assert (tmp_path / shared["key_frame"]).is_file() and shared["rule"] == "R-RAKE-1"
    assert overhead["camera"] == "overhead" and overhead["frames"] == 26  # 108 s to 113 s at 5/s
    assert (tmp_path / overhead["clip"]).is_file()
    assert overhead["clip"] == "clips/t7/hand-4/57-R-POT-5-overhead.avi"
    key = read_image(tmp_path / overhead["key_frame"])
    assert key.shape == (360, 640, 3)
    red = (key[:, :, 2] > 200) & (key[:, :, 1] < 60) & (key[:, :, 0] < 60)
    assert red.sum() > 100  # the seat's zones drawn in red
    assert dealer["frames"] == 0 and "recorded nothing" in dealer["missing"]
    capture = cv2.VideoCapture(str(tmp_path / overhead["clip"]))
    count = 0
    while capture.read()[0]:
        count += 1
    assert count == 26


def _clip_maker(tmp_path: Path, now: list[int]) -> ClipMaker:
    """Clips of an overhead camera that recorded 100 s to 120 s, at the clock ``now``."""
    recorder = Recorder(tmp_path / "overhead", segment_s=5, budget_bytes=10**9, fps=5)
    for i in range(20 * 10):
        recorder.add(np.full((360, 640, 3), 60, np.uint8), 100 * S + i * S // 10)
    recorder.close()
    return ClipMaker(
        TableFiles(table="t7", journal_dir=tmp_path, media_root=tmp_path),
        {"overhead": None},
        before_s=2,
        after_s=3,
        wait_s=5,
        clock=lambda: now[0],
    )


def _alert(hand: str, seq: int) -> Proved:
    alert = Alert(
        hand=hand,
        seq=seq,
        rule="R-BOX-1",
        family="boxed_card",
        severity=Severity.WARNING,
        seat=2,
        message="a card face up in the deck",
    )
    return Proved(alert=alert, table="t7", input_ts_ns=(100 + seq) * S)


def test_the_engine_stops_without_waiting_for_clips_and_says_which_were_not_cut(
    tmp_path: Path,
) -> None:
    clips = _clip_maker(tmp_path, [125 * S])
    for hand in ("1", "2", "3"):
        clips.add(_alert(hand, 5))
    assert clips.stop(until_s=time.monotonic()) == 3  # no time left: none cut
    rows = [json.loads(line) for line in (tmp_path / "clips/t7/clips.jsonl").open()]
    assert [r["hand"] for r in rows] == ["1", "2", "3"]
    assert all(r["frames"] == 0 and "the engine stopped first" in r["missing"] for r in rows)
    assert not (tmp_path / "clips/t7/hand-1").exists()


def test_a_stop_with_time_left_cuts_what_is_recorded_and_lists_what_is_not(
    tmp_path: Path,
) -> None:
    clips = _clip_maker(tmp_path, [118 * S]).start()  # the clip thread may cut the first
    clips.add(_alert("1", 5))  # 103 s to 108 s: recorded
    clips.add(_alert("2", 18))  # 116 s to 121 s: the recording has not reached its end
    assert clips.stop(until_s=time.monotonic() + 60) == 1
    cut, left = (json.loads(line) for line in (tmp_path / "clips/t7/clips.jsonl").open())
    assert cut["hand"] == "1" and cut["frames"] == 26 and (tmp_path / cut["clip"]).is_file()
    assert left["hand"] == "2" and "the engine stopped first" in left["missing"]
