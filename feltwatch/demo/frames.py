"""The demo table read frame by frame: the same every run.

The live demo's cameras read the frames as they come and drop a frame when a core is busy, so
two runs see slightly different things. Here the vision worker reads every frame of the rendered
session (the committed ONNX models in onnxruntime), or the frames a camera process on a busy
core would have read (``BusyCore``: the frames it drops follow from a cost per frame and per
tile read, not from this machine's load, so they are the same every run), the simulated shoe's
reads are put on the session's timeline, and the appliance's engine core (fusion, hand engine,
rules) takes them in time order, as the live engine takes them in arrival order. The ground
truth's path (the observer fed the renderer's own sightings) is the peer: it judges the
appliance without the models.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.alerts import Alert
from engine.core import EngineCore
from engine.inputs import CardDrawn
from engine.observations import Observation
from models.synth.session import DemoSession
from models.synth.video import FPS

CAMERA = "overhead"
DETECT_EVERY = 3
"""The worker's detection passes: every third frame (the ground truth's path reads the same)."""


def shoe_reads(session: DemoSession) -> list[CardDrawn]:
    """The simulated shoe's reads on the session's timeline."""
    out: list[CardDrawn] = []
    for at_s, kind, cards in session.shoe_plan():
        if kind == "draw":
            seq = len(out) + 1
            out.append(
                CardDrawn(
                    ts_ns=round(at_s * 1e9),
                    device="shoe",
                    card=cards[0],
                    tag_id=seq,
                    shoe_seq=seq,
                    deck_id=1,
                )
            )
    return out


@dataclass(frozen=True, slots=True)
class BusyCore:
    """A camera process short of CPU: each frame it reads costs ``frame_ms`` (decoding, the
    motion gate, the recording) plus ``tile_ms`` for each tile the detector reads in it, on a
    clock of its own; a frame whose time is past before the process is free is dropped, as the
    live camera process drops it (``feltwatch.appliance.camera_main``)."""

    frame_ms: float
    tile_ms: float


BUSY_CORE = BusyCore(frame_ms=14.0, tile_ms=12.0)
"""Costs that drop 5.4 % of the demo's frames (862 of 16,092), most while hands move (the
detector reads more tiles then). A camera of the live demo with two cameras dropped 12 %
(``bench/e2e.py``). The worker keeps the tiles that come to rest unchanged unread, so it reads
fewer: costs of 12 and 10 ms drop 0.6 %; 16 and 12 ms drop 6.9 % and raise exactly the injected
alerts as well (``bench/demo_alerts.py --busy 16,12``)."""


@dataclass(slots=True)
class Observed:
    observations: list[Observation]
    frames: int
    dropped: int


def observed_by_models(session: DemoSession, video: Path, busy: BusyCore | None = None) -> Observed:
    """The vision worker on every frame of ``video`` (the session rendered by
    ``feltwatch.demo.prerender.prerender``), or on those a camera process on a ``busy`` core
    reads."""
    import cv2

    from vision.recognise import Recogniser
    from vision.worker import VisionWorker
    from vision.zones import ZoneMap

    zones = ZoneMap.from_config(session.layout.zone_config())
    worker = VisionWorker(CAMERA, Recogniser(), zones.zone_of, chip_places=zones.chip_places)
    capture = cv2.VideoCapture(str(video))
    out: list[Observation] = []
    frame_ms = 1000 / FPS
    clock_ms = 0.0
    dropped = 0
    try:
        for frame in session.frames_of(images=False):
            if busy is not None and clock_ms >= (frame.index + 1) * frame_ms:
                dropped += 1  # too late for this frame: skipped undecoded
                if not capture.grab():
                    raise ValueError(f"{video}: ends at frame {frame.index}, the session has more")
                continue
            ok, image = capture.read()
            if not ok:
                raise ValueError(f"{video}: ends at frame {frame.index}, the session has more")
            tiles = worker.stats.tiles_read
            out += worker.process(image, frame.ts_ns)
            if busy is not None:
                clock_ms = max(clock_ms, frame.index * frame_ms)  # waits for the frame's time
                clock_ms += busy.frame_ms + busy.tile_ms * (worker.stats.tiles_read - tiles)
    finally:
        capture.release()
    return Observed(out, session.frames, dropped)


def observed_truth(session: DemoSession) -> list[Observation]:
    """The observer fed the renderer's ground truth at the worker's detection passes."""
    from models.synth.truth import sightings
    from vision.observer import Observer
    from vision.zones import ZoneMap

    zones = ZoneMap.from_config(session.layout.zone_config())
    observer = Observer(CAMERA, zones.zone_of, chip_places=zones.chip_places)
    out: list[Observation] = []
    for frame in session.frames_of(images=False):
        if frame.index % DETECT_EVERY == 0:
            out += observer.update(sightings(frame.objects), frame.ts_ns)
    return out


def alerts_of(session: DemoSession, observations: list[Observation]) -> list[Alert]:
    """The observations and the shoe's reads in time order through the engine core."""
    inputs: list[Observation | CardDrawn] = [*observations, *shoe_reads(session)]
    inputs.sort(key=lambda item: item.ts_ns)  # stable: a camera's own order is kept
    core = EngineCore(session.table, button=1, camera=CAMERA)
    return [proved.alert for item in inputs for proved in core.feed(item).alerts]
