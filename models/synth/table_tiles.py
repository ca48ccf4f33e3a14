"""Detector frames cut from rendered table videos: 320-pixel squares of 1080p frames of whole
hands on the demo's table, the view the vision worker reads (``vision.tiles``).

The renders of ``make_dataset`` are single scenes on a plain surface with a thin rail; a real
table has furniture that is neither card nor chip: a wide rail that stops at the dealer's
cut-out (its rounded end is about a card's size and dark, like a card back), the printed zone
lines, the dealer's hand carrying cards and chips. These tiles teach the detector that table:
every object the renderer placed is labelled (clipped to the tile; one less than half inside, a
hand less than a quarter, is left out), everything else is background.

    .venv/bin/python -m models.synth.table_tiles OUT --train 1500 --val 60 [--seed 11]

Each video is a hand (``demo_script``) at a table of 3 to 10 seats and a camera tilt drawn from
its seed; frames are picked at random across the hand, and from each a few tiles: squares of the
worker's grid, squares anywhere and squares around the rail's ends. Run it into the dataset
``make_dataset`` wrote (file names hold the seed).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

import cv2

from models.synth.make_dataset import write_jobs
from models.synth.scene import BACK, CARD, CHIP, HAND
from models.synth.video import Frame, HandVideo, Layout, Truth, demo_script, demo_start, step_frames
from vision.tiles import tile_grid

TILE_PX = 320
OVERLAP_PX = 64
FRAMES_PER_VIDEO = 8
TILES_PER_FRAME = 3
MIN_INSIDE = {"card": 0.5, "card_back": 0.5, "chip": 0.5, "hand": 0.25}
"""An object with less than this share of its box inside the tile is left unlabelled (a hand's
box is large: a quarter of it is a whole hand's worth of fingers)."""
CLASS_OF = {"card": CARD, "card_back": BACK, "chip": CHIP, "hand": HAND}


def video_for(seed: int) -> HandVideo:
    """A whole hand at a table drawn from ``seed``: seats, camera tilt, an exposed card or not."""
    rng = random.Random(seed)
    seats = rng.randint(3, 10)
    layout = Layout(seats=seats, tilt=rng.uniform(0.0, 0.08))
    expose = rng.choice([None, rng.randint(1, seats)])
    script = demo_script(seed, seats, expose=expose)
    return HandVideo(layout, script, seed=seed, start=demo_start(seats))


def labels_in(objects: tuple[Truth, ...], x: int, y: int) -> str:
    """YOLO lines of the objects inside the square at (``x``, ``y``)."""
    lines = []
    for obj in objects:
        x1, y1, x2, y2 = obj.box
        cx1, cy1 = max(x1, x), max(y1, y)
        cx2, cy2 = min(x2, x + TILE_PX), min(y2, y + TILE_PX)
        area = (x2 - x1) * (y2 - y1)
        if cx2 <= cx1 or cy2 <= cy1 or area <= 0:
            continue
        if (cx2 - cx1) * (cy2 - cy1) < MIN_INSIDE[obj.kind] * area:
            continue
        centre_x, centre_y = ((cx1 + cx2) / 2 - x) / TILE_PX, ((cy1 + cy2) / 2 - y) / TILE_PX
        width, height = (cx2 - cx1) / TILE_PX, (cy2 - cy1) / TILE_PX
        lines.append(f"{CLASS_OF[obj.kind]} {centre_x:.6f} {centre_y:.6f} {width:.6f} {height:.6f}")
    return "\n".join(lines)


def squares(frame: Frame, layout: Layout, rng: random.Random) -> list[tuple[int, int]]:
    """Where the tiles of ``frame`` are cut: from the worker's grid, anywhere, and one in five
    around an end of the rail (the table's likest thing to a card back)."""
    h, w = frame.image.shape[:2]
    grid = tile_grid(w, h, TILE_PX, OVERLAP_PX)
    out = []
    for _ in range(TILES_PER_FRAME):
        draw = rng.random()
        if draw < 0.2:
            ex, ey = rng.choice(layout.rail_ends())
            x = ex - TILE_PX / 2 + rng.uniform(-0.35, 0.35) * TILE_PX
            y = ey - TILE_PX / 2 + rng.uniform(-0.35, 0.35) * TILE_PX
        elif draw < 0.6:
            tile = rng.choice(grid)
            x, y = tile.x, tile.y
        else:
            x, y = rng.uniform(0, w - TILE_PX), rng.uniform(0, h - TILE_PX)
        out.append((int(min(max(x, 0), w - TILE_PX)), int(min(max(y, 0), h - TILE_PX))))
    return out


Job = tuple[Path, str, int]


def _write_video(job: Job) -> None:
    out, split, seed = job
    video = video_for(seed)
    rng = random.Random(seed ^ 0x5EED)
    _, length = step_frames(video.script)
    picked = set(rng.sample(range(length), FRAMES_PER_VIDEO))
    for frame in video.frames(draw=picked.__contains__):
        if frame.index not in picked:
            continue
        for k, (x, y) in enumerate(squares(frame, video.layout, rng)):
            name = f"{split}-table{seed}-{frame.index:05d}-{k}"
            tile = frame.image[y : y + TILE_PX, x : x + TILE_PX]
            cv2.imwrite(
                str(out / "images" / split / f"{name}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, 90]
            )
            (out / "labels" / split / f"{name}.txt").write_text(labels_in(frame.objects, x, y))


def write_split(out: Path, split: str, tiles: int, seed: int, jobs: int = 1) -> None:
    videos = -(-tiles // (FRAMES_PER_VIDEO * TILES_PER_FRAME))
    work = [(out, split, seed * 10_000 + i) for i in range(videos)]
    write_jobs(_write_video, out, split, work, jobs, chunk=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--train", type=int, default=1500, help="tiles (about)")
    parser.add_argument("--val", type=int, default=60)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    write_split(args.out, "train", args.train, args.seed, args.jobs)
    write_split(args.out, "val", args.val, args.seed + 1, args.jobs)
    print(f"table tiles: about {args.train} + {args.val} -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
