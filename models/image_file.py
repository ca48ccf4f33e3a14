"""An image file read for training or evaluation (OpenCV reads what it cannot decode as None)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ImageFileError(ValueError):
    pass


def read_image(path: Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """The pixels of ``path`` (BGR, or as ``flags`` say); ``ImageFileError`` names a file that
    is missing or not an image."""
    image = cv2.imread(str(path), flags)
    if image is None:
        raise ImageFileError(f"{path}: missing, or not an image OpenCV can read")
    return np.asarray(image)
