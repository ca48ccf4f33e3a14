"""The demo table read frame by frame: the same every run.

The live demo's cameras read the frames as they come and drop a frame when a core is busy, so
two runs see slightly different things. Here the vision worker reads every frame of the rendered
session (the committed ONNX models in onnxruntime), the simulated shoe's reads are put on the
session's timeline, and the appliance's engine core (fusion, hand engine, rules) takes them in
time order, as the live engine takes them in arrival order. The ground truth's path (the
observer fed the renderer's own sightings) is the peer: it judges the appliance without the
models.
"""

from __future__ import annotations

from pathlib import Path

from engine.alerts import Alert
from engine.inputs import CardDrawn
from engine.observations import Observation
from feltwatch.engine_core import EngineCore
from models.synth.session import DemoSession

CAMERA = "overhead"
DETECT_EVERY = 3
"""The worker's detection passes: every third frame (the ground truth's path reads the same)."""


def shoe_reads(session: DemoSession) -> list[CardDrawn]:
    """The simulated shoe's reads on the session's timeline."""
    out = []
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


def observed_by_models(session: DemoSession, video: Path) -> list[Observation]:
    """The vision worker on every frame of ``video`` (the session rendered by
    ``feltwatch.demo_cli.prerender``)."""
    import cv2

    from vision.recognise import Recogniser
    from vision.worker import VisionWorker
    from vision.zones import ZoneMap

    zones = ZoneMap.from_config(session.layout.zone_config())
    worker = VisionWorker(CAMERA, Recogniser(), zones.zone_of)
    capture = cv2.VideoCapture(str(video))
    out: list[Observation] = []
    try:
        for frame in session.frames_of(images=False):
            ok, image = capture.read()
            if not ok:
                raise ValueError(f"{video}: ends at frame {frame.index}, the session has more")
            out += worker.process(image, frame.ts_ns)
    finally:
        capture.release()
    return out


def observed_truth(session: DemoSession) -> list[Observation]:
    """The observer fed the renderer's ground truth at the worker's detection passes."""
    from models.synth.truth import sightings
    from vision.observer import Observer
    from vision.zones import ZoneMap

    observer = Observer(CAMERA, ZoneMap.from_config(session.layout.zone_config()).zone_of)
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
