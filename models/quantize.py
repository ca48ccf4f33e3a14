"""Quantise the detector to int8 (onnxruntime static quantisation, QDQ, per channel): twice as
fast on one CPU core (10 vs 19 ms a 320-pixel tile here) for the same accuracy (`make eval`).

    .venv-train/bin/python -m models.quantize [--model models/detector.onnx] [--frames 120]

Calibrates on rendered training frames (``build/synth``, never test data). The detection
head's decoding (box distribution, concatenation of boxes in pixels with class scores in 0..1)
stays in float: one 8-bit scale cannot hold both.

Weights are 7-bit (``reduce_range``). On a CPU without VNNI (AVX2, as this machine) onnxruntime
multiplies 8-bit activations by 8-bit weights with an instruction that saturates the sum of two
products at 16 bits, so the same model gives other boxes there than on a CPU with VNNI; with
7-bit weights no sum saturates and the integer results are the same on both. Measured on an
earlier detector of the same network on the real ``valid/`` photos, on an AVX2 machine, card
recall: float export 0.893; 8-bit weights 0.827 (calibrating on real
photos too, or with percentile or entropy ranges, did not help); 7-bit 0.878; 7-bit with the
stem in float 0.888. So the stem (``--float-layers``, default layers 0 and 1: 5 % of the
multiply-adds, no time measurable) stays in float too. ``--full-range --float-layers`` (no
layers) quantises as the committed detector was.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from models.image_file import read_image
from models.real import ROOT
from vision.detector import letterbox

HEAD = re.compile(r"^/model\.23/")
HEAD_CONVS = re.compile(r"^/model\.23/cv[23]\.\d/cv[23]\.\d\.[01]/")
"""The head's feature convolutions, quantised like the rest; its decoding is not."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=ROOT / "models" / "detector.onnx")
    parser.add_argument("--data", type=Path, default=ROOT / "build" / "synth")
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--float-layers", type=int, nargs="*", default=[0, 1])
    parser.add_argument(
        "--full-range", action="store_true", help="8-bit weights (default 7: see the docstring)"
    )
    args = parser.parse_args()
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    source = onnx.load(str(args.model))
    if any(node.op_type == "QuantizeLinear" for node in source.graph.node):
        print(f"{args.model} is already quantised")
        return 0
    size = int(source.graph.input[0].type.tensor_type.shape.dim[2].dim_value) or 320
    frames = sorted((args.data / "images" / "train").glob("train-*.jpg"))[: args.frames]
    if not frames:
        print(f"{args.data}: no rendered training frames to calibrate on", file=sys.stderr)
        return 1

    class Frames(CalibrationDataReader):  # type: ignore[misc]  # onnxruntime has no type hints
        def __init__(self) -> None:
            self.paths = iter(frames)

        def get_next(self) -> dict[str, np.ndarray] | None:
            path = next(self.paths, None)
            if path is None:
                return None
            boxed, _, _ = letterbox(read_image(path), size)
            blob = np.ascontiguousarray(boxed[:, :, ::-1].transpose(2, 0, 1), dtype=np.float32)
            return {source.graph.input[0].name: blob[None] / 255.0}

    with tempfile.TemporaryDirectory() as tmp:
        prepared, quantised = Path(tmp) / "prepared.onnx", Path(tmp) / "int8.onnx"
        quant_pre_process(str(args.model), str(prepared))
        names = [n.name for n in onnx.load(str(prepared)).graph.node]
        stem = tuple(f"/model.{k}/" for k in args.float_layers)
        keep_float = [
            n for n in names if (HEAD.match(n) and not HEAD_CONVS.match(n)) or n.startswith(stem)
        ]
        quantize_static(
            str(prepared),
            str(quantised),
            Frames(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=not args.full_range,
            nodes_to_exclude=keep_float,
        )
        model = onnx.load(str(quantised))
        del model.metadata_props[:]
        model.metadata_props.extend(source.metadata_props)  # class names, input size
        onnx.save(model, str(quantised))
        shutil.copy(quantised, args.model)
    print(
        f"quantised {args.model} on {len(frames)} frames ({args.model.stat().st_size / 1e6:.1f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
