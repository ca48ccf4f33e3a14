"""PHH: the real hands of ../shared/data/phh are reproduced, and our export reads back."""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory

from engine import codec, phh
from engine.events import Action, CardSeen, Event, Muck, Show
from engine.phh_replay import replay_files, run_hand
from tests.eventlog import SHARED, Log

PHH_DIR = SHARED / "data" / "phh"
REAL_FILES = sorted(phh.iter_phh_files([PHH_DIR]))


def test_the_real_hands_are_there() -> None:
    assert len(REAL_FILES) == 201, f"expected the 201 PHH files of {PHH_DIR}"


def test_every_real_hand_with_finishing_stacks_is_reproduced() -> None:
    summary = replay_files(REAL_FILES)
    failures = [
        f"{o.path}: {o.problem}" for o in summary.outcomes if o.checked and not o.reproduced
    ]
    assert failures == []
    assert (summary.hands, summary.checked, summary.reproduced) == (201, 200, 200)


def test_the_real_hands_raise_no_alert_with_every_rule_on() -> None:
    """They are clean hands: any alert is a false alert."""
    alerts = [
        f"{o.path}: {a.rule} {a.message}"
        for o in replay_files(REAL_FILES).outcomes
        for a in o.alerts
    ]
    assert alerts == []


@pytest.mark.parametrize(
    ("pattern", "replacement", "said"),
    [
        (r"blinds_or_straddles = \[[^\]]*\]", "blinds_or_straddles = 100", "blinds_or_straddles"),
        (r"actions = \[", "actions = 5 #[", "actions"),
        (r"players = \[", "players = [7, ", "players"),
        (r"starting_stacks = \[", "starting_stacks = [1, ", "6 amounts for 7 players"),
        (r"starting_stacks = \[[^\]]*\]", "starting_stacks = [10000]", "1 players"),
        (r"hand = 22", "hand = 22\nseats = [1, 2]", "2 seats for 6 players"),
    ],
)
def test_a_field_of_the_wrong_shape_is_one_line_naming_it(
    tmp_path: Path, pattern: str, replacement: str, said: str
) -> None:
    source = PHH_DIR / "data" / "pluribus" / "83" / "22.phh"
    path = tmp_path / "bad.phh"
    path.write_text(re.sub(pattern, replacement, source.read_text(), count=1))
    summary = replay_files([path])
    assert not summary.outcomes[0].reproduced
    assert said in str(summary.outcomes[0].problem)


def test_a_tampered_finishing_stack_is_caught(tmp_path: Path) -> None:
    source = PHH_DIR / "data" / "pluribus" / "83" / "22.phh"
    text = source.read_text().replace("10375]", "10376]")
    tampered = tmp_path / "22.phh"
    tampered.write_text(text)
    outcome = replay_files([tampered]).outcomes[0]
    assert not outcome.reproduced
    assert outcome.problem == "p6 (seat 6) finishes with 10375, the file says 10376"


def _moves(events: tuple[Event, ...] | list[Event]) -> list[tuple[object, ...]]:
    """What the players did, in order: the part a PHH round trip must keep."""
    out: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, Action):
            out.append(("action", e.seat, e.action, e.to))
        elif isinstance(e, Show):
            out.append(("show", e.seat, e.cards))
        elif isinstance(e, Muck):
            out.append(("muck", e.seat))
        elif isinstance(e, CardSeen) and e.to == "board":
            out.append(("board", e.card))
    return out


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: str(p.relative_to(PHH_DIR)))
def test_export_reads_back_with_pokerkit_to_the_same_hand(path: Path) -> None:
    original = phh.to_events(phh.load(path), path=str(path))
    config, events = next(phh.split_hands(original.events))
    exported = phh.from_events(config, events)
    text = exported.dumps()
    again = HandHistory.loads(text)
    # pokerkit itself plays the exported hand to the end...
    final = list(again)[-1]
    assert not final.status
    # ...and our reader gets the same actions, shows and board back.
    back = phh.to_events(again, path="exported")
    assert _moves(back.events) == _moves(original.events)
    if original.finishing_stacks is not None and original.units_per_chip == 1:
        assert list(final.stacks) == list(original.finishing_stacks.values())
        assert back.finishing_stacks == original.finishing_stacks


def test_heads_up_export_keeps_pokerkit_positions() -> None:
    log = (
        Log()
        .hand("hu", 2, {1: 1000, 2: 1000})
        .blinds((2, 50), (1, 100))
        .deal({1: "AhKh", 2: "2c7d"})
        .act(2, "raise", 300)
        .act(1, "call", 300)
        .board("Qs8d3c")
        .act(1, "bet", 200)
        .act(2, "fold")
        .end("hu")
    )
    events = [e for _, e in codec.iter_lines("x", io.StringIO(log.text())) if isinstance(e, Event)]
    config, hand_events = next(phh.split_hands(events))
    exported = phh.from_events(config, hand_events)
    final = list(HandHistory.loads(exported.dumps()))[-1]
    assert list(final.stacks) == [1300, 700]  # p1 = seat 1, the big blind; p2 = the button
    assert exported.finishing_stacks == [1300, 700]
    report = run_hand(phh.to_events(HandHistory.loads(exported.dumps())))
    assert report.alerts == ()


def test_every_real_hand_exported_in_one_phhs_replays_in_ours_and_in_pokerkit(
    tmp_path: Path,
) -> None:
    """The 201 real hands read, exported together as one ``.phhs`` as the dashboard's search
    export writes it: our replay and pokerkit's state machine play each to the finishing
    stacks the export wrote."""
    histories = []
    for path in REAL_FILES:
        original = phh.to_events(phh.load(path), path=str(path))
        histories += [phh.from_events(c, e) for c, e in phh.split_hands(original.events)]
    exported = tmp_path / "real.phhs"
    exported.write_text(phh.dump_histories(histories))
    summary = replay_files([exported])
    assert [o.problem for o in summary.outcomes if not o.reproduced] == []
    assert (summary.hands, summary.checked) == (201, 201)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of every user-defined field
        hands = list(HandHistory.loads_all(exported.read_text()))
    assert len(hands) == 201
    for hand in hands:
        final = list(hand)[-1]
        assert not final.status and hand.finishing_stacks is not None
        assert list(final.stacks) == list(hand.finishing_stacks)
