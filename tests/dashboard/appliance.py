"""A table's appliance output for the dashboard's tests, made by the real engine from real
hands (../shared/data/phh): each hand completed as a table plays it (rake, mucks, pushes), some
with an irregularity injected (``engine.mutate``); the files written with the engine process's
own row functions, as ``feltwatch run`` writes them."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from engine import mutate, phh
from engine.alerts import Alert, alert_id
from engine.codec import event_to_json
from engine.events import Event, TableConfig
from engine.session import TableSession
from engine.table_files import TableFiles
from feltwatch.appliance.engine_main import hand_row
from feltwatch.appliance.live_view import LiveView
from tests.eventlog import SHARED
from vision.recorder import playable

REAL = sorted(phh.iter_phh_files([SHARED / "data" / "phh"]))
T0 = 1_790_000_000.0
"""Wall-clock seconds of the first hand (a fixed moment, the same in every run)."""
HAND_S = 120.0


@dataclass
class Table:
    name: str
    journal_dir: Path
    media_root: Path
    alerts: list[tuple[str, Alert]]
    """(hand's wall start, alert) in order."""
    expected: list[mutate.Expected]
    hands: list[str]
    events: list[Event]

    def file(self, kind: str) -> Path:
        return self.journal_dir / f"{self.name}.{kind}.jsonl"


KINDS = ("short_award", "exposed", "mucked_winner", "boxed")
"""The irregularities of the table's hands, in turn (a short payout where a hand allows no
other): one of each family the dashboard's tests look for."""


def hand_events(path: Path, name: str, hand: str) -> list[Event]:
    events = mutate.rename_hand(phh.to_events(phh.load(path), path=str(path)).events, hand)
    return [replace(e, table=name) if isinstance(e, TableConfig) else e for e in events]


def write_table(
    folder: Path, name: str = "t1", *, hands: int = 6, seed: int = 5, first: int = 0
) -> Table:
    """``hands`` real hands at table ``name``; every second one with an irregularity."""
    rng = random.Random(seed)
    journal, media = folder / "journal", folder / "recordings"
    journal.mkdir(parents=True, exist_ok=True)
    events: list[Event] = []
    expected: list[mutate.Expected] = []
    for i in range(hands):
        raw = hand_events(REAL[first + i], name, str(i + 1))
        kind = KINDS[(i // 2) % len(KINDS)]
        done = (mutate.mutate(raw, rng, kinds=[kind]) or mutate.mutate(raw, rng, kinds=[KINDS[0]])
                if i % 2 else None)  # fmt: skip
        if done is not None:
            hand, wanted = done
            expected.append(wanted)
        else:
            hand = mutate.complete(raw)
        events += mutate.renumber_from(hand, len(events) + 1)
    session = TableSession()
    table = Table(name, journal, media, [], expected, [], events)
    with (
        table.file("events").open("w") as ev,
        table.file("alerts").open("w") as al,
        table.file("hands").open("w") as ha,
    ):
        for event in events:
            ev.write(json.dumps(event_to_json(event), separators=(",", ":")) + "\n")
            report = session.feed(event)
            if report is None:
                continue
            number = len(table.hands)
            start = T0 + HAND_S * number
            table.hands.append(report.hand)
            for alert in report.alerts:
                row = {"table": name, "id": alert_id(name, alert.to_json()), **alert.to_json()}
                al.write(json.dumps({**row, "wall": start + 60, "replayed": False}) + "\n")
                table.alerts.append((report.hand, alert))
            summary = hand_row(report, start)
            summary["wall"] = start + 90
            ha.write(json.dumps(summary) + "\n")
    frame = np.full((540, 960, 3), (30, 90, 30), np.uint8)  # the felt, as a camera sends it
    views = TableFiles(table=name, journal_dir=journal).cameras_dir
    LiveView(views, "overhead", None).write(frame, [], {"fps": 30.0, "detector_fps": 10.0})
    return table


CLIP_FRAMES = 20
CLIP_FPS = 5
PROVED_AFTER_S = 2.0
"""The alert's proof lies this far into its clip (4 s long)."""


def add_clip(table: Table, alert: Alert, camera: str = "overhead") -> tuple[Path, Path]:
    """A real Motion-JPEG clip, its H.264 copy for the browser and a key frame for ``alert``,
    listed as the clip maker lists them (the proof 2 s into the clip, at its event's time)."""
    folder = table.media_root / "clips" / table.name / f"hand-{alert.hand}"
    folder.mkdir(parents=True, exist_ok=True)
    clip, key = folder / f"{alert.seq}-{alert.rule}-{camera}.avi", folder / "key.jpg"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter.fourcc(*"MJPG"), CLIP_FPS, (64, 48))
    for i in range(CLIP_FRAMES):
        writer.write(np.full((48, 64, 3), 10 * i, np.uint8))
    writer.release()
    play = clip.with_suffix(".mp4")
    assert playable(clip, play)
    cv2.imwrite(str(key), np.full((48, 64, 3), 128, np.uint8))
    proved = next(e for e in table.events if e.seq == alert.seq).ts_ms * 1_000_000
    row = {
        "table": table.name,
        "alert": alert_id(table.name, alert.to_json()),
        "hand": alert.hand,
        "camera": camera,
        "clip": str(clip.relative_to(table.media_root)),
        "play": str(play.relative_to(table.media_root)),
        "key_frame": str(key.relative_to(table.media_root)),
        "frames": CLIP_FRAMES,
        "from_ns": proved - int(PROVED_AFTER_S * 1e9),
        "to_ns": proved + int((CLIP_FRAMES / CLIP_FPS - PROVED_AFTER_S) * 1e9),
        "proved_ns": proved,
    }
    with (table.media_root / "clips" / table.name / "clips.jsonl").open("a") as manifest:
        manifest.write(json.dumps(row) + "\n")
    return clip, key
