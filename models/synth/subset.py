"""A dataset of links into another: all of some of its sets of frames and a random share of
others, for a training run that continues from a trained model on what it still gets wrong.

    .venv/bin/python -m models.synth.subset build/synth build/synth-mix \\
        train-table:all train-0-:2000 train-7-:700 val-table:all val-1-:100 val-8-:60 [--seed 3]

Each ``PREFIX:COUNT`` takes COUNT frames (``all``: every one) whose names begin with PREFIX,
from ``images/train`` or ``images/val`` by the prefix's first word; the same seed takes the
same frames. The labels are linked beside them and ``data.yaml`` names the new folder.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path


def take(source: Path, out: Path, specs: list[str], seed: int) -> dict[str, int]:
    """Link the frames ``specs`` pick from ``source`` into ``out``; how many each split got."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for spec in specs:
        prefix, _, count = spec.rpartition(":")
        split = prefix.split("-")[0]
        if split not in ("train", "val") or not (count == "all" or count.isdigit()):
            raise ValueError(f"{spec!r}: expected train-...:COUNT or val-...:COUNT (or :all)")
        images = sorted(p.name for p in (source / "images" / split).glob(f"{prefix}*"))
        if not images:
            raise ValueError(f"{spec!r}: no frames in {source / 'images' / split}")
        rng.shuffle(images)
        picked = images if count == "all" else images[: int(count)]
        for folder in ("images", "labels"):
            (out / folder / split).mkdir(parents=True, exist_ok=True)
        for name in picked:
            stem = name.rsplit(".", 1)[0]
            for folder, file in (("images", name), ("labels", f"{stem}.txt")):
                link = out / folder / split / file
                if not link.is_symlink():
                    link.symlink_to((source / folder / split / file).resolve())
        counts[split] = counts.get(split, 0) + len(picked)
    yaml = (source / "data.yaml").read_text().splitlines()
    body = [f"path: {out.resolve()}" if line.startswith("path:") else line for line in yaml]
    (out / "data.yaml").write_text("\n".join(body) + "\n")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("specs", nargs="+", metavar="PREFIX:COUNT")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    try:
        counts = take(args.source, args.out, args.specs, args.seed)
    except ValueError as error:
        print(f"subset: {error}", file=sys.stderr)
        return 2
    print(f"{args.out}: " + ", ".join(f"{n} {split}" for split, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
