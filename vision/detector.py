"""The ONNX table detector in onnxruntime: letterbox, inference, decode, non-maximum suppression.

The model is a YOLO detector exported by ultralytics (``models/train.py``): one input
``images`` [1, 3, S, S] (RGB, 0..1) and one output [1, 4 + classes, anchors] of box centres and
sizes in input pixels followed by class scores. The class names come from the model's metadata.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

import onnxruntime as ort


@dataclass(frozen=True, slots=True)
class Detection:
    label: str
    conf: float
    box: tuple[float, float, float, float]
    """x1, y1, x2, y2 in the pixels of the image given."""
    cut: bool = False
    """The box reaches an inner edge of the tile it was read in: part of an object that the
    next tile holds whole (``vision.recognise.Recogniser.detect_tiles``)."""
    tile: tuple[int, int] | None = None
    """The top-left corner, in frame pixels, of the tile it was read in; None: read in the
    image whole."""


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Scale ``image`` to fit a ``size`` square, pad with grey; the scale and the padding."""
    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    nh, nw = round(h * scale), round(w * scale)
    resized = cv2.resize(
        image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    )
    top, left = (size - nh) // 2, (size - nw) // 2
    out = np.full((size, size, 3), 114, dtype=np.uint8)
    out[top : top + nh, left : left + nw] = resized
    return out, scale, (left, top)


def cpu_session(model: Path, threads: int) -> ort.InferenceSession:
    """An onnxruntime session on the CPU with ``threads`` threads that do not spin when idle
    (the worker shares its core with the capture and the other cameras)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


SAME_IOU = 0.5
"""Two boxes of a class overlapping more than this are one object seen twice (face-up cards and
backs: their own, ``OVERLAP``)."""
FACE_IOU = 0.7
"""Two face-up cards' boxes overlapping more than this are one card seen twice (ultralytics' own
default for every class). The two cards of a hand held or shown lie a third to half a card
apart, their boxes overlapping 0.5 to 0.7, and their names tell them apart: at 0.5 the lower
card's box would be suppressed and its name lost."""
BACK_IOU = 0.6
"""Two backs' boxes overlapping more than this are one back seen twice. The backs of a hand lie
as its faces do, but the burn and muck piles' lie closer, and the observer counts a pile's
cards as they come: at 0.7 the demo sees a second burn card where one lies; at 0.5 the lower
back of a tight pair is suppressed (selection views, backs found at 0.5 and at 0.6: 0.946 and
0.989 with the committed detector, as many false boxes)."""
FACE = "card"
"""The detector's label of a face-up card."""
BACK = "card_back"
"""The detector's label of a face-down card."""
OVERLAP = {FACE: FACE_IOU, BACK: BACK_IOU}
"""Label -> the overlap of two of its boxes that makes them one (``SAME_IOU`` for the others)."""


class Detector:
    def __init__(
        self,
        model: Path,
        *,
        threads: int = 1,
        conf: float = 0.25,
        iou: Mapping[str, float] = OVERLAP,
    ):
        self.session = cpu_session(model, threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        names = ast.literal_eval(meta["names"]) if "names" in meta else {}
        self.names: dict[int, str] = {int(k): str(v) for k, v in names.items()}
        shape = self.session.get_inputs()[0].shape
        self.size = int(shape[2]) if isinstance(shape[2], int) else 640
        self.input = self.session.get_inputs()[0].name
        self.conf = conf
        self.iou = {label: iou.get(label, SAME_IOU) for label in self.names.values()}
        """Label -> the overlap of two of its boxes that makes them one."""

    def __call__(self, image: np.ndarray) -> list[Detection]:
        """Detections in ``image`` (BGR, any size)."""
        boxed, scale, (left, top) = letterbox(image, self.size)
        blob = np.ascontiguousarray(boxed[:, :, ::-1].transpose(2, 0, 1), dtype=np.float32)
        blob = blob[None] / 255.0
        (output,) = self.session.run(None, {self.input: blob})
        return decode(output[0], self.names, self.conf, self.iou, scale, (left, top))


def decode(
    raw: np.ndarray,
    names: dict[int, str],
    conf: float,
    iou: float | Mapping[str, float],
    scale: float,
    padding: tuple[int, int],
) -> list[Detection]:
    """Boxes above ``conf`` from a YOLO output [4 + classes, anchors], mapped back through the
    letterbox, after per-class non-maximum suppression at ``iou`` (or a label's own, a label
    missing there at ``SAME_IOU``); best first."""
    scores = raw[4:]
    classes = scores.argmax(axis=0)
    confs = scores[classes, np.arange(scores.shape[1])]
    keep = confs >= conf
    if not keep.any():
        return []
    left, top = padding
    cx, cy, bw, bh = raw[0, keep], raw[1, keep], raw[2, keep], raw[3, keep]
    confs, classes = confs[keep], classes[keep]
    x1 = (cx - bw / 2 - left) / scale
    y1 = (cy - bh / 2 - top) / scale
    boxes = np.stack([x1, y1, bw / scale, bh / scale], axis=1).tolist()
    labels = [names.get(int(c), str(int(c))) for c in classes]
    overlap = [iou if isinstance(iou, float) else iou.get(label, SAME_IOU) for label in labels]
    out = []
    for limit in set(overlap):
        group = [i for i, o in enumerate(overlap) if o == limit]
        chosen = cv2.dnn.NMSBoxesBatched(
            [boxes[i] for i in group],
            [float(confs[i]) for i in group],
            [int(classes[i]) for i in group],
            conf,
            limit,
        )
        for k in np.array(chosen, dtype=int).reshape(-1):
            x, y, w, h = boxes[group[k]]
            out.append(Detection(labels[group[k]], float(confs[group[k]]), (x, y, x + w, y + h)))
    return sorted(out, key=lambda d: -d.conf)
