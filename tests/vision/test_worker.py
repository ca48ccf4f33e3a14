"""The whole vision worker with the committed models on rendered 1080p frames of a scripted
deal: hole cards face down to each seat (one comes out of the shoe face up), a hole card turned
face up where it lies (exposed), a fold to the muck, burn and flop, burn and turn, burn and
river, a bet into the pot and the push."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from engine.observations import CardAppeared, CardMoved, CardTurned, ChipsInZone, Observation
from models.synth.cards import STYLES, draw_card
from models.synth.video import Chips, Deal, HandVideo, Layout, Move, Pause, Step, Turn
from vision.recognise import Recogniser
from vision.worker import VisionWorker
from vision.zones import ZoneMap

LAYOUT = Layout(seats=3)
SCRIPT: list[Step] = [
    Deal("7c", "seat:1"),
    Deal("Ah", "seat:2", "up"),  # a hole card out of the shoe face up
    Deal("2d", "seat:3"),
    Deal("9s", "seat:1"),
    Deal("Kd", "seat:2"),
    Deal("5h", "seat:3"),
    Turn("9s"),  # seat 1's second card turned face up: exposed
    Chips("stack:1", "bet:1", {25: 2}),
    Move("2d", "muck"),  # seat 3 folds
    Move("5h", "muck"),
    Chips("bet:1", "pot", {25: 2}),
    Deal("3c", "burn"),
    Deal("Qs", "board", "up"),
    Deal("Jh", "board", "up"),
    Deal("4d", "board", "up"),
    Deal("8c", "burn"),
    Deal("Td", "board", "up"),
    Deal("6s", "burn"),
    Deal("Ac", "board", "up"),
    Chips("pot", "stack:2", {25: 2}),  # the push
    Pause(0.3),
]


READ_PER_FRAME: list[int] = []
"""Tiles the detector read at each frame of the run below."""


@cache
def observed() -> tuple[Observation, ...]:
    video = HandVideo(LAYOUT, SCRIPT, seed=11, start={"stack:1": {25: 3}})
    zones = ZoneMap.from_config(LAYOUT.zone_config())
    worker = VisionWorker("overhead", Recogniser(), zones.zone_of)
    out: list[Observation] = []
    for frame in video.frames():
        before = worker.stats.tiles_read
        out.extend(worker.process(frame.image, frame.ts_ns))
        READ_PER_FRAME.append(worker.stats.tiles_read - before)
    return tuple(out)


def cards_seen() -> list[tuple[str, str, str | None]]:
    """Each card event (where, face, name), a renaming (the identity vote changed its mind)
    folded into the name of the event it renames."""
    out: list[tuple[str, str, str | None]] = []
    at: dict[int, int] = {}  # track -> its entry in out
    for o in observed():
        if isinstance(o, CardTurned) and o.track in at and out[at[o.track]][1] == o.face.value:
            where, face, _ = out[at[o.track]]
            out[at[o.track]] = (where, face, o.card)
            continue
        if isinstance(o, CardAppeared):
            entry = (o.zone, o.face.value, o.card)
        elif isinstance(o, CardMoved):
            entry = (f"{o.source}->{o.zone}", o.face.value, o.card)
        elif isinstance(o, CardTurned):
            entry = (f"turned in {o.zone}", o.face.value, o.card)
        else:
            continue
        at[o.track] = len(out)
        out.append(entry)
    return out


EXPECTED = [
    ("seat:1", "down", None),
    ("seat:2", "up", "Ah"),  # out of the shoe face up
    ("seat:3", "down", None),
    ("seat:1", "down", None),
    ("seat:2", "down", None),
    ("seat:3", "down", None),
    ("turned in seat:1", "up", "9s"),  # exposed where it lies
    ("seat:3->muck", "down", None),  # the fold
    ("seat:3->muck", "down", None),
    ("burn", "down", None),
    ("board", "up", "Qs"),
    ("board", "up", "Jh"),
    ("board", "up", "4d"),
    ("burn", "down", None),
    ("board", "up", "Td"),
    ("burn", "down", None),
    ("board", "up", "Ac"),
]


def test_each_card_is_observed_where_it_lands_and_face_up_cards_are_reported_so() -> None:
    seen = cards_seen()
    assert [(where, face) for where, face, _ in seen] == [(w, f) for w, f, _ in EXPECTED]
    assert all(name is not None for _, face, name in seen if face == "up")


def test_the_face_up_cards_are_named() -> None:
    """The identity classifier on ~47-pixel cards: measured 7 of the 7 right (the classifier
    before read the jack of hearts as the king of diamonds); at least 6 are asked, and the two
    exposed cards must be right."""
    names = [
        (name, want)
        for (_, face, name), (_, _, want) in zip(cards_seen(), EXPECTED, strict=True)
        if face == "up"
    ]
    assert names[0] == ("Ah", "Ah") and names[1] == ("9s", "9s")
    assert sum(name == want for name, want in names) >= 6, names


def test_chips_are_followed_from_the_stack_to_the_bet_the_pot_and_the_winner() -> None:
    chips = [(o.zone, o.amount) for o in observed() if isinstance(o, ChipsInZone)]
    assert chips == [
        ("stack:1", 75),
        ("stack:1", 25),
        ("bet:1", 50),
        ("bet:1", 0),
        ("pot", 50),
        ("pot", 0),
        ("stack:2", 50),
    ]


def test_the_reading_is_spread_over_the_frames() -> None:
    """At most ``tiles_per_frame`` tiles a frame, on every frame (not a pass's worth on the
    pass's frame): the whole table at the start takes 11 frames (32 tiles), a still table
    none."""
    observed()
    assert max(READ_PER_FRAME) == 3 and READ_PER_FRAME[:10] == [3] * 10
    assert sum(1 for n in READ_PER_FRAME if n == 0) > len(READ_PER_FRAME) // 4
    passes = READ_PER_FRAME[::3]
    assert sum(passes) < sum(READ_PER_FRAME) / 2  # most tiles are read between passes


def test_a_tile_a_hand_left_as_it_was_is_not_read_again_and_one_it_changed_is() -> None:
    """A hand (a skin-coloured patch) passes over a stack and leaves it as it was: the tiles
    it crossed, once still, take their last reading again unread, so the table is seen as
    before. A card put down there is read and seen."""
    video = HandVideo(LAYOUT, [Pause(0.2)], seed=11, start={"stack:1": {25: 3}})
    still = next(iter(video.frames())).image
    worker = VisionWorker(
        "overhead", Recogniser(), ZoneMap.from_config(LAYOUT.zone_config()).zone_of
    )
    clock = iter(range(0, 10**12, 33_333_333))

    def show(image: np.ndarray, frames: int = 1) -> None:
        for _ in range(frames):
            worker.process(image, next(clock))

    show(still, 15)  # the whole table: 32 tiles, 3 a frame
    before = sorted((s.kind, s.box) for s in worker.sightings)
    x1, y1, x2, y2 = next(s.box for s in worker.sightings if s.kind == "chip")
    cx, cy = int((x1 + x2) / 2), int((y1 + y2) / 2)
    read, kept = worker.stats.tiles_read, worker.stats.tiles_kept
    for dx in range(-150, 151, 25):  # the hand crosses the stack
        frame = still.copy()
        cv2.ellipse(frame, (cx + dx, cy), (45, 60), 0, 0, 360, (120, 150, 210), -1)
        show(frame)
    show(still, 2)  # the hand gone: what it crossed is still moving for two frames
    assert worker.stats.tiles_read > read  # read while the hand moved (to see it)
    read = worker.stats.tiles_read
    show(still, 10)
    assert worker.stats.tiles_kept > kept
    assert worker.stats.tiles_read == read  # come to rest as they were: none read
    assert sorted((s.kind, s.box) for s in worker.sightings) == before

    dealt = still.copy()
    card = cv2.resize(draw_card("Kd", STYLES[0]), (47, 66), interpolation=cv2.INTER_AREA)
    dealt[cy - 140 : cy - 74, cx - 23 : cx + 24] = card
    read = worker.stats.tiles_read
    show(dealt, 12)
    assert worker.stats.tiles_read > read
    assert any(
        s.kind == "card" and s.box[0] < cx < s.box[2] and s.box[1] < cy - 107 < s.box[3]
        for s in worker.sightings
    )
