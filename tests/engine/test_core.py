"""The engine core: copies of inputs are dropped (a shoe read resent, observations resent after
a reconnection), only the table camera feeds the fusion, and alerts come out as they are
proved; the journal's table line makes a journal replay on its own."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

from engine.core import EngineCore
from engine.inputs import CardDrawn
from engine.observations import CardAppeared, ChipsInZone, Face
from engine.simulate import demo_table
from feltwatch.appliance.engine_service import replay_journal
from feltwatch.appliance.journal import JournalWriter, TableLine, read
from feltwatch.cli.run import _Collect

TABLE = demo_table()


def draw(seq: int, card: str) -> CardDrawn:
    return CardDrawn(
        ts_ns=seq * 1000, device="shoe", card=card, tag_id=seq, shoe_seq=seq, deck_id=2
    )


def stack(seat: int) -> ChipsInZone:
    return ChipsInZone(ts_ns=100 + seat, camera="overhead", zone=f"stack:{seat}", counts={100: 10})


def seen(ts: int, track: int, zone: str, camera: str = "overhead") -> CardAppeared:
    return CardAppeared(
        ts_ns=ts, camera=camera, track=track, zone=zone, face=Face.DOWN, card=None, conf=0.9
    )


def test_copies_are_dropped_and_only_the_table_camera_feeds_the_fusion() -> None:
    core = EngineCore(TABLE, camera="overhead")
    assert not core.feed(draw(9, "Kd")).events  # the opening read waits for the camera
    unseen = core.feed(replace(draw(10, "Qd"), ts_ns=9000 + 4_000_000_000))
    # no chips seen 4 s after the first read: no hand can start; each read said, not raised
    assert not unseen.events and len(unseen.errors) == 2
    assert all("no hand can start" in line for line in unseen.errors), unseen.errors
    for seat in (1, 2, 3):
        core.feed(stack(seat))
    assert not core.feed(draw(1, "As")).events  # the first read waits for the camera
    assert core.feed(draw(1, "As")).duplicate  # the same read sent again
    first = core.feed(seen(5000, 1, "seat:2"))  # the camera caught up: the hand starts
    assert [e.TYPE for e in first.events] == ["table", "hand_start", "shoe_draw", "card"]
    again = core.feed(seen(5000, 1, "seat:2"))
    assert again.duplicate and not again.events
    core.feed(draw(2, "Kh"))
    other = seen(5000, 2, "seat:3")  # another card seen in the same frame: not a copy
    assert core.feed(other).events
    assert core.feed(seen(4000, 7, "seat:4")).duplicate  # older than what the camera sent
    assert not core.feed(seen(6000, 3, "seat:5", camera="dealer")).events  # journalled only
    chips = ChipsInZone(ts_ns=7000, camera="dealer", zone="bet:1", counts={25: 2})
    assert not core.feed(chips).duplicate


def test_a_journal_with_its_table_line_replays_on_its_own(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    journal = JournalWriter(path, fsync=False)
    journal.table(TableLine(TABLE, 3, "overhead"))
    for seat in (2, 3):
        journal.append(stack(seat))
    journal.append(draw(1, "As"))
    journal.append(seen(5000, 1, "seat:2"))
    journal.close()
    line = next(iter(read(path)))
    assert line == TableLine(TABLE, 3, "overhead")
    core, lines = replay_journal(path)
    assert core is not None and lines == 5
    assert core.camera == "overhead" and core.open_hand == "1"
    assert core.fusion.button == 3


def test_a_journal_with_shoe_reads_late_under_load_replays_to_the_scripted_alerts(
    tmp_path: Path,
) -> None:
    """The 12-hand demo's journal from a CI run with both cores busy: in hand 5
    the shoe's reads of the flop's 9c and 3s (stamped when the shoe took them) reached the
    engine after the camera's sight of each card. It raised R-DECK-12 twice ("9c seen at board
    but the shoe never dealt it"); the cards now wait for their reads, and the replay gives the
    demo's scripted irregularities only."""
    journal = tmp_path / "demo.jsonl"
    with gzip.open(Path(__file__).parent / "data" / "demo-shoe-late.jsonl.gz") as packed:
        journal.write_bytes(packed.read())
    lines = journal.read_text().splitlines()
    nine = next(i for i, line in enumerate(lines) if '"card":"9c","conf"' in line)
    read = next(i for i, line in enumerate(lines) if '"shoe_seq":95,' in line)
    assert nine < read  # the camera's sight of the 9c came first, as in the run

    heard = _Collect()
    replay_journal(journal, heard)
    assert not heard.errors, heard.errors
    assert len(heard.hands) == 12
    assert [(p.alert.hand, p.alert.rule) for p in heard.alerts] == [
        ("2", "R-EXPOSE-4"),
        ("2", "R-EXPOSE-4"),
        ("4", "R-BOX-1"),
        ("6", "R-MUCK-7"),
        ("8", "R-POT-5"),
    ]
