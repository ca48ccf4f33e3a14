"""Evidence for every alert: from each camera's recording, a clip from ``clip_before_s`` before the
input that proved it to ``clip_after_s`` after, and a key frame (the frame of that moment) with
the zones drawn, the seat's zones in red and the alert written across the top. Stored with the
hand:

    <recording dir>/clips/<table>/hand-<hand>/<seq>-<rule>-<camera>.avi  and  ...-key.jpg
    <recording dir>/clips/<table>/clips.jsonl   one line per clip: alert, camera, files, frames

A clip is cut once the camera's closed segments reach its end (or, at the latest, ``wait_s``
after its end: what was recorded by then is used; a camera with nothing recorded for the
moment gets a line that says so).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2

from feltwatch.engine_core import Proved
from vision.overlay import draw_caption, draw_zones
from vision.recorder import FOURCC, covered_until, frames_between
from vision.zones import ZoneMap


@dataclass(frozen=True, slots=True)
class _Job:
    proved: Proved
    start_ns: int
    end_ns: int


class ClipMaker:
    def __init__(
        self,
        root: Path,
        table: str,
        cameras: dict[str, ZoneMap | None],
        *,
        before_s: float,
        after_s: float,
        wait_s: float,
        fps: float = 5.0,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.root = root
        self.table = table
        self.cameras = cameras
        self.before_ns = int(before_s * 1e9)
        self.after_ns = int(after_s * 1e9)
        self.wait_ns = int(wait_s * 1e9)
        self.fps = fps
        self.clock = clock
        self.folder = root / "clips" / table
        self._jobs: list[_Job] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="clips", daemon=True)
        self.made: list[dict[str, object]] = []

    def start(self) -> ClipMaker:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def add(self, proved: Proved) -> None:
        if proved.input_ts_ns <= 0:
            return  # an alert re-announced after a restart: its clip was cut (or is due) before
        ts = proved.input_ts_ns
        with self._lock:
            self._jobs.append(_Job(proved, ts - self.before_ns, ts + self.after_ns))

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            self.cut_due()

    def cut_due(self) -> None:
        now = self.clock()
        with self._lock:
            jobs = list(self._jobs)
        for job in jobs:
            late = now > job.end_ns + self.wait_ns
            ready = all(
                (covered_until(self.root / camera) or 0) >= job.end_ns for camera in self.cameras
            )
            if ready or late:
                for camera in self.cameras:
                    self._cut(job, camera)
                with self._lock:
                    self._jobs.remove(job)

    def _cut(self, job: _Job, camera: str) -> None:
        alert = job.proved.alert
        hand_folder = self.folder / f"hand-{alert.hand}"
        stem = f"{alert.seq}-{alert.rule}-{camera}"
        clip = hand_folder / f"{stem}.avi"
        key = hand_folder / f"{stem}-key.jpg"
        row: dict[str, object] = {
            "table": self.table,
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
        frames = 0
        writer = None
        best: tuple[int, object] | None = None
        try:
            hand_folder.mkdir(parents=True, exist_ok=True)
            for ts_ns, image in frames_between(self.root / camera, job.start_ns, job.end_ns):
                if writer is None:
                    h, w = image.shape[:2]
                    writer = cv2.VideoWriter(str(clip), FOURCC, self.fps, (w, h))
                writer.write(image)
                frames += 1
                gap = abs(ts_ns - job.proved.input_ts_ns)
                if best is None or gap < best[0]:
                    best = (gap, image)
            if best is not None:
                image = best[1].copy()  # type: ignore[attr-defined]
                zones = self.cameras[camera]
                if zones is not None:
                    seats = alert.seats or ((alert.seat,) if alert.seat is not None else ())
                    hot = {f"{kind}:{seat}" for seat in seats for kind in ("seat", "bet", "stack")}
                    draw_zones(image, zones, hot)
                seat = f" seat {alert.seat}" if alert.seat is not None else ""
                draw_caption(
                    image,
                    [
                        f"{self.table} hand {alert.hand}: {alert.rule} {alert.family}{seat} "
                        f"({alert.severity})",
                        alert.message,
                    ],
                )
                cv2.imwrite(str(key), image)
        except OSError as exc:
            row["error"] = f"{hand_folder}: {exc.strerror or exc}"
        finally:
            if writer is not None:
                writer.release()
        row["frames"] = frames
        if frames:
            row["clip"] = str(clip.relative_to(self.root))
            row["key_frame"] = str(key.relative_to(self.root))
        else:
            row["missing"] = f"camera {camera} recorded nothing from {job.start_ns} to {job.end_ns}"
        self.made.append(row)
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            with (self.folder / "clips.jsonl").open("a", encoding="utf-8") as manifest:
                manifest.write(json.dumps(row) + "\n")
