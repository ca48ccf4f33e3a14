"""The observer's logic on a rendered hand, fed the renderer's own ground truth as sightings
(the detector is left out here: tests/vision/test_worker.py runs the real models)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

from engine.observations import (
    CardAppeared,
    CardGone,
    CardMoved,
    CardTurned,
    ChipsInZone,
    DealerHand,
    Face,
    Observation,
)
from models.synth.truth import sightings
from models.synth.video import (
    Clear,
    Deal,
    HandVideo,
    Layout,
    Move,
    Pause,
    Step,
    demo_script,
    demo_start,
)
from vision.observer import PILE_WAIT_NS, Observer
from vision.recognise import Box, Sighting
from vision.zones import ZoneMap

LAYOUT = Layout(frame=(960, 540))  # ground truth needs no resolution: a quick render


def observe(video: HandVideo, every: int = 3) -> list[Observation]:
    observer = Observer("overhead", ZoneMap.from_config(LAYOUT.zone_config()).zone_of)
    out: list[Observation] = []
    for frame in video.frames():
        if frame.index % every == 0:
            out.extend(observer.update(sightings(frame.objects), frame.ts_ns))
    return out


@cache
def demo_hand() -> tuple[Observation, ...]:
    video = HandVideo(LAYOUT, demo_script(1, expose=2), seed=1, start=demo_start())
    return tuple(observe(video))


def cards(observations: Iterable[Observation]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for o in observations:
        if isinstance(o, CardAppeared):
            out.append(("appeared", o.zone, o.face.value, o.card or "-"))
        elif isinstance(o, CardMoved):
            out.append(("moved", o.source, o.zone, o.face.value))
        elif isinstance(o, CardGone):
            out.append(("gone", o.zone))
    return out


def test_a_scripted_hand_is_observed_deal_by_deal() -> None:
    script = demo_script(1, expose=2)
    board = [s.card for s in script if isinstance(s, Deal) and s.zone == "board"]
    exposed = next(s.card for s in script if isinstance(s, Deal) and s.face == "up")
    expected = [("appeared", f"seat:{seat}", "down", "-") for seat in range(1, 7)] * 2
    expected[1] = ("appeared", "seat:2", "up", exposed)  # seat 2's first card came out face up
    expected += [("moved", "seat:3", "muck", "down")] * 2  # seat 3 folds
    expected += [("appeared", "burn", "down", "-")]
    expected += [("appeared", "board", "up", card) for card in board[:3]]
    expected += [("appeared", "burn", "down", "-"), ("appeared", "board", "up", board[3])]
    expected += [("appeared", "burn", "down", "-"), ("appeared", "board", "up", board[4])]
    assert cards(demo_hand()) == expected


def test_chips_are_counted_by_zone_and_denomination_through_bets_and_the_push() -> None:
    chips = [(o.zone, dict(o.counts)) for o in demo_hand() if isinstance(o, ChipsInZone)]
    start = [(f"stack:{seat}", {5: 2, 25: 4}) for seat in range(1, 7)]
    assert chips == [
        *start,
        ("stack:1", {5: 2, 25: 2}),
        ("bet:1", {25: 2}),
        ("stack:2", {5: 2, 25: 2}),
        ("bet:2", {25: 2}),
        ("bet:1", {}),
        ("pot", {25: 2}),
        ("bet:2", {}),
        ("pot", {25: 4}),
        ("pot", {}),
        ("stack:1", {5: 2, 25: 6}),  # the pot pushed to seat 1
    ]
    assert [o.amount for o in demo_hand() if isinstance(o, ChipsInZone)][-1] == 160


def test_the_dealers_hand_comes_and_goes() -> None:
    hands = [o for o in demo_hand() if isinstance(o, DealerHand)]
    assert hands and hands[0].present
    assert sum(o.present for o in hands) == sum(not o.present for o in hands)


def test_a_card_put_back_is_not_reported_and_cards_cleared_away_are_gone() -> None:
    script: list[Step] = [
        Deal("As", "seat:1"),
        Deal("Kd", "seat:2"),
        Pause(0.5),
        Move("As", "seat:1"),
        Pause(0.5),
        Clear(),
        Pause(3.0),
    ]
    video = HandVideo(LAYOUT, script, seed=2)
    assert cards(observe(video)) == [
        ("appeared", "seat:1", "down", "-"),
        ("appeared", "seat:2", "down", "-"),
        ("gone", "seat:1"),  # gathered up together and taken off the table
        ("gone", "seat:2"),
    ]


def test_observations_are_timestamped_by_the_frames_and_typed() -> None:
    observations = demo_hand()
    assert [o.ts_ns for o in observations] == sorted(o.ts_ns for o in observations)
    assert all(o.camera == "overhead" for o in observations)
    face_up = [o for o in observations if isinstance(o, CardAppeared) and o.face == Face.UP]
    assert all(o.card and 0 < o.conf <= 1 for o in face_up)


def test_a_card_turns_over_only_when_something_touched_it() -> None:
    """A face-down card at rest that the detector reads face up for a while, with nothing
    moving over it, is misread, not turned; turned over by a hand, it is reported."""
    zones = ZoneMap.from_config(LAYOUT.zone_config())
    observer = Observer("overhead", zones.zone_of)
    x, y = LAYOUT.to_frame(LAYOUT.places["seat:2"])
    box = (x - 15, y - 21, x + 15, y + 21)
    back = Sighting("card_back", 0.9, box)
    face = Sighting("card", 0.9, box, "Qh", 0.95)
    out: list[Observation] = []
    ts = 0
    for sighting in [back] * 5 + [face] * 6:  # dealt, then misread for six passes
        ts += 100_000_000
        out += observer.update([sighting], ts)
    assert cards(out) == [("appeared", "seat:2", "down", "-")]
    assert not [o for o in out if isinstance(o, CardTurned)]
    moving = Sighting("card", 0.9, box, "Qh", 0.95, moving=True)
    for sighting in [moving] * 2 + [face] * 4:  # a hand turns it over
        ts += 100_000_000
        out += observer.update([sighting], ts)
    turned = [o for o in out if isinstance(o, CardTurned)]
    assert [(o.zone, o.face.value, o.card) for o in turned] == [("seat:2", "up", "Qh")]


def _at(zone: str, size: tuple[float, float] = (15, 21)) -> tuple[float, float, float, float]:
    x, y = LAYOUT.to_frame(LAYOUT.places[zone])
    return (x - size[0], y - size[1], x + size[0], y + size[1])


def _feed(
    observer: Observer, passes: list[list[Sighting]], ts: int
) -> tuple[list[Observation], int]:
    out: list[Observation] = []
    for sightings_ in passes:
        ts += 100_000_000
        out += observer.update(sightings_, ts)
    return out, ts


def test_a_face_up_card_at_rest_is_reported_before_the_classifier_names_it() -> None:
    """The shoe names a card the camera cannot yet: its place and face are not held back."""
    observer = Observer("overhead", ZoneMap.from_config(LAYOUT.zone_config()).zone_of)
    unnamed = Sighting("card", 0.9, _at("board"))
    out, ts = _feed(observer, [[unnamed]] * 4, 0)
    assert [(type(o).__name__, o.zone, o.card) for o in out if isinstance(o, CardAppeared)] == [
        ("CardAppeared", "board", None)
    ]
    assert len(out) == 1
    named = Sighting("card", 0.9, _at("board"), "7d", 0.9)
    out, _ = _feed(observer, [[named]] * 3, ts)
    assert [(type(o).__name__, o.zone, o.card) for o in out if isinstance(o, CardTurned)] == [
        ("CardTurned", "board", "7d")
    ]
    assert len(out) == 1


def test_chips_under_a_hand_keep_their_count_until_it_leaves() -> None:
    observer = Observer("overhead", ZoneMap.from_config(LAYOUT.zone_config()).zone_of)
    chip = Sighting("chip", 0.9, _at("bet:1", (6, 6)), colour="black", denomination=100)
    hand = Sighting("hand", 0.9, _at("bet:1", (40, 40)), moving=False)
    out, ts = _feed(observer, [[chip]] * 4, 0)
    assert [(o.zone, o.amount) for o in out if isinstance(o, ChipsInZone)] == [("bet:1", 100)]
    out, ts = _feed(observer, [[hand]] * 6, ts)  # the chips under a dealer's hand
    assert not [o for o in out if isinstance(o, ChipsInZone)]
    out, _ = _feed(observer, [[]] * 4, ts)  # the hand gone, and the chips with it
    assert [(o.zone, o.amount) for o in out if isinstance(o, ChipsInZone)] == [("bet:1", 0)]


def test_chips_where_something_moved_unread_wait_for_the_detector_to_read_them() -> None:
    """The dealer's hand lifts off the last chip of a bet: the detector's reading of that part
    of the frame is older than the motion (only two chips in it). The zone waits until it is
    read again, so the bet is reported once, whole, not as two chips and then three."""
    observer = _observer()
    chips = [
        Sighting("chip", 0.9, _shifted(_at("bet:1", (6, 6)), dx), colour="black", denomination=100)
        for dx in (-14, 0, 14)
    ]
    lifted = _shifted(_at("bet:1", (10, 10)), 14)  # where the hand was, over the third chip
    out = []
    ts = 0
    for _ in range(5):
        ts += 100_000_000
        out += observer.update(chips[:2], ts, unread=[lifted])
    assert not [o for o in out if isinstance(o, ChipsInZone)]
    out, _ = _feed(observer, [chips] * 4, ts)
    assert [(o.zone, o.amount) for o in out if isinstance(o, ChipsInZone)] == [("bet:1", 300)]


def test_a_zone_holding_as_many_chips_as_lie_side_by_side_is_reported_full() -> None:
    """The demo table's bet zone holds 8 chips side by side: 8 chips seen there may hide more
    stacked on them (the count is a lower bound), 7 cannot."""
    zones = ZoneMap.from_config(LAYOUT.zone_config())
    assert zones.chip_places("bet:1") == 8
    observer = Observer("overhead", zones.zone_of, chip_places=zones.chip_places)
    chips = [
        Sighting("chip", 0.9, _shifted(_at("bet:1", (5, 5)), dx), colour="red", denomination=5)
        for dx in range(-14, 15, 4)
    ]
    assert len(chips) == 8 and {observer.zone(c.box) for c in chips} == {"bet:1"}
    out, ts = _feed(observer, [chips[:7]] * 4, 0)
    assert [(o.amount, o.full) for o in out if isinstance(o, ChipsInZone)] == [(35, False)]
    out, _ = _feed(observer, [chips] * 4, ts)
    assert [(o.amount, o.full) for o in out if isinstance(o, ChipsInZone)] == [(40, True)]


def test_the_first_hand_killed_onto_an_empty_muck_is_mucked() -> None:
    """At the showdown the losers' cards are thrown on an empty muck one after the other: the
    pile forms after the first hand left its seat and keeps moving, so no card rests apart on
    it. The first hand was thrown there all the same."""
    observer = _observer()
    seat = Sighting("card_back", 0.9, _at("seat:3"))
    stirred = Sighting("card_back", 0.9, _at("muck", (25, 25)), moving=True)
    _, ts = _feed(observer, [[seat]] * 5, 0)
    out, ts = _feed(observer, [[]] * 2 + [[stirred]] * 25, ts)
    assert ("moved", "seat:3", "muck", "down") in cards(out)


def test_cards_thrown_on_a_moving_muck_pile_are_mucked_and_go_with_the_pile() -> None:
    """Cards thrown on the muck merge with the pile (none comes to rest apart from it): a
    seat's card that left while the pile moved went there; when the muck is cleared they go."""
    observer = Observer("overhead", ZoneMap.from_config(LAYOUT.zone_config()).zone_of)
    seat = Sighting("card_back", 0.9, _at("seat:3"))
    pile = Sighting("card_back", 0.9, _at("muck", (25, 25)))
    stirred = Sighting("card_back", 0.9, _at("muck", (25, 25)), moving=True)
    out, ts = _feed(observer, [[seat, pile]] * 5, 0)
    out, ts = _feed(observer, [[stirred]] * 5 + [[pile]] * 20, ts)  # picked up, thrown on it
    moved = [o for o in out if isinstance(o, CardMoved)]
    assert [(o.source, o.zone) for o in moved] == [("seat:3", "muck")]
    assert moved[0].ts_ns <= 600_000_000 + PILE_WAIT_NS + 300_000_000  # picked up at 0.6 s
    out, _ = _feed(observer, [[]] * 40, ts)  # the muck cleared away
    assert sorted(o.zone for o in out if isinstance(o, CardGone)) == ["muck", "muck"]


def _shifted(box: Box, dx: float) -> Box:
    return (box[0] + dx, box[1], box[2] + dx, box[3])


def _observer() -> Observer:
    return Observer("overhead", ZoneMap.from_config(LAYOUT.zone_config()).zone_of)


def test_a_muck_pile_lost_from_view_and_found_again_is_not_a_fold() -> None:
    """The detector misses the pile for a few passes while a seat's card is hidden (chips
    pushed over it): the pile found again where it lay is the pile, not that card thrown."""
    observer = _observer()
    seat = Sighting("card_back", 0.9, _at("seat:3"))
    pile = Sighting("card_back", 0.9, _at("muck", (25, 25)))
    _, ts = _feed(observer, [[seat, pile]] * 5, 0)
    out, ts = _feed(observer, [[seat]] * 2 + [[]] * 2 + [[pile]] * 4 + [[seat, pile]] * 4, ts)
    assert cards(out) == []


def test_a_card_seen_in_its_seat_is_not_the_one_found_on_the_muck_at_that_pass() -> None:
    """A card cannot rest in its seat and be first seen on the muck at the same pass: when
    it is hidden right after, the card found on the muck is another. (The tracker starts a
    track at a detection's second pass.)"""
    observer = _observer()
    seat = Sighting("card_back", 0.9, _at("seat:3"))
    pile = Sighting("card_back", 0.9, _at("muck", (25, 25)))
    _, ts = _feed(observer, [[seat, pile]] * 5, 0)
    other = Sighting("card_back", 0.9, _shifted(_at("muck", (20, 28)), 30))
    passes = [[seat, pile, other]] * 2 + [[pile, other]] * 4 + [[seat, pile, other]] * 4
    out, ts = _feed(observer, passes, ts)
    assert ("moved", "seat:3", "muck", "down") not in cards(out)


def test_overlapping_cards_read_as_one_are_not_thrown_on_the_muck() -> None:
    """A shown hand's two cards overlap, and the detector sees one box over both: the card
    whose track was lost is still there (not picked up) while the pile moves; when the dealer
    collects the hand with everything else, both are gone, not mucked."""
    observer = _observer()
    first = _at("seat:4")
    second = _shifted(first, 12)
    both = (first[0], first[1], second[2], second[3])
    a = Sighting("card", 0.9, first, "Ah", 0.9)
    b = Sighting("card", 0.9, second, "As", 0.9)
    merged = Sighting("card", 0.9, both, "As", 0.9)
    pile = Sighting("card_back", 0.9, _at("muck", (25, 25)))
    stirred = Sighting("card_back", 0.9, _at("muck", (25, 25)), moving=True)
    _, ts = _feed(observer, [[a, b, pile]] * 5, 0)
    out, ts = _feed(observer, [[merged, stirred]] * 10 + [[pile]] * 15 + [[]] * 40, ts)
    assert ("moved", "seat:4", "muck", "down") not in cards(out)
    assert [o.zone for o in out if isinstance(o, CardGone)].count("seat:4") == 2


def test_a_pile_missed_for_a_pass_or_under_the_dealers_hand_is_still_there() -> None:
    """The pile a card is thrown on is missed for a pass, then lies under the dealer's
    hand: it was there all along, and the card was thrown on it."""
    observer = _observer()
    seat = Sighting("card_back", 0.9, _at("seat:3"))
    pile = Sighting("card_back", 0.9, _at("muck", (25, 25)))
    stirred = Sighting("card_back", 0.9, _at("muck", (25, 25)), moving=True)
    hand = Sighting("hand", 0.9, _at("muck", (40, 40)), moving=True)
    _, ts = _feed(observer, [[seat, pile]] * 5, 0)
    passes = [[stirred]] * 3 + [[]] + [[hand]] * 4 + [[stirred]] * 2 + [[pile]] * 15
    out, ts = _feed(observer, passes, ts)
    assert [c for c in cards(out) if c[0] != "appeared"] == [("moved", "seat:3", "muck", "down")]


def test_overlapping_cards_found_again_are_paired_with_the_nearest_lost() -> None:
    """Two overlapping cards in a seat are lost from view under a player's chips and found
    again, each a little off where it lay: each is the card that lay nearest, not a new one."""
    observer = _observer()
    first = _at("seat:6")
    second = _shifted(first, 10)
    a = Sighting("card_back", 0.9, first)
    b = Sighting("card_back", 0.9, second)
    _, ts = _feed(observer, [[a, b]] * 5, 0)
    found_a = Sighting("card_back", 0.9, _shifted(first, 1))
    found_b = Sighting("card_back", 0.9, _shifted(second, 3))
    out, ts = _feed(observer, [[b]] + [[]] * 3 + [[found_a]] + [[found_a, found_b]] * 5, ts)
    assert cards(out) == []


def test_a_card_the_tracker_finds_again_is_the_same_card_wherever_it_lies() -> None:
    """A seat's card near its zone's edge is missed for a few passes, found again across the
    line, missed again and found back where it lay: the tracker followed it all along (the
    same track), so it moved out and back, it is not a new card dealt to the seat (on the
    12-hand demo this read as a card thrown into seat 6's hand)."""
    observer = _observer()
    inside = Sighting("card_back", 0.9, _shifted(_at("seat:6"), 24))
    across = Sighting("card_back", 0.9, _shifted(_at("seat:6"), 33))
    assert observer.zone(inside.box) == "seat:6" and observer.zone(across.box) == "stack:6"
    out, _ = _feed(
        observer, [[inside]] * 5 + [[]] * 3 + [[across]] * 5 + [[]] * 3 + [[inside]] * 5, 0
    )
    assert cards(out) == [
        ("appeared", "seat:6", "down", "-"),
        ("moved", "seat:6", "stack:6", "down"),
        ("moved", "stack:6", "seat:6", "down"),
    ]


@pytest.mark.parametrize("zone", ["burn", "muck"])
def test_a_dealers_card_collected_is_gone_not_carried_to_a_players_chips(zone: str) -> None:
    """The dealer collects the burn pile (or the muck) while the pot is pushed to seat 1, and
    the detector reads a spot in the pushed chips as a card back: the card is gone with the
    pile, not carried to the winner's stack (the dealer's cards go to the muck or away; on the
    12-hand demo this left a card on the table for good, and the hand never ended)."""
    observer = _observer()
    card = Sighting("card_back", 0.9, _at(zone))
    spot = Sighting("card_back", 0.9, _at("stack:1", (12, 12)))
    out, _ = _feed(observer, [[card]] * 5 + [[spot]] * 40, 0)
    assert cards(out) == [
        ("appeared", zone, "down", "-"),
        ("appeared", "stack:1", "down", "-"),
        ("gone", zone),
    ]


def test_a_players_card_pushed_to_its_chips_is_moved_there() -> None:
    """A player's own card lost from view and found at rest among its chips is that card."""
    observer = _observer()
    seat = Sighting("card_back", 0.9, _at("seat:1"))
    stack = Sighting("card_back", 0.9, _at("stack:1"))
    out, _ = _feed(observer, [[seat]] * 5 + [[]] * 3 + [[stack]] * 10, 0)
    assert cards(out) == [
        ("appeared", "seat:1", "down", "-"),
        ("moved", "seat:1", "stack:1", "down"),
    ]


def test_a_burn_card_the_tracker_splits_is_not_a_second_burn() -> None:
    """The worker's passes over the burn pile (the demo's hand 5, every sighting there, on the
    frames a busy core reads, with the detector trained on pairs: `data/burn-pile-passes.json`):
    the turn's burn lands on the flop's; a hand passing and a tile's edge make the detector see
    parts of the flop's burn card for two passes, the tracker follows one part as a track of
    its own, which later takes the whole card over as the first track is lost. One card came
    to rest there, not a third burn (a false R-BURN-2 on a clean hand)."""
    layout = Layout()  # the demo's camera, 1920 x 1080
    observer = Observer("overhead", ZoneMap.from_config(layout.zone_config()).zone_of)
    recorded = json.loads((Path(__file__).parent / "data" / "burn-pile-passes.json").read_text())
    out: list[Observation] = []
    for ts_s, seen in recorded:
        passes = [
            Sighting(kind, conf, tuple(box), moving=moving) for kind, conf, box, moving in seen
        ]
        out += observer.update(passes, round(ts_s * 1e9))
    assert [c for c in cards(out) if c[1] == "burn"] == [("appeared", "burn", "down", "-")] * 2
