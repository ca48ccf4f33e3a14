"""Train the table detector from scratch and export it to ONNX (the ``train`` extra).

    .venv-train/bin/python -m models.train --data build/synth --epochs 40 [--imgsz 320]
        [--device cuda] [--hours 1.5 (stops at this time, if sooner)] [--runs build/runs]
        [--resume]

The dataset is the rendered one (``models.synth.make_dataset``) plus the real card photos of
``../shared/data/cards-real/*/train`` (every card is class ``card``); ``valid/`` of the real
photos joins the validation split; ``test/`` is never read here. Ultralytics runs offline: no
weights, fonts or settings are fetched. Its run folder (``--runs``/detector) keeps the last
epoch's state; ``--resume`` goes on from it (and only exports where the training had ended).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from models.real import REAL, ROOT, datasets

if TYPE_CHECKING:
    from ultralytics import YOLO
    from ultralytics.engine.trainer import BaseTrainer

BUILD = ROOT / "build"


def offline() -> None:
    """Ultralytics settings for a machine without internet (see README 'Models')."""
    config = BUILD / "ultralytics"
    (config / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ.update(YOLO_OFFLINE="1", YOLO_AUTOINSTALL="False", YOLO_CONFIG_DIR=str(config))
    font = config / "Ultralytics" / "Arial.ttf"
    if not font.exists():
        import matplotlib

        dejavu = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        shutil.copy(dejavu, font)
        shutil.copy(dejavu, config / "Ultralytics" / "Arial.Unicode.ttf")


def add_real_photos(data: Path, limit: int | None = None) -> int:
    """Copy the real train and valid photos into the dataset (``limit``: at most that many of
    each split, the first by name); every card is the detector's class ``card`` (the identity
    classifier learns the names)."""
    from models.synth.scene import CARD

    added = 0
    for root in datasets(REAL):
        for split, ours in (("train", "train"), ("valid", "val")):
            for image in sorted((root / split / "images").glob("*.jpg"))[:limit]:
                label = root / split / "labels" / (image.stem + ".txt")
                lines = []
                for line in label.read_text().splitlines():
                    _, *box = line.split()
                    lines.append(" ".join([str(CARD), *box]))
                target = data / "images" / ours / f"real-{image.name}"
                shutil.copy(image, target)
                (data / "labels" / ours / f"real-{image.stem}.txt").write_text("\n".join(lines))
                added += 1
    return added


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=BUILD / "synth")
    parser.add_argument("--hours", type=float, help="stop at this time if the epochs last longer")
    parser.add_argument("--imgsz", type=int, default=320)
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--weights", type=Path, help="continue from these weights (a .pt)")
    parser.add_argument(
        "--real-photos", type=int, help="at most this many real photos of each split (default all)"
    )
    parser.add_argument("--runs", type=Path, default=BUILD / "runs", help="ultralytics' runs")
    parser.add_argument(
        "--resume", action="store_true", help="go on from the last epoch kept in --runs"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "models" / "detector.onnx")
    args = parser.parse_args()
    offline()
    print(f"added {add_real_photos(args.data, args.real_photos)} real photos", flush=True)
    import ultralytics.utils.torch_utils as torch_utils
    from ultralytics import YOLO, settings

    settings.update({"sync": False})
    torch_utils.NUM_THREADS = os.cpu_count() or 2  # ultralytics uses one thread by default
    run = args.runs / "detector"
    last = run / "weights" / "last.pt"
    if args.resume and last.exists():
        import torch

        state = torch.load(last, map_location="cpu", weights_only=False)
        if state.get("epoch", -1) >= 0:  # ultralytics marks the end of a training with -1
            print(f"resuming after epoch {state['epoch'] + 1}", flush=True)
            model = YOLO(str(last))
            model.add_callback("on_model_save", best_weights_only)
            model.train(  # the data and run folder of this machine (a carried run)
                resume=True,
                data=str(args.data / "data.yaml"),
                save_dir=str(run.resolve()),
                device=args.device,
                workers=2,
            )
        else:
            print(f"{last}: the training had ended; exporting", flush=True)
    else:
        model = YOLO("yolo11n.yaml")
        model.add_callback("on_model_save", best_weights_only)
        train(model, args)
    best = run / "weights" / "best.pt"
    exported = YOLO(str(best)).export(format="onnx", imgsz=args.imgsz, simplify=False, opset=17)
    shutil.copy(exported, args.out)
    shutil.copy(best, args.out.with_suffix(".pt"))  # ultralytics' own weights, for the bench
    print(f"exported {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")
    return 0


def best_weights_only(trainer: BaseTrainer) -> None:
    """Keep the best epoch's weights without the optimiser's state, as ultralytics does at the
    end of a training: only the last epoch is trained on from (a carried run takes 5 MB for
    the best epoch, not 26)."""
    from ultralytics.utils.torch_utils import strip_optimizer

    if trainer.best.exists() and trainer.best_fitness == trainer.fitness:  # written just now
        strip_optimizer(trainer.best)


def train(model: YOLO, args: argparse.Namespace) -> None:
    """Train ``model`` from nothing (or from ``--weights``) into ``--runs``/detector."""
    model.train(
        data=str(args.data / "data.yaml"),
        epochs=args.epochs,
        time=args.hours,
        imgsz=args.imgsz,
        batch=16,
        optimizer="AdamW",
        lr0=0.002,
        fliplr=0.5,  # a mirrored card is still a card: the classifier names it
        mosaic=1.0,
        pretrained=str(args.weights) if args.weights else False,
        warmup_epochs=0 if args.weights else 3,
        device=args.device,
        workers=2,
        project=str(args.runs.resolve()),
        name="detector",
        exist_ok=True,
        plots=False,
        verbose=False,
    )


if __name__ == "__main__":
    sys.exit(main())
