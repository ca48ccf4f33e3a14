"""Train the card identity classifier and export it to ONNX (the ``train`` extra).

    .venv-train/bin/python -m models.train_identity --data build/identity --steps 20000
        [--device cuda] [--minutes 60 (without --steps)]

A small CNN (about 0.82 M parameters, a factorised rank / suit / none head) on ``CROP_PX``
crops and their mask channel (``models.identity_data``): every batch is part rendered, part
real photos, each turned by a random quarter turn and jittered in light and focus. The epoch
with the best accuracy on the real ``valid`` crops (ties: rendered validation crops) is
exported to ``models/identity.onnx`` with the class names in its metadata. The training state
is kept at the end of each epoch (``identity-resume.pt``); ``--resume`` goes on from it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from models.identity_data import LABELS
from models.real import ROOT
from models.resume import load_state, random_states, save_state, set_random_states
from vision.identity import CROP_PX, to_channels

if TYPE_CHECKING:
    import torch

CHECKPOINT = "identity.pt"
"""The best epoch's weights, saved in the data folder (``--init`` continues from them)."""
RESUME = "identity-resume.pt"
"""The whole training state at the end of the last epoch, in the first data folder."""
REAL_SHARE = 0.35
"""Share of real crops in each training batch."""


CHANNELS = 4
"""The input's channels: RGB and the crop's ``box_mask`` (an RGB-only classifier goes on with
the mask's weights starting at zero, ``with_mask_channel``)."""
FEATURES = 192
"""Channels of the body's last feature map."""
CELLS = (CROP_PX // 16) ** 2
"""Places of that map (7 x 7): the head reads each apart (``network``)."""


def network() -> torch.nn.Module:
    """The CNN with a factorised head: rank (13), suit (4) and ``none`` are learnt apart, so
    every ace teaches the ace whatever its suit; the output is the log-probability of each of
    the 53 labels (``P(card) = (1 - P(none)) P(rank) P(suit)``).

    The head reads the 7 x 7 places of the last feature map apart (not their mean): where a card
    lies over another, the crop of the one below holds two corner indices, its own at the crop's
    corner and the other's in its middle, and only where each lies tells them apart."""
    import torch
    import torch.nn as nn

    def block(cin: int, cout: int, stride: int) -> list[nn.Module]:
        return [
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]

    class Factorised(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = body
            self.dropout = nn.Dropout(0.2)
            self.head = nn.Linear(FEATURES * CELLS, 13 + 4 + 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            z = self.head(self.dropout(self.body(x).flatten(1)))
            rank = torch.log_softmax(z[:, :13], dim=1)
            suit = torch.log_softmax(z[:, 13:17], dim=1)
            none = torch.nn.functional.logsigmoid(z[:, 17:18])
            face = torch.nn.functional.logsigmoid(-z[:, 17:18])
            # DECK order is suit-major: "2c", "3c", ..., "Ac", "2d", ...
            cards = (suit[:, :, None] + rank[:, None, :]).reshape(-1, 52) + face
            return torch.cat([cards, none], dim=1)

    body = nn.Sequential(
        *block(CHANNELS, 24, 2),  # 56
        *block(24, 48, 2),  # 28
        *block(48, 48, 1),
        *block(48, 96, 2),  # 14
        *block(96, 96, 1),
        *block(96, 192, 2),  # 7
        *block(192, FEATURES, 1),
    )
    return Factorised()


def with_mask_channel(weight: np.ndarray) -> np.ndarray:
    """The first convolution's weights [out, in, k, k] of a classifier that read fewer channels
    than ``CHANNELS`` (RGB only), with zero weights for the channels it did not read: the same
    outputs, whatever the mask, until training teaches it the mask."""
    missing = CHANNELS - weight.shape[1]
    if missing < 0:
        raise ValueError(f"a first convolution of {weight.shape[1]} channels: not this network's")
    if missing == 0:
        return weight
    pad = np.zeros((weight.shape[0], missing, *weight.shape[2:]), weight.dtype)
    return np.concatenate([weight, pad], axis=1)


def spread_head(weight: np.ndarray) -> np.ndarray:
    """A head trained on another size of feature map, as one for this network's
    ([outputs, FEATURES * CELLS], the map flattened channel by channel): a head that read the
    mean of the places ([outputs, FEATURES]) reads each place with a share of its weight, and one
    that read an n x n map (80-pixel crops: 5 x 5) is resized to this map's side, each
    channel's weights then shifted so that they sum as before. On a map that is the same at every
    place the outputs are unchanged, so a classifier trained before goes on from where it was."""
    if weight.shape[1] == FEATURES * CELLS:
        return weight
    places, rest = divmod(weight.shape[1], FEATURES)
    old = round(np.sqrt(places))
    if rest or old * old != places:
        raise ValueError(f"a head of {weight.shape[1]} inputs: not this network's")
    if old == 1:
        return np.repeat(weight / CELLS, CELLS, axis=1)
    import cv2

    side = round(np.sqrt(CELLS))
    maps = weight.reshape(-1, old, old).astype(np.float64)  # [outputs * FEATURES, old, old]
    sums = maps.sum(axis=(1, 2))
    resized = np.stack([cv2.resize(m, (side, side), interpolation=cv2.INTER_LINEAR) for m in maps])
    resized += ((sums - resized.sum(axis=(1, 2))) / CELLS)[:, None, None]
    return resized.reshape(weight.shape[0], FEATURES * CELLS).astype(weight.dtype)


BACKGROUND_BINS = 4
"""Brightness bins of a crop's border (the table around the card) for ``background_balance``."""


def background_balance(crops: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Sampling probabilities for ``crops`` under which the table around a card says nothing of
    its suit. In the real photos clubs lie on dark cloth twice as often as on light, spades the
    other way round, and a classifier learns that: rendered clubs on a light table were read as
    spades. Each crop is weighted by P(bin) / P(bin | suit), its border's brightness bin (by
    quantile) against its suit (``none`` is a group of its own), so every group keeps its share
    and has the overall mix of light and dark tables."""
    crops = crops[..., :3]  # the colours, not the mask
    edge = np.concatenate(
        [
            crops[:, :4].reshape(len(crops), -1),
            crops[:, -4:].reshape(len(crops), -1),
            crops[:, :, :4].reshape(len(crops), -1),
            crops[:, :, -4:].reshape(len(crops), -1),
        ],
        axis=1,
    ).mean(axis=1)
    cuts = np.quantile(edge, np.linspace(0, 1, BACKGROUND_BINS + 1)[1:-1])
    bins = np.searchsorted(cuts, edge)
    groups = np.where(labels < len(LABELS) - 1, labels // 13, 4)
    weights = np.zeros(len(crops))
    overall = np.bincount(bins, minlength=BACKGROUND_BINS) / len(crops)
    for group in np.unique(groups):
        mine = groups == group
        within = np.bincount(bins[mine], minlength=BACKGROUND_BINS) / mine.sum()
        weights[mine] = overall[bins[mine]] / within[bins[mine]]
    weighted: np.ndarray = weights / weights.sum()
    return weighted


def augment(crops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Quarter turns, light, contrast, colour cast, blur and noise on a batch (BGR and the mask,
    uint8): the mask is turned with its crop and left as it is otherwise."""
    out = np.empty_like(crops, dtype=np.float32)
    import cv2

    for i, crop in enumerate(crops):
        turned = np.rot90(crop, int(rng.integers(4)))
        out[i, ..., 3:] = turned[..., 3:]
        img = turned[..., :3].astype(np.float32)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.5)))
        if rng.random() < 0.3:  # lower resolution, as a far camera sees it
            small = int(rng.integers(24, CROP_PX))
            img = cv2.resize(
                cv2.resize(img, (small, small), interpolation=cv2.INTER_AREA), (CROP_PX, CROP_PX)
            )
        gain = rng.uniform(0.6, 1.3) * rng.uniform(0.9, 1.1, 3)
        mean = img.mean()
        img = (img - mean) * rng.uniform(0.7, 1.3) + mean
        img = img * gain + rng.normal(0, rng.uniform(0, 8), img.shape)
        out[i, ..., :3] = img
    return np.clip(out, 0, 255)


def to_tensor(batch: np.ndarray) -> torch.Tensor:
    import torch

    if batch.shape[-1] != CHANNELS:
        raise ValueError(f"crops of {batch.shape[-1]} channels, the network reads {CHANNELS}")
    rgb = to_channels(batch).transpose(0, 3, 1, 2) / 255.0
    return torch.from_numpy(np.ascontiguousarray(rgb, dtype=np.float32))


def accuracy(
    model: torch.nn.Module, crops: np.ndarray, labels: np.ndarray, device: str = "cpu"
) -> float:
    import torch

    model.eval()
    right = 0
    with torch.no_grad():
        for i in range(0, len(crops), 256):
            logits = model(to_tensor(crops[i : i + 256].astype(np.float32)).to(device))
            right += int((logits.argmax(1).cpu().numpy() == labels[i : i + 256]).sum())
    model.train()
    return right / max(1, len(crops))


def load(folders: list[Path], split: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The crops, labels (int64) and real flags of ``split`` in ``folders``, one after another."""
    parts = [np.load(folder / f"{split}.npz") for folder in folders]
    if len(parts) == 1:  # no copy of the crops (several GB)
        return parts[0]["crops"], parts[0]["labels"].astype(np.int64), parts[0]["real"]
    return (
        np.concatenate([p["crops"] for p in parts]),
        np.concatenate([p["labels"] for p in parts]).astype(np.int64),
        np.concatenate([p["real"] for p in parts]),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=[ROOT / "build" / "identity"],
        help="folders of models.identity_data (several: their crops together; the checkpoint"
        " and the history are written in the first)",
    )
    parser.add_argument(
        "--steps", type=int, help="training steps (the learning rate decays over them)"
    )
    parser.add_argument(
        "--minutes", type=float, default=60, help="without --steps: train this long"
    )
    parser.add_argument("--device", default="cpu", help="torch device: cpu, cuda")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument(
        "--real-share", type=float, default=REAL_SHARE, help="share of real crops in a batch"
    )
    parser.add_argument(
        "--init",
        type=Path,
        help="continue from this checkpoint (the weights a run saves as CHECKPOINT in --data)",
    )
    parser.add_argument(
        "--balance-background",
        action="store_true",
        help="sample the real crops so that the table's brightness says nothing of the suit",
    )
    parser.add_argument(
        "--select",
        choices=("real", "sum"),
        default="real",
        help="best epoch by real valid accuracy (ties: rendered), or by their sum",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with --steps: go on from the state kept at the end of the last epoch (in --data)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "models" / "identity.onnx")
    args = parser.parse_args()
    if args.resume and args.steps is None:
        parser.error("--resume takes --steps (a time budget cannot be resumed)")
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    tx, ty, treal = load(args.data, "train")
    vx, vy, vreal = load(args.data, "val")
    folder = args.data[0]
    synth_idx, real_idx = np.flatnonzero(~treal), np.flatnonzero(treal)
    print(f"train: {len(synth_idx)} rendered + {len(real_idx)} real; val: {len(vy)}", flush=True)
    model = network()
    if args.init is not None and args.init.suffix == ".onnx":
        sample = to_tensor(tx[rng.choice(len(tx), 512)].astype(np.float32))
        from_onnx(model, args.init, sample, with_mask_channel, spread_head)
        print(f"continuing from {args.init}", flush=True)
    elif args.init is not None:
        state = torch.load(args.init, map_location="cpu")
        state["body.0.weight"] = torch.from_numpy(with_mask_channel(state["body.0.weight"].numpy()))
        state["head.weight"] = torch.from_numpy(spread_head(state["head.weight"].numpy()))
        model.load_state_dict(state)
        print(f"continuing from {args.init}", flush=True)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    loss_fn = torch.nn.NLLLoss()  # the network outputs log-probabilities
    steps_per_epoch = max(1, len(tx) // args.batch)
    budget_s = args.minutes * 60
    start = time.monotonic()

    def progress(step: int) -> float:
        """How far training is, 0 to 1: by steps (``--steps``), else by the time budget."""
        if args.steps is not None:
            return float(step / max(1, args.steps))
        return float((time.monotonic() - start) / budget_s)

    device = torch.device(args.device)
    model.to(device)
    best: tuple[float, float] = (-1.0, -1.0)
    best_state = None
    history = []
    epoch = step = 0
    n_real = int(args.batch * args.real_share)
    real_p = background_balance(tx[real_idx], ty[real_idx]) if args.balance_background else None
    state_path = folder / RESUME
    state = load_state(state_path) if args.resume else None
    if state is not None:
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        set_random_states(state["random"], device)
        rng.bit_generator.state = state["numpy_random"]
        epoch, step, history = int(state["epoch"]), int(state["step"]), list(state["history"])
        best, best_state = tuple(state["best"]), state["best_model"]
        print(f"resumed after epoch {epoch} (step {step})", flush=True)
    while progress(step) < 1:
        epoch += 1
        for _ in range(steps_per_epoch):
            for group in optimiser.param_groups:  # cosine decay over the steps or the time
                group["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * min(1.0, progress(step))))
            pick = np.concatenate(
                [rng.choice(real_idx, n_real, p=real_p), rng.choice(synth_idx, args.batch - n_real)]
            )
            batch = to_tensor(augment(tx[pick], rng)).to(device)
            loss = loss_fn(model(batch), torch.from_numpy(ty[pick]).to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
            if progress(step) >= 1:
                break
        real_acc = accuracy(model, vx[vreal], vy[vreal], args.device)
        synth_acc = accuracy(model, vx[~vreal], vy[~vreal], args.device)
        history.append(
            {"epoch": epoch, "loss": float(loss.detach()), "real": real_acc, "synth": synth_acc}
        )
        print(json.dumps(history[-1]), flush=True)
        score = (real_acc, synth_acc) if args.select == "real" else (real_acc + synth_acc, real_acc)
        if score > best:
            best = score
            best_state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
            save_state(folder / CHECKPOINT, best_state)  # a later run may continue from it
        save_state(
            state_path,
            {
                "model": model.state_dict(),
                "optimiser": optimiser.state_dict(),
                "random": random_states(device),
                "numpy_random": rng.bit_generator.state,
                "epoch": epoch,
                "step": step,
                "history": history,
                "best": list(best),
                "best_model": best_state,
            },
        )
    assert best_state is not None
    model.to("cpu").load_state_dict(best_state)
    model.eval()
    export(model, args.out)
    (folder / "history.json").write_text(json.dumps(history, indent=1))
    real_best, synth_best = best if args.select == "real" else (best[1], best[0] - best[1])
    print(f"best real valid {real_best:.4f}, rendered valid {synth_best:.4f} -> {args.out}")
    return 0


def from_onnx(
    model: torch.nn.Module,
    path: Path,
    sample: torch.Tensor,
    first: Callable[[np.ndarray], np.ndarray] | None = None,
    head: Callable[[np.ndarray], np.ndarray] | None = None,
) -> None:
    """Load the weights of an exported network (each batch norm of its ``body`` folded into its
    convolution, as the export does; then its ``head``) into ``model`` to train it further.
    Each batch norm gets the statistics of its convolution's output on ``sample`` and passes
    it through unchanged but for the folded bias (the same function in training and evaluation
    mode). ``first`` and ``head``: what makes the input convolution's and the head's weights of
    an older network fit ``model`` (``with_mask_channel``, ``spread_head``)."""
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    convs = [w for name, w in weights.items() if name.startswith("onnx::Conv") and w.ndim == 4]
    biases = [w for name, w in weights.items() if name.startswith("onnx::Conv") and w.ndim == 1]
    layers = list(model.body)
    x = sample
    with torch.no_grad():
        for layer in layers:
            if isinstance(layer, torch.nn.Conv2d):
                conv_w, conv_b = convs.pop(0), biases.pop(0)
                if layer is layers[0] and first is not None:
                    conv_w = first(conv_w)
                layer.weight.copy_(torch.from_numpy(conv_w))
                x = layer(x)
                mean, var = x.mean(dim=(0, 2, 3)), x.var(dim=(0, 2, 3), unbiased=False)
                continue
            if isinstance(layer, torch.nn.BatchNorm2d):
                layer.running_mean.copy_(mean)
                layer.running_var.copy_(var)
                layer.weight.copy_(torch.sqrt(var + layer.eps))
                layer.bias.copy_(mean + torch.from_numpy(conv_b))
            x = layer(x)
        for name, param in model.head.named_parameters(prefix="head"):
            value = weights[name]
            if name == "head.weight" and head is not None:
                value = head(value)
            param.copy_(torch.from_numpy(value))
    if convs:
        raise ValueError(f"{path}: {len(convs)} convolutions left over: not this network")


def export(model: torch.nn.Module, out: Path) -> None:
    export_onnx(model, out, (1, CHANNELS, CROP_PX, CROP_PX), ("crops", "logits"), ("names", LABELS))


def export_onnx(
    model: torch.nn.Module,
    out: Path,
    shape: tuple[int, ...],
    names: tuple[str, str],
    metadata: tuple[str, list[str] | tuple[str, ...]],
) -> None:
    """``model`` to ONNX at ``out``: one input and one output (``names``) of any batch size,
    and one metadata entry (its key, and the values joined by commas)."""
    import onnx
    import torch

    tmp = out.with_suffix(".tmp.onnx")
    torch.onnx.export(
        model,
        torch.zeros(*shape),
        str(tmp),
        input_names=[names[0]],
        output_names=[names[1]],
        dynamic_axes={names[0]: {0: "n"}, names[1]: {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    proto = onnx.load(str(tmp))
    entry = proto.metadata_props.add()
    entry.key, entry.value = metadata[0], ",".join(metadata[1])
    onnx.save(proto, str(out))
    os.remove(tmp)
    shutil.rmtree(tmp.with_suffix(".data"), ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
