"""Write a YOLO dataset of rendered table views.

.venv/bin/python -m models.synth.make_dataset OUT --train 4000 --val 300 [--seed 0] [--surfaces any]
    [--card-px 16 110] [--pair-share 0.25] [--room]

Frames are rendered at the detector's input size (320 x 320 by default) with cards 16 to 110 pixels
wide: a 1080p overhead view is cut into tiles of that size at full resolution, where a card is
about 50 pixels wide. ``--surfaces any`` draws the tables on the felts and on light surfaces
(a white cloth, grey, light wood), as some real card photos are: run it with another seed to add
such frames to a dataset (file names hold the seed). ``--card-px 40 70 --pair-share 0.7`` draws
the table's scale with seven cards in ten lying in pairs (the lower card of a hand). ``--room``
adds, by chance, what a real room does (the floor past the table, a chip rack, light chips, arms'
shadows, the light's colour, a CCTV camera: ``models.synth.room``).
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

from models.synth.scene import (
    DETECTOR_CLASSES,
    FELTS,
    LIGHT_SURFACES,
    LOOSE_PAIRS,
    PAIR_SHARE,
    TIGHT_PAIRS,
    PairLay,
    render,
    yolo_lines,
)

CARD_PX = (16.0, 110.0)
SURFACES = {"felt": FELTS, "any": FELTS + LIGHT_SURFACES}


Job = tuple[Path, str, int, int, tuple[int, int], str, tuple[float, float], float, PairLay, bool]
J = TypeVar("J")


def _write_one(job: Job) -> None:
    out, split, seed, i, size, surfaces, card_px, pair_share, pairs, room = job
    name = f"{split}-{seed}-{i:06d}"
    image, label = out / "images" / split / f"{name}.jpg", out / "labels" / split / f"{name}.txt"
    if image.exists() and label.exists():
        return  # written by an earlier run (the same seed gives the same frame)
    rng = random.Random(seed * 1_000_003 + i)
    scene = render(
        rng,
        *size,
        card_px_range=card_px,
        surfaces=SURFACES[surfaces],
        pair_share=pair_share,
        pairs=pairs,
        room=room,
    )
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
    card_px: tuple[float, float] = CARD_PX,
    pair_share: float = PAIR_SHARE,
    room: bool = False,
    pairs: PairLay = LOOSE_PAIRS,
) -> None:
    work = [
        (out, split, seed, i, size, surfaces, card_px, pair_share, pairs, room)
        for i in range(count)
    ]
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
    parser.add_argument(
        "--card-px",
        type=float,
        nargs=2,
        default=CARD_PX,
        metavar=("MIN", "MAX"),
        help="card widths in pixels drawn from",
    )
    parser.add_argument("--pair-share", type=float, default=PAIR_SHARE)
    parser.add_argument(
        "--tight-pairs",
        action="store_true",
        help="pairs as players leave them (models.synth.scene.TIGHT_PAIRS)",
    )
    parser.add_argument(
        "--room", action="store_true", help="what a real room adds (models.synth.room), by chance"
    )
    args = parser.parse_args()
    size = (args.width, args.height)
    for split, count, seed in (("train", args.train, args.seed), ("val", args.val, args.seed + 1)):
        write_split(
            args.out,
            split,
            count,
            seed,
            size,
            args.jobs,
            args.surfaces,
            card_px=tuple(args.card_px),
            pair_share=args.pair_share,
            room=args.room,
            pairs=TIGHT_PAIRS if args.tight_pairs else LOOSE_PAIRS,
        )
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(DETECTOR_CLASSES))
    (args.out / "data.yaml").write_text(
        f"path: {args.out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    print(f"{args.train} + {args.val} images, {len(DETECTOR_CLASSES)} classes -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
