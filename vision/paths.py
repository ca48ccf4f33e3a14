"""Where the committed models are (the repository's ``models/``; override with options)."""

from __future__ import annotations

from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"
DETECTOR_MODEL = MODELS / "detector.onnx"
IDENTITY_MODEL = MODELS / "identity.onnx"
CORNERS_MODEL = MODELS / "corners.onnx"
UPRIGHT_MODEL = MODELS / "upright.onnx"
