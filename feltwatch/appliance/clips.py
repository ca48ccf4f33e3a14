"""Evidence for every alert: from each camera's recording, a clip from ``clip_before_s`` before the
input that proved it to ``clip_after_s`` after, and a key frame (the frame of that moment) with
the zones drawn, the seat's zones in red and the alert written across the top. Stored with the
hand:

    <recording dir>/clips/<table>/hand-<hand>/<seq>-<rule>-<camera>.avi  and  ...-key.jpg
    (and ``.mp4``: the clip as H.264, which browsers play; the AVI is the evidence as recorded)
    <recording dir>/clips/<table>/clips.jsonl   one line per clip: alert, camera, files, frames

Alerts proved within a clip already cut for the same hand share it (each still gets its key
frame). A clip is cut once the camera's closed segments reach its end (or, at the latest, ``wait_s``
after its end: what was recorded by then is used; a camera with nothing recorded for the
moment gets a line that says so).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.alerts import Alert, alert_id
from engine.core import Proved
from engine.table_files import TableFiles
from vision.overlay import draw_caption, draw_zones
from vision.recorder import copy_between, covered_until, frames_between, playable
from vision.zones import ZoneMap

CLIP_NICE = 10
"""The clip thread's nice value (the engine's own threads keep theirs)."""
SHARE_MARGIN_NS = 1_000_000_000
"""An alert proved within a clip already cut for its hand, at least this long before the clip's
end, shares that clip (a burst of alerts about one moment makes one clip, not one each)."""
NEAR_NS = 1_000_000_000


@dataclass(frozen=True, slots=True)
class _Job:
    proved: Proved
    start_ns: int
    end_ns: int


class ClipMaker:
    def __init__(
        self,
        files: TableFiles,
        cameras: dict[str, ZoneMap | None],
        *,
        before_s: float,
        after_s: float,
        wait_s: float,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        """``files``: the table's files (its recording folder holds each camera's recording,
        and the clips go to its clips folder)."""
        assert files.media_root is not None and files.clips_dir is not None
        self.root = files.media_root
        self.table = files.table
        self.cameras = cameras
        self.before_ns = int(before_s * 1e9)
        self.after_ns = int(after_s * 1e9)
        self.wait_ns = int(wait_s * 1e9)
        self.clock = clock
        self.folder = files.clips_dir
        self._jobs: list[_Job] = []
        self._lock = threading.Lock()
        self._cutting = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="clips", daemon=True)
        self.made: list[dict[str, object]] = []
        self._clips: dict[tuple[str, str], tuple[int, int, str, int, str]] = {}
        """(hand, camera) -> the last clip cut: from, to, path, frames, the browser's copy."""

    def start(self) -> ClipMaker:
        self._thread.start()
        return self

    def stop(self, until_s: float) -> int:
        """Stop the clip thread after the clip it is cutting, cut the clips now recorded until
        ``until_s`` (``time.monotonic``), and give every clip left uncut a manifest line that
        says so (the recording keeps the moment). Returns how many were left: the engine stops
        within its budget however many alerts wait for their clips."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(max(0.0, until_s - time.monotonic()))
        if self._cutting.acquire(timeout=max(0.0, until_s - time.monotonic())):
            try:
                self._cut_due(until_s)
            finally:
                self._cutting.release()
        with self._lock:
            left, self._jobs = self._jobs, []
        for job in left:
            for camera in self.cameras:
                self._write_row(
                    self._row(job, camera),
                    missing="not cut: the engine stopped first; the recording keeps the moment",
                )
        return len(left)

    def add(self, proved: Proved) -> None:
        if proved.input_ts_ns <= 0:
            return  # an alert re-announced after a restart: its clip was cut (or is due) before
        ts = proved.input_ts_ns
        with self._lock:
            self._jobs.append(_Job(proved, ts - self.before_ns, ts + self.after_ns))

    def _run(self) -> None:
        # Cutting a clip reads and writes seconds of video and draws a key frame: it yields
        # the cores to the cameras and the engine thread (Linux schedules threads apart; a nice
        # value is a thread's own there). Evidence may wait a second; an alert to the light
        # may not.
        with contextlib.suppress(AttributeError, OSError):  # else at the engine's priority
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), CLIP_NICE)
        while not self._stop.wait(0.25):
            self.cut_due()

    def cut_due(self) -> None:
        """Cut the clips whose moment is recorded (or that waited long enough). One caller at a
        time: the clip thread, and the engine once more as it stops."""
        with self._cutting:
            self._cut_due()

    def _cut_due(self, until_s: float | None = None) -> None:
        """Cut each clip due; the clip thread stops between clips once asked to, a final cut at
        ``until_s`` (``time.monotonic``)."""
        now = self.clock()
        with self._lock:
            jobs = list(self._jobs)
        for job in jobs:
            if until_s is None and self._stop.is_set():
                return
            if until_s is not None and time.monotonic() >= until_s:
                return
            late = now > job.end_ns + self.wait_ns
            ready = all(
                (covered_until(self.root / camera) or 0) >= job.end_ns for camera in self.cameras
            )
            if not (ready or late):
                continue
            with self._lock:  # taken off the list first: a stop lists only the clips not begun
                if job not in self._jobs:
                    continue
                self._jobs.remove(job)
            for camera in self.cameras:
                self._cut(job, camera)

    def _row(self, job: _Job, camera: str) -> dict[str, object]:
        """The manifest line of ``job``'s clip from ``camera``, before it is cut."""
        alert = job.proved.alert
        return {
            "table": self.table,
            "alert": alert_id(self.table, alert.to_json()),
            "hand": alert.hand,
            "seq": alert.seq,
            "rule": alert.rule,
            "family": alert.family,
            "seat": alert.seat,
            "camera": camera,
            "from_ns": job.start_ns,
            "to_ns": job.end_ns,
            "proved_ns": job.proved.input_ts_ns,
        }

    def _cut(self, job: _Job, camera: str) -> None:
        alert = job.proved.alert
        hand_folder = self.folder / f"hand-{alert.hand}"
        stem = f"{alert.seq}-{alert.rule}-{camera}"
        key = hand_folder / f"{stem}-key.jpg"
        row = self._row(job, camera)
        proved = job.proved.input_ts_ns
        shared = self._clips.get((alert.hand, camera))
        try:
            hand_folder.mkdir(parents=True, exist_ok=True)
            if shared is not None and shared[0] <= proved <= shared[1] - SHARE_MARGIN_NS:
                # An alert of the same moment: its clip is the one already cut.
                row["from_ns"], row["to_ns"], row["clip"], row["frames"], play = shared
                if play:
                    row["play"] = play
                row["shared"] = True
                best = self._nearest(camera, proved)
            else:
                clip = hand_folder / f"{stem}.avi"
                frames, best = self._write_clip(camera, job, clip)
                row["frames"] = frames
                if frames:
                    row["clip"] = str(clip.relative_to(self.root))
                    mp4 = clip.with_suffix(".mp4")  # for the browser (the AVI is the evidence)
                    if playable(clip, mp4):
                        row["play"] = str(mp4.relative_to(self.root))
                    self._clips[(alert.hand, camera)] = (
                        job.start_ns,
                        job.end_ns,
                        str(row["clip"]),
                        frames,
                        str(row.get("play", "")),
                    )
            if best is not None:
                cv2.imwrite(str(key), self._key_frame(best, camera, alert))
                row["key_frame"] = str(key.relative_to(self.root))
        except OSError as exc:
            row["error"] = f"{hand_folder}: {exc.strerror or exc}"
        missing = f"camera {camera} recorded nothing from {job.start_ns} to {job.end_ns}"
        self._write_row(row, missing=None if row.get("frames") else missing)

    def _write_row(self, row: dict[str, object], missing: str | None) -> None:
        """Add ``row`` (with ``missing``: no clip, and why) to the manifest."""
        if missing is not None:
            row["frames"] = 0
            row["missing"] = missing
        self.made.append(row)
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            with (self.folder / "clips.jsonl").open("a", encoding="utf-8") as manifest:
                manifest.write(json.dumps(row) + "\n")

    def _write_clip(self, camera: str, job: _Job, clip: Path) -> tuple[int, np.ndarray | None]:
        """Write the clip (the recording's frames copied, not encoded again); its frame count
        and the frame nearest the proof."""
        return copy_between(
            self.root / camera, job.start_ns, job.end_ns, clip, job.proved.input_ts_ns
        )

    def _nearest(self, camera: str, ts_ns: int) -> np.ndarray | None:
        near = frames_between(self.root / camera, ts_ns - NEAR_NS, ts_ns + NEAR_NS)
        found = min(near, key=lambda f: abs(f[0] - ts_ns), default=None)
        return found[1] if found is not None else None

    def _key_frame(self, image: np.ndarray, camera: str, alert: Alert) -> np.ndarray:
        """The frame of the proof with the zones drawn (the alert's seats in red) and the alert
        written across the top."""
        image = image.copy()
        zones = self.cameras[camera]
        if zones is not None:
            seats = alert.seats or ((alert.seat,) if alert.seat is not None else ())
            hot = {f"{kind}:{seat}" for seat in seats for kind in ("seat", "bet", "stack")}
            draw_zones(image, zones, hot)
        seat = f" seat {alert.seat}" if alert.seat is not None else ""
        headline = f"{self.table} hand {alert.hand}: {alert.rule} {alert.family}{seat}"
        draw_caption(image, [f"{headline} ({alert.severity})", alert.message])
        return image
