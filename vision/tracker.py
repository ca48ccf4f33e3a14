"""Multi-object tracking of the sightings: ByteTrack (roboflow/supervision) gives each physical
object an id across detection passes; we keep, per id, what the object is (its kind and the
votes for its identity) and where it is.

supervision is pinned at 0.30: it still has ``ByteTrack`` and, unlike its successor package
``trackers``, does not pull the desktop build of OpenCV beside the appliance's headless one.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    import supervision as sv

from vision.recognise import CARD, Sighting

Box = tuple[float, float, float, float]


@dataclass(slots=True)
class Track:
    id: int
    kind: str
    box: Box
    seen_ns: int
    """When it was last matched."""
    votes: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    """Card identity -> summed classifier confidence over the face-up sightings."""
    faces: int = 0
    """Face-up sightings, named or not (the classifier may be too unsure to name one)."""

    @property
    def card(self) -> tuple[str | None, float]:
        """The identity with the most votes and its share of all votes."""
        if not self.votes:
            return None, 0.0
        best = max(self.votes, key=self.votes.__getitem__)
        return best, self.votes[best] / sum(self.votes.values())

    @property
    def card_conf(self) -> float:
        """How sure the name is: the classifier's confidence in it, averaged over every
        face-up sighting (one unsure reading, or readings split between names, score low)."""
        name, _ = self.card
        return self.votes[name] / self.faces if name is not None and self.faces else 0.0


class Tracker:
    def __init__(self, *, lost_passes: int = 30, match_iou: float = 0.5) -> None:
        """``lost_passes``: detection passes a track survives unseen (a hand over a card);
        ``match_iou``: ByteTrack's matching threshold on 1 - IoU (0.5: a detection continues a
        track only if it overlaps it by half: cards at rest overlap their track almost wholly,
        and a card dealt half over another must not take the other's track).

        Each kind (face up, card back) has its own ByteTrack: a back dealt over a face-up card
        must not continue the face's track. A card turned over in place ends one track and
        starts another; the observer pairs them.

        A track starts only from a sighting scored above 0.7 (ByteTrack's activation threshold
        0.6, plus its 0.1); sightings from 0.1 up then continue it. Dealt cards score 0.8-0.95;
        a detector can also score a table rail's end 0.3-0.6 as a card back now and
        then, and a spot in a pot pushed to a stack 0.54: with tracks started at 0.35 such a
        spot becomes a card and takes over the track of a card that left its seat, or was
        collected, meanwhile (``tests/vision/test_worker.py``: a hand that never ends)."""
        self.lost_passes = lost_passes
        self.match_iou = match_iou
        self._bytes: dict[str, sv.ByteTrack] = {}
        self._ids: dict[tuple[str, int], int] = {}
        self.tracks: dict[int, Track] = {}

    def _byte(self, kind: str) -> sv.ByteTrack:
        byte = self._bytes.get(kind)
        if byte is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                byte = self._bytes[kind] = sv.ByteTrack(
                    track_activation_threshold=0.6,
                    lost_track_buffer=self.lost_passes,
                    minimum_matching_threshold=self.match_iou,
                    frame_rate=30,
                    minimum_consecutive_frames=1,
                )
        return byte

    def update(self, sightings: list[Sighting], ts_ns: int) -> list[tuple[Track, Sighting]]:
        """Match the sightings of one pass (the whole frame) to tracks; returns the matched
        pairs. Tracks ByteTrack has dropped are removed from ``tracks``."""
        out = []
        alive = set()
        for kind in sorted({s.kind for s in sightings} | set(self._bytes)):
            mine = [s for s in sightings if s.kind == kind]
            byte = self._byte(kind)
            for byte_id, sighting in self._update_kind(byte, mine):
                key = (kind, byte_id)
                if key not in self._ids:
                    self._ids[key] = len(self._ids) + 1
                track_id = self._ids[key]
                track = self.tracks.get(track_id)
                if track is None:
                    track = self.tracks[track_id] = Track(track_id, kind, sighting.box, ts_ns)
                track.box, track.seen_ns = sighting.box, ts_ns
                if sighting.kind == CARD:
                    track.faces += 1
                    if sighting.card:
                        track.votes[sighting.card] += sighting.card_conf
                out.append((track, sighting))
            for t in (*byte.tracked_tracks, *byte.lost_tracks):
                if (kind, t.external_track_id) in self._ids:
                    alive.add(self._ids[(kind, t.external_track_id)])
        for gone in [tid for tid in self.tracks if tid not in alive]:
            del self.tracks[gone]
        return out

    @staticmethod
    def _update_kind(byte: sv.ByteTrack, sightings: list[Sighting]) -> list[tuple[int, Sighting]]:
        if sightings:
            detections = sv.Detections(
                xyxy=np.array([s.box for s in sightings], np.float32),
                confidence=np.array([s.conf for s in sightings], np.float32),
                class_id=np.zeros(len(sightings), int),
                data={"index": np.arange(len(sightings))},
            )
        else:
            detections = sv.Detections.empty()
            detections.confidence = np.zeros(0, np.float32)
        tracked = byte.update_with_detections(detections)
        indices = tracked.data.get("index", [])
        ids: Iterable[int] = tracked.tracker_id if tracked.tracker_id is not None else []
        return [(int(t), sightings[int(i)]) for t, i in zip(ids, indices, strict=True)]
