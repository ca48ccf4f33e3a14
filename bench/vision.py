"""The vision worker on a rendered 1080p, 30 frames/s hand video, against ultralytics' own
``predict`` on every frame of the same video, in the same run.

1. Renders (once, cached under build/bench/) a whole 6-seat hand at 1920 x 1080 and 30 fps:
   deal, fold, bets, burn and board cards, the push (``models.synth.video``), as MJPG.
2. The worker (``vision.worker``: decode, motion gate, detector on the tiles that changed,
   identity, tracker, zones, observer) reads every frame, onnxruntime with one thread; then
   again without the upright reading of the face-up cards, to show what it costs.
3. The peer: ultralytics ``YOLO(models/detector.pt).predict`` on the decoded frames of the same
   video, with both cores (ultralytics uses one thread here unless told; we set
   ``NUM_THREADS`` and torch's threads to 2), three ways: every frame whole at the detector's
   input size (320; a card is 8 pixels wide there: nothing to name); every frame cut into the
   worker's own tiles of 320 at full resolution, one batch a frame (the same input size and the
   same pixels as the worker: what the worker does without its motion gate and cache); and
   every frame whole at 1920. It runs in the training venv (.venv-train: torch +
   ultralytics); without it this part is skipped.

Prints frames/s and CPU use (CPU seconds / wall seconds, in cores) for each, and the ratios.

    .venv/bin/python bench/vision.py [--seats 6] [--seed 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from models.synth.video import (  # noqa: E402
    RENDERING,
    HandVideo,
    Layout,
    demo_script,
    demo_start,
)
from vision.recognise import Recogniser  # noqa: E402
from vision.sources import video_frames  # noqa: E402
from vision.worker import VisionWorker  # noqa: E402
from vision.zones import ZoneMap  # noqa: E402

BUILD = ROOT / "build" / "bench"
TRAIN_PYTHON = ROOT / ".venv-train" / "bin" / "python"


def render(path: Path, seats: int, seed: int) -> int:
    if path.exists():
        return int(cv2.VideoCapture(str(path)).get(cv2.CAP_PROP_FRAME_COUNT))
    path.parent.mkdir(parents=True, exist_ok=True)
    layout = Layout(seats=seats)
    video = HandVideo(
        layout, demo_script(seed, seats, expose=2), seed=seed, start=demo_start(seats)
    )
    tmp = path.with_suffix(".tmp.avi")
    writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, layout.frame)
    frames = 0
    for frame in video.frames():
        writer.write(frame.image)
        frames += 1
    writer.release()
    tmp.rename(path)
    return frames


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_worker(path: Path, seats: int, *, upright: bool = True) -> dict[str, float]:
    """The worker on ``path`` as a camera's process runs it
    (``feltwatch/appliance/camera_main.py``): one onnxruntime thread and OpenCV's own thread pool at
    one thread (left at both cores, OpenCV's pool costs 1-3 CPU ms a frame more). ``upright``: with
    the upright reading of the face-up cards (as the appliance runs; without it, the classifier
    alone, to measure what it costs)."""
    layout = Layout(seats=seats)
    zones = ZoneMap.from_config(layout.zone_config())
    recogniser = Recogniser(threads=1) if upright else Recogniser(threads=1, upright=None)
    worker = VisionWorker("overhead", recogniser, zones.zone_of, chip_places=zones.chip_places)
    observations = 0
    pool = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        start_wall, start_cpu = time.perf_counter(), cpu_s()
        frames = 0
        for frame in video_frames(path):
            observations += len(worker.process(frame.image, frame.ts_ns))
            frames += 1
        wall, cpu = time.perf_counter() - start_wall, cpu_s() - start_cpu
    finally:
        cv2.setNumThreads(pool)
    return {
        "frames": frames,
        "fps": frames / wall,
        "cpu_cores": cpu / wall,
        "cpu_ms_per_frame": 1000 * cpu / frames,
        "passes": worker.stats.passes,
        "tiles_read": worker.stats.tiles_read,
        "tiles_kept": worker.stats.tiles_kept,
        "observations": observations,
    }


PEER = """
import json, resource, sys, time, cv2, torch
import ultralytics.utils.torch_utils as tu
tu.NUM_THREADS = 2
torch.set_num_threads(2)
from ultralytics import YOLO
model = YOLO(sys.argv[2], task="detect")
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
capture = cv2.VideoCapture(sys.argv[1])
ok, image = capture.read()
model.predict(image, imgsz=int(sys.argv[3]), verbose=False)  # warm up (not counted)
capture = cv2.VideoCapture(sys.argv[1])
frames, boxes = 0, 0
t0, c0 = time.perf_counter(), cpu()
tiles = json.loads(sys.argv[5])  # [] : the whole frame; else x1, y1, x2, y2 of each tile
while frames < int(sys.argv[4]):
    ok, image = capture.read()
    if not ok:
        break
    inputs = [image[y1:y2, x1:x2] for x1, y1, x2, y2 in tiles] or image
    results = model.predict(inputs, imgsz=int(sys.argv[3]), verbose=False)
    boxes += sum(len(result.boxes) for result in results)
    frames += 1
wall, used = time.perf_counter() - t0, cpu() - c0
print(json.dumps({"frames": frames, "fps": frames / wall, "cpu_cores": used / wall,
                  "cpu_ms_per_frame": 1000 * used / frames, "boxes": boxes}))
"""


def run_peer(
    path: Path, imgsz: int, frames: int, tiles: Sequence[tuple[int, int, int, int]] = ()
) -> dict[str, float] | None:
    """ultralytics ``predict`` on the first ``frames`` frames at ``imgsz``: each frame whole,
    or (``tiles``) cut into those squares, all read as one batch."""
    weights = ROOT / "models" / "detector.pt"
    if not TRAIN_PYTHON.exists() or not weights.exists():
        return None
    config = ROOT / "build" / "ultralytics"
    env = dict(os.environ, YOLO_OFFLINE="1", YOLO_AUTOINSTALL="False", YOLO_CONFIG_DIR=str(config))
    done = subprocess.run(
        [
            str(TRAIN_PYTHON),
            "-c",
            PEER,
            str(path),
            str(weights),
            str(imgsz),
            str(frames),
            json.dumps(list(tiles)),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--full-frames",
        type=int,
        default=0,
        help="read only the first frames with the full-resolution peers (default: every frame)",
    )
    args = parser.parse_args()
    path = BUILD / f"hand-1080p-{args.seats}seats-seed{args.seed}-r{RENDERING}.avi"
    frames = render(path, args.seats, args.seed)
    print(
        f"video: {path.relative_to(ROOT)}, {frames} frames of 1920 x 1080 at 30 fps "
        f"({frames / 30:.1f} s)"
    )
    ours = run_worker(path, args.seats)
    print(
        f"feltwatch vision worker (1 onnxruntime thread): {ours['fps']:.1f} frames/s, "
        f"{ours['cpu_cores']:.2f} cores, {ours['cpu_ms_per_frame']:.1f} CPU ms/frame; "
        f"{ours['passes']} passes, {ours['tiles_read']} tiles read, {ours['tiles_kept']} come "
        f"to rest unchanged and kept unread, {ours['observations']} observations"
    )
    alone = run_worker(path, args.seats, upright=False)
    print(
        f"  the same without the upright reading (the classifier alone): {alone['fps']:.1f} "
        f"frames/s, {alone['cpu_ms_per_frame']:.1f} CPU ms/frame: the upright reading costs "
        f"{ours['cpu_ms_per_frame'] - alone['cpu_ms_per_frame']:.1f} CPU ms a frame"
    )
    keeps_up = ours["fps"] >= 30 and ours["cpu_ms_per_frame"] <= 1000 / 30
    print(
        f"  keeps up with 30 fps on one core (>= 30 frames/s and <= 33.3 CPU ms a frame): "
        f"{'yes' if keeps_up else 'NO'}"
    )
    grid = [tile.box for tile in Recogniser(threads=1).grid(1920, 1080)]
    peers = (
        (
            "each frame whole at imgsz 320: a card is 8 pixels wide there, nothing to name",
            320,
            frames,
            [],
        ),
        (
            f"each frame as the worker's {len(grid)} tiles of 320 (one batch): the same input "
            f"size and pixels as the worker, without its motion gate",
            320,
            args.full_frames or frames,
            grid,
        ),
        (
            "each frame whole at imgsz 1920, the pixels the worker reads",
            1920,
            args.full_frames or frames,
            [],
        ),
    )
    for what, imgsz, count, tiles in peers:
        peer = run_peer(path, imgsz, count, tiles)
        if peer is None:
            print(
                "ultralytics predict: skipped (needs .venv-train from `make models` and "
                "models/detector.pt)"
            )
            return 0
        print(
            f"ultralytics predict, {peer['frames']} frames, {what}; 2 threads: "
            f"{peer['fps']:.2f} frames/s, {peer['cpu_cores']:.2f} cores, "
            f"{peer['cpu_ms_per_frame']:.1f} CPU ms/frame"
        )
        print(
            f"  ratio, worker / this predict: {ours['fps'] / peer['fps']:.2f}x the frames/s "
            f"(target >= 5x), {peer['cpu_ms_per_frame'] / ours['cpu_ms_per_frame']:.2f}x less "
            f"CPU a frame"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
