"""``feltwatch watch SOURCE``: run the vision worker on one camera and print its observations.

SOURCE is a USB camera (``0``, ``usb:0``), a stream (``rtsp://...``), a video file, or ``demo``
/ ``demo:SEED``: a rendered table playing a scripted hand (``models.synth.video``), whose zones
are known, so it needs no ``--zones``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, cast

from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE

if TYPE_CHECKING:
    import numpy as np


def _demo(seed: int) -> tuple[Iterator[tuple[int, np.ndarray]], dict[str, object]]:
    from models.synth.video import HandVideo, Layout, demo_script, demo_start

    layout = Layout()
    video = HandVideo(layout, demo_script(seed, expose=2), seed=seed, start=demo_start())
    return ((f.ts_ns, f.image) for f in video.frames()), layout.zone_config()


def _live(source: str, seconds: float | None) -> Iterator[tuple[int, np.ndarray]]:
    from vision.sources import LatestFrame

    camera = LatestFrame(source).start()
    started = time.monotonic()
    said = ""
    try:
        while seconds is None or time.monotonic() - started < seconds:
            frame = camera.take(timeout_s=1.0)
            now = "" if camera.state == "connected" else f"{camera.state}: {camera.error}"
            if now != said and (now or frame is not None):  # each change once
                print(f"camera: {now or 'connected'}", file=sys.stderr)
                said = now
            if frame is not None:
                yield frame.ts_ns, frame.image
    finally:
        camera.stop()


def cmd_watch(args: argparse.Namespace) -> int:
    import yaml

    from vision.recognise import Recogniser
    from vision.sources import CameraError, is_live, video_frames
    from vision.worker import VisionWorker
    from vision.zones import ZoneError, ZoneMap

    source: str = args.source
    if source == "demo" or source.startswith("demo:"):
        frames, config = _demo(int(source.partition(":")[2] or 1))
    else:
        if not is_live(source) and not Path(source).is_file():
            why = "a folder, not a video file" if Path(source).is_dir() else "no such file"
            print(f"{source}: {why} (a live source is usb:N, rtsp://... or http://...)",
                  file=sys.stderr)  # fmt: skip
            return EXIT_UNUSABLE
        if args.zones is None:
            print(
                "--zones: needed for a camera or a file (write it with feltwatch calibrate)",
                file=sys.stderr,
            )
            return EXIT_UNUSABLE
        try:
            config = yaml.safe_load(Path(args.zones).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            why = (
                str(exc.strerror) if isinstance(exc, OSError) else "not a zone configuration (YAML)"
            )
            print(f"{args.zones}: {why}", file=sys.stderr)
            return EXIT_UNUSABLE
        if Path(source).is_file():
            frames = ((f.ts_ns, f.image) for f in video_frames(source))
        else:
            frames = _live(source, args.seconds)
    try:
        if not isinstance(config, dict):
            raise ZoneError("not a zone configuration (a mapping with corners_px and zones)")
        zones = ZoneMap.from_config(config)
    except (ZoneError, KeyError, TypeError, ValueError) as exc:
        why = str(exc) if isinstance(exc, ZoneError) else f"not a zone configuration ({exc!r:.80})"
        print(f"{args.zones or source}: {why}", file=sys.stderr)
        return EXIT_UNUSABLE
    worker = VisionWorker(args.camera, Recogniser(), zones.zone_of, chip_places=zones.chip_places)
    try:
        for ts_ns, image in frames:
            for observation in worker.process(image, ts_ns):
                row = {"type": type(observation).__name__, **asdict(observation)}
                if "counts" in row:
                    row["counts"] = {str(k): v for k, v in row["counts"].items()}
                print(json.dumps(row) if args.json else _line(row), flush=True)
    except CameraError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        pass
    stats = worker.stats
    print(
        f"{stats.frames} frames, {stats.passes} detection passes, {stats.tiles_read} tiles "
        f"read, {1000 * stats.busy_s / max(1, stats.frames):.1f} ms a frame",
        file=sys.stderr,
    )
    return EXIT_OK


def _line(row: dict[str, object]) -> str:
    seconds = int(cast(int, row.pop("ts_ns"))) / 1e9
    kind = row.pop("type")
    row.pop("camera")
    details = " ".join(f"{k}={v}" for k, v in row.items() if v is not None)
    return f"{seconds:8.2f}s  {kind:<13} {details}"


def add_watch_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("watch", help="run the vision worker on a camera, file or demo table")
    p.add_argument(
        "source", metavar="SOURCE", help="usb:N, rtsp://..., a video file, or demo[:SEED]"
    )
    p.add_argument("--zones", help="zone configuration (YAML, from feltwatch calibrate)")
    p.add_argument("--camera", default="overhead", help="camera name in the observations")
    p.add_argument("--seconds", type=float, help="stop a live source after this long")
    p.add_argument("--json", action="store_true", help="one JSON observation per line")
    p.set_defaults(run=cmd_watch)
