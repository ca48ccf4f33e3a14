"""Write a YOLO dataset of rendered table views.

.venv/bin/python -m models.synth.make_dataset OUT --train 4000 --val 300 [--seed 0] [--surfaces any]

Frames are rendered at the detector's input size (320 x 320 by default) with cards 16 to 110 pixels
wide: a 1080p overhead view is cut into tiles of that size at full resolution, where a card is
about 50 pixels wide. ``--surfaces any`` draws the tables on the felts and on light surfaces
(a white cloth, grey, light wood), as some real card photos are: run it with another seed to add
such frames to a dataset (file names hold the seed).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import cv2

from models.synth.scene import DETECTOR_CLASSES, FELTS, LIGHT_SURFACES, render, yolo_lines

CARD_PX = (16.0, 110.0)
SURFACES = {"felt": FELTS, "any": FELTS + LIGHT_SURFACES}


Job = tuple[Path, str, int, int, tuple[int, int], str]
J = TypeVar("J")


def _write_one(job: Job) -> None:
    out, split, seed, i, size, surfaces = job
    name = f"{split}-{seed}-{i:06d}"
    image, label = out / "images" / split / f"{name}.jpg", out / "labels" / split / f"{name}.txt"
    if image.exists() and label.exists():
        return  # written by an earlier run (the same seed gives the same frame)
    rng = random.Random(seed * 1_000_003 + i)
    scene = render(rng, *size, card_px_range=CARD_PX, surfaces=SURFACES[surfaces])
    cv2.imwrite(str(image), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    label.write_text(yolo_lines(scene))


def write_split(
    out: Path,
    split: str,
    count: int,
    seed: int,
    size: tuple[int, int],
    jobs: int = 1,
    surfaces: str = "felt",
) -> None:
    work = [(out, split, seed, i, size, surfaces) for i in range(count)]
    write_jobs(_write_one, out, split, work, jobs, chunk=8)


def write_jobs(
    write: Callable[[J], None], out: Path, split: str, work: list[J], jobs: int, chunk: int
) -> None:
    """``write`` each job of ``work`` (in ``jobs`` processes) into the ``split`` of the YOLO
    dataset ``out``."""
    (out / "images" / split).mkdir(parents=True, exist_ok=True)
    (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            pool.map(write, work, chunksize=chunk)
    else:
        for job in work:
            write(job)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--train", type=int, default=4000)
    parser.add_argument("--val", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--width", type=int, default=320)
    parser.add_argument("--height", type=int, default=320)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--surfaces", choices=sorted(SURFACES), default="felt")
    args = parser.parse_args()
    size = (args.width, args.height)
    write_split(args.out, "train", args.train, args.seed, size, args.jobs, args.surfaces)
    write_split(args.out, "val", args.val, args.seed + 1, size, args.jobs, args.surfaces)
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(DETECTOR_CLASSES))
    (args.out / "data.yaml").write_text(
        f"path: {args.out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    print(f"{args.train} + {args.val} images, {len(DETECTOR_CLASSES)} classes -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
