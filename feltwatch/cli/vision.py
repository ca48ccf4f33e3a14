"""``feltwatch detect`` and ``feltwatch calibrate``: the vision path on stills."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

from feltwatch.appliance.exits import EXIT_CANNOT_WRITE, EXIT_OK, EXIT_UNUSABLE
from feltwatch.cli.common import naming

CALIBRATION_DIR = Path("build") / "calibration"
"""Where ``calibrate`` writes when told nowhere (not the current folder's top)."""


if TYPE_CHECKING:
    import numpy as np

    from vision.recognise import Recogniser


def _recogniser(args: argparse.Namespace) -> Recogniser | None:
    from vision.recognise import Recogniser

    for path in (args.detector, args.identity):
        if not Path(path).is_file():
            print(f"feltwatch detect: {path}: model file missing", file=sys.stderr)
            return None
    return Recogniser(Path(args.detector), Path(args.identity), threads=args.threads)


def cmd_detect(args: argparse.Namespace) -> int:
    import cv2

    recogniser = _recogniser(args)
    if recogniser is None:
        return EXIT_UNUSABLE
    status = EXIT_OK
    for name in args.images:
        image = cv2.imread(name, cv2.IMREAD_COLOR) if Path(name).is_file() else None
        if image is None:
            why = "no such file" if not Path(name).exists() else "not an image OpenCV can read"
            print(f"{name}: {why}", file=sys.stderr)
            status = EXIT_UNUSABLE
            continue
        sightings = recogniser.image(image)
        h, w = image.shape[:2]
        if args.json:
            print(
                json.dumps(
                    {
                        "image": name,
                        "width": w,
                        "height": h,
                        "detections": [s.as_json() for s in sightings],
                    }
                )
            )
            continue
        print(f"{name} ({w} x {h}): {len(sightings)} objects")
        for s in sightings:
            entry = s.as_json()
            extra = f"  {entry['colour']} = {entry['denomination']}" if "colour" in entry else ""
            box = ", ".join(f"{v:.0f}" for v in cast("list[float]", entry["box"]))
            print(f"  {entry['label']:<10} {entry['conf']:.2f}  [{box}]{extra}")
    return status


def _corners(text: str) -> list[list[float]]:
    try:
        points = [[float(v) for v in pair.split(",")] for pair in text.split()]
    except ValueError:
        points = []
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise argparse.ArgumentTypeError(
            f"expected four 'x,y' pixel points (top-left top-right bottom-right bottom-left), "
            f"got {text!r}"
        )
    return points


def cmd_calibrate(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np
    import yaml

    from vision.layout import TableLayout, overlapping
    from vision.overlay import draw_zones
    from vision.zones import ZoneError, ZoneMap

    image = cv2.imread(args.image, cv2.IMREAD_COLOR) if Path(args.image).is_file() else None
    if image is None:
        print(f"{args.image}: cannot read the image", file=sys.stderr)
        return EXIT_UNUSABLE
    for output in (args.output, args.preview):
        Path(output).parent.mkdir(parents=True, exist_ok=True)
    h, w = image.shape[:2]
    if args.corners is None:  # step 1: a pixel grid to read the corners off
        grid = image.copy()
        step = 100 if max(h, w) <= 2500 else 250
        for x in range(0, w, step):
            cv2.line(grid, (x, 0), (x, h), (0, 255, 255), 1)
            cv2.putText(grid, str(x), (x + 2, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 255), 1)
        for y in range(0, h, step):
            cv2.line(grid, (0, y), (w, y), (0, 255, 255), 1)
            cv2.putText(grid, str(y), (2, y - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 255), 1)
        if not _write_image(args.preview, grid):
            return EXIT_CANNOT_WRITE
        print(
            f"wrote {args.preview}: read the pixel positions of the playing surface's four "
            f"corners (top-left, top-right, bottom-right, bottom-left; the dealer at the "
            f"bottom), then run\n"
            f"  feltwatch calibrate {args.image} --corners 'x,y x,y x,y x,y' -o zones.yaml"
        )
        return EXIT_OK
    layout = TableLayout(args.width_mm, args.height_mm, args.seats)
    zones = layout.zones()
    config = {
        "corners_px": args.corners,
        "width_mm": args.width_mm,
        "height_mm": args.height_mm,
        "zones": zones,
    }
    try:
        zone_map = ZoneMap.from_config(config)
    except ZoneError as exc:
        print(f"--corners: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    preview = image.copy()
    draw_zones(preview, zone_map)
    cv2.polylines(preview, [np.array(args.corners, np.int32)], True, (0, 0, 255), 2, cv2.LINE_AA)
    with naming(args.output):
        Path(args.output).write_text(
            "# Zone configuration written by feltwatch calibrate: corners in camera pixels,\n"
            "# zones in table millimetres (edit the polygons to fit the table's printed layout).\n"
            + yaml.safe_dump(config, sort_keys=False)
        )
    if not _write_image(args.preview, preview):
        return EXIT_CANNOT_WRITE
    for a, b in overlapping(layout.zones()):
        print(
            f"{args.output}: zones {a} and {b} overlap: edit their polygons to fit the "
            f"table's printed layout",
            file=sys.stderr,
        )
    print(
        f"wrote {args.output} ({len(zones)} zones, {args.seats} seats) and "
        f"{args.preview} (the zones drawn on the image: check they fit)"
    )
    return EXIT_OK


def add_vision_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from vision.paths import DETECTOR_MODEL, IDENTITY_MODEL

    p = commands.add_parser("detect", help="cards, card backs, chips and hands in images")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per image")
    p.add_argument("--detector", default=str(DETECTOR_MODEL), help="detector ONNX model")
    p.add_argument("--identity", default=str(IDENTITY_MODEL), help="card identity ONNX model")
    p.add_argument("--threads", type=int, default=2, help="onnxruntime threads (default 2)")
    p.set_defaults(run=cmd_detect)

    p = commands.add_parser("calibrate", help="mark the table corners and write the zones")
    p.add_argument("image", metavar="IMAGE", help="a still from the overhead camera")
    p.add_argument("--corners", type=_corners, help="'x,y x,y x,y x,y' in image pixels")
    p.add_argument("--width-mm", type=float, default=2400.0, help="surface width (2400)")
    p.add_argument("--height-mm", type=float, default=1300.0, help="surface depth (1300)")
    p.add_argument("--seats", type=int, default=6, help="seats (default 6)")
    p.add_argument(
        "-o", "--output", default=str(CALIBRATION_DIR / "zones.yaml"), help="zone config to write"
    )
    p.add_argument(
        "--preview",
        default=str(CALIBRATION_DIR / "calibration.png"),
        help="image to write for checking",
    )
    p.set_defaults(run=cmd_calibrate)


def _write_image(path: str, image: np.ndarray) -> bool:
    """Write an image (its format from the name's extension); False, said, when it cannot be."""
    import cv2

    try:
        written = bool(cv2.imwrite(path, image))
    except cv2.error:  # an extension no encoder knows
        written = False
    if not written:
        print(f"error: {path}: the image could not be written (a full or read-only disk, or "
              "an extension other than .png or .jpg)", file=sys.stderr)  # fmt: skip
    return written
