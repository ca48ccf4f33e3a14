"""Train the corner regressor or the upright reader (``vision.upright``) and export it to ONNX
(the ``train`` extra).

    .venv-train/bin/python -m models.train_upright corners --data build/upright --steps 20000
    .venv-train/bin/python -m models.train_upright reader --data build/upright --steps 20000
        [--device cuda] [--minutes 30 (without --steps)]

Both learn from rendered views only (``models.upright_data``): the renderer knows each card's
corners, a photo's label does not. The regressor (about 2.0 M parameters) learns a card's outline
from the classifier's crop and mask, turned by a random quarter turn; the reader (about 0.89 M
parameters, a factorised rank / suit head) learns the 52 cards from their upright views, each
turned by a half turn at random and, with ``--corner-noise``, warped as if its corners were off
by that many pixels (as the regressor's are: 3 pixels at the median). The weights with the best
validation score are kept in the data folder (``corners.pt``, ``reader.pt``; ``--init`` goes on
from them) and exported to ``models/corners.onnx`` or ``models/upright.onnx``. On a GPU machine,
``--device cuda --loaders N`` trains there with N processes augmenting the batches. At each
validation the whole training state is kept too (``corners-resume.pt``, ``reader-resume.pt``):
``--resume`` goes on from it with the batches the stopped run would have drawn next.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from engine.cards import DECK
from models.real import ROOT
from models.resume import load_state, random_states, save_state, set_random_states
from models.train_identity import export_onnx, from_onnx, to_tensor
from vision.identity import CROP_PX
from vision.upright import POSE, VIEW_H_PX, VIEW_MARGIN_PX, VIEW_W_PX, quad_of_pose

if TYPE_CHECKING:
    import torch

BATCH = 128
POSE_WEIGHTS = (1.0, 1.0, 1.0, 1.0, 0.3, 0.3)
"""The loss's weight of each ``POSE`` output: the angle's cosine and sine count less (the sides
and the centre place the corners; the angle of a small card is poorly defined)."""


def _block(cin: int, cout: int, stride: int) -> list[torch.nn.Module]:
    import torch.nn as nn

    return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True)]


def corners_network() -> torch.nn.Module:
    """[N, 4, 112, 112] crops -> [N, 6] ``POSE``."""
    import torch.nn as nn

    class Corners(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                *_block(4, 24, 2),  # 56
                *_block(24, 48, 2),  # 28
                *_block(48, 48, 1),
                *_block(48, 96, 2),  # 14
                *_block(96, 96, 1),
                *_block(96, 128, 2),  # 7
                *_block(128, 128, 1),
            )
            side = CROP_PX // 16
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Linear(128 * side * side, 256),
                nn.ReLU(True),
                nn.Linear(256, len(POSE)),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.body(x))

    return Corners()


def reader_network() -> torch.nn.Module:
    """[N, 4, 90, 64] upright views -> [N, 52] log-probabilities of the cards in ``DECK`` order
    (rank and suit learnt apart: every ace teaches the ace whatever its suit)."""
    import torch
    import torch.nn as nn

    class Reader(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                *_block(4, 32, 1),
                *_block(32, 48, 2),  # 45 x 32
                *_block(48, 48, 1),
                *_block(48, 96, 2),  # 23 x 16
                *_block(96, 96, 1),
                *_block(96, 160, 2),  # 12 x 8
                *_block(160, 160, 1),
                *_block(160, 192, 2),  # 6 x 4
            )
            self.drop = nn.Dropout(0.2)
            self.head = nn.Linear(192 * 6 * 4, 13 + 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            z = self.head(self.drop(self.body(x).flatten(1)))
            rank = torch.log_softmax(z[:, :13], dim=1)
            suit = torch.log_softmax(z[:, 13:17], dim=1)
            # DECK order is suit-major: "2c", "3c", ..., "Ac", "2d", ...
            return (suit[:, :, None] + rank[:, None, :]).reshape(-1, 52)

    return Reader()


def _lighting(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` (float BGR) under another light, focus and sensor noise."""
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.4, 1.2)))
    gain = rng.uniform(0.6, 1.3) * rng.uniform(0.9, 1.1, 3)
    mean = image.mean()
    image = ((image - mean) * rng.uniform(0.7, 1.3) + mean) * gain
    return image + rng.normal(0, rng.uniform(0, 8), image.shape)


def turned_pose(pose: np.ndarray, quarter_turns: int) -> np.ndarray:
    """``pose`` (``POSE``) of a crop turned by ``np.rot90`` ``quarter_turns`` times
    (counter-clockwise as seen): a point (x, y) goes to (y, 1 - x) at each turn, the long side
    turns by a quarter turn, and its angle, doubled, by a half turn."""
    cx, cy, a, b, cos2, sin2 = (float(v) for v in pose)
    for _ in range(quarter_turns % 4):
        cx, cy = cy, 1 - cx
        cos2, sin2 = -cos2, -sin2
    return np.array([cx, cy, a, b, cos2, sin2], np.float32)


def augment_crops(
    crops: np.ndarray, poses: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    out = np.empty(crops.shape, np.float32)
    targets = np.empty(poses.shape, np.float32)
    for i, (crop, pose) in enumerate(zip(crops, poses, strict=True)):
        k = int(rng.integers(4))
        crop = np.rot90(crop, k, axes=(0, 1))
        targets[i] = turned_pose(pose, k)
        out[i, ..., :3] = _lighting(crop[..., :3].astype(np.float32), rng)
        out[i, ..., 3] = crop[..., 3]
    return np.clip(out, 0, 255), targets


def augment_views(
    views: np.ndarray, rng: np.random.Generator, corner_noise_px: float
) -> np.ndarray:
    out = np.empty(views.shape, np.float32)
    m = VIEW_MARGIN_PX
    outline = np.array(
        [[m, m], [VIEW_W_PX - m, m], [VIEW_W_PX - m, VIEW_H_PX - m], [m, VIEW_H_PX - m]],
        np.float32,
    )
    size = (VIEW_W_PX, VIEW_H_PX)
    for i, view in enumerate(views):
        if rng.random() < 0.5:
            view = view[::-1, ::-1]
        if corner_noise_px > 0 and rng.random() < 0.9:
            moved = outline + rng.normal(0, corner_noise_px, (4, 2)).astype(np.float32)
            moved += rng.uniform(-1.5, 1.5, 2).astype(np.float32) * corner_noise_px
            warp = cv2.getPerspectiveTransform(outline, moved)
            image = np.ascontiguousarray(view[..., :3])
            mask = np.ascontiguousarray(view[..., 3])
            view = np.dstack(
                [
                    cv2.warpPerspective(image, warp, size, borderMode=cv2.BORDER_REPLICATE),
                    cv2.warpPerspective(mask, warp, size, flags=cv2.INTER_NEAREST),
                ]
            )
        image = view[..., :3].astype(np.float32)
        if rng.random() < 0.3:  # seen from further away
            s = float(rng.uniform(0.5, 0.9))
            small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            image = cv2.resize(small, size)
        out[i, ..., :3] = _lighting(image, rng)
        out[i, ..., 3] = view[..., 3]
    return np.clip(out, 0, 255)


def corner_error_px(predicted: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """Each card's farthest corner from its true place, in crop pixels (``CROP_PX``), either
    half turn."""
    window = (0, 0, CROP_PX)
    out = []
    for p, t in zip(predicted, poses, strict=True):
        q, true = quad_of_pose(p, window), quad_of_pose(t, window)
        out.append(min(np.abs(q - true).max(), np.abs(q[[2, 3, 0, 1]] - true).max()))
    return np.array(out)


class Batches:
    """One pass over the training samples in batches of ``BATCH``, augmented, each batch from
    its own seed (so loader processes make the same batches as one process would)."""

    def __init__(
        self, x: np.ndarray, y: np.ndarray, corners: bool, corner_noise_px: float, seed: int
    ) -> None:
        self.x, self.y, self.corners, self.noise, self.seed = x, y, corners, corner_noise_px, seed
        order = np.random.default_rng(seed).permutation(len(x))
        self.batches = [np.sort(order[i : i + BATCH]) for i in range(0, len(x) - BATCH + 1, BATCH)]

    def __len__(self) -> int:
        return len(self.batches)

    def arrays(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Batch ``i``: its samples augmented, and their targets."""
        rng = np.random.default_rng((self.seed, i))
        idx = self.batches[i]
        if self.corners:
            return augment_crops(self.x[idx], self.y[idx], rng)
        return augment_views(self.x[idx], rng, self.noise), self.y[idx].astype(np.int64)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        import torch

        batch, target = self.arrays(i)
        return to_tensor(batch), torch.from_numpy(target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("network", choices=("corners", "reader"))
    parser.add_argument("--data", type=Path, required=True, help="models.upright_data's folder")
    parser.add_argument(
        "--steps", type=int, help="training steps (the learning rate decays over them)"
    )
    parser.add_argument(
        "--minutes", type=float, default=30.0, help="without --steps: train this long (0: export)"
    )
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument(
        "--init", type=Path, help="weights (.pt) to go on from, or an exported network (.onnx)"
    )
    parser.add_argument("--corner-noise", type=float, default=0.0, help="reader: pixels")
    parser.add_argument("--seed", type=int, default=0, help="the weights' start and the dropout")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--device", default="cpu", help="torch device: cpu, cuda")
    parser.add_argument(
        "--loaders", type=int, default=0, help="processes that augment batches (0: this one)"
    )
    parser.add_argument("--score-steps", type=int, default=200, help="steps between validations")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --steps: go on from the state kept at the last validation (in --data)",
    )
    parser.add_argument("--out", type=Path, help="default models/corners.onnx, models/upright.onnx")
    args = parser.parse_args()
    if args.resume and args.steps is None:
        parser.error("--resume takes --steps (a time budget cannot be resumed)")

    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    corners = args.network == "corners"
    kind = "corners" if corners else "views"
    train, val = (np.load(args.data / f"{kind}-{split}.npz") for split in ("train", "val"))
    if corners:
        x, y, x_val, y_val = train["crops"], train["poses"], val["crops"], val["poses"]
        model = corners_network()
    else:
        x, y, x_val, y_val = train["views"], train["labels"], val["views"], val["labels"]
        model = reader_network()
    if args.init and args.init.suffix == ".onnx":  # an exported network (the committed one)
        from_onnx(model, args.init, to_tensor(x[np.random.default_rng(0).choice(len(x), 512)]))
    elif args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu"))
    device = torch.device(args.device)
    model.to(device)
    checkpoint = args.data / f"{'corners' if corners else 'reader'}.pt"
    out = args.out or ROOT / "models" / ("corners.onnx" if corners else "upright.onnx")
    print(f"{len(x)} training, {len(x_val)} validation samples on {device}", flush=True)
    val_batches = [to_tensor(x_val[i : i + 512]) for i in range(0, len(x_val), 512)]

    def score() -> float:
        """Validation: the median corner error in pixels, or the share of cards named wrong."""
        model.eval()
        with torch.no_grad():
            p = np.concatenate([model(b.to(device)).cpu().numpy() for b in val_batches])
        model.train()
        if corners:
            return float(np.median(corner_error_px(p, y_val)))
        return float((p.argmax(axis=1) != y_val).mean())

    def keep() -> None:
        save_state(checkpoint, {k: v.cpu() for k, v in model.state_dict().items()})

    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    weights = torch.tensor(POSE_WEIGHTS, device=device)
    started, total_s, step = time.monotonic(), args.minutes * 60, 0
    state_path = args.data / f"{'corners' if corners else 'reader'}-resume.pt"
    state = load_state(state_path) if args.resume else None
    if state is not None:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimiser"])
        set_random_states(state["random"], device)
        step, best = int(state["step"]), float(state["best"])
        print(f"resumed at step {step}: best {best:.4f}", flush=True)
    else:
        best = score()
        print(f"start: {'corners px' if corners else 'wrong'} {best:.4f}", flush=True)
        keep()

    def progress() -> float:
        """How far training is, 0 to 1: by steps (``--steps``), else by the time budget."""
        if args.steps is not None:
            return float(step / max(1, args.steps))
        return float((time.monotonic() - started) / total_s) if total_s > 0 else 1.0

    per_epoch = len(Batches(x, y, corners, args.corner_noise, seed=0))
    epoch, skip = divmod(step, per_epoch)  # every epoch but the last runs whole
    while progress() < 1:
        batches = Batches(x, y, corners, args.corner_noise, seed=epoch)
        loader = torch.utils.data.DataLoader(
            torch.utils.data.Subset(batches, range(skip, len(batches))),
            batch_size=None,
            num_workers=args.loaders,
            pin_memory=device.type == "cuda",
        )
        epoch, skip = epoch + 1, 0
        for batch, target in loader:
            done = progress()
            if done >= 1:
                break
            for group in opt.param_groups:
                group["lr"] = args.lr * 0.5 * (1 + math.cos(math.pi * done))
            predicted = model(batch.to(device, non_blocking=True))
            target = target.to(device, non_blocking=True)
            if corners:
                loss = torch.nn.functional.smooth_l1_loss(
                    predicted, target, reduction="none", beta=0.02
                )
                loss = (loss * weights).mean()
            else:
                loss = torch.nn.functional.nll_loss(predicted, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % args.score_steps == 0:
                now = score()
                elapsed = time.monotonic() - started
                print(f"{elapsed:.0f} s, step {step}: loss {loss.item():.4f}, val {now:.4f}")
                if now <= best:
                    best = now
                    keep()
                save_state(
                    state_path,
                    {
                        "model": model.state_dict(),
                        "optimiser": opt.state_dict(),
                        "random": random_states(device),
                        "step": step,
                        "best": best,
                    },
                )
    if step > 0 and score() <= best:
        keep()
    model.load_state_dict(torch.load(checkpoint))
    model.to("cpu").eval()
    device = torch.device("cpu")
    export(model, out, corners)
    print(f"best val {score():.4f}; wrote {out}")
    return 0


def export(model: torch.nn.Module, out: Path, corners: bool) -> None:
    if corners:
        export_onnx(model, out, (1, 4, CROP_PX, CROP_PX), ("crops", "pose"), ("outputs", POSE))
    else:
        shape = (1, 4, VIEW_H_PX, VIEW_W_PX)
        export_onnx(model, out, shape, ("views", "log_probs"), ("names", DECK))


if __name__ == "__main__":
    sys.exit(main())
