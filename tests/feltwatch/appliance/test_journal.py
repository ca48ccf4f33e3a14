"""The journal on a real disk: inputs and marks in order, a line cut by a power cut repaired,
a full disk survived without losing what was already written."""

from __future__ import annotations

import resource
from pathlib import Path

from engine.inputs import CardDrawn, TrayCounted
from engine.observations import CardAppeared, Face
from feltwatch.appliance.journal import BadLine, JournalWriter, Mark, read, since_last_close


def card(n: int) -> CardDrawn:
    return CardDrawn(ts_ns=n, device="shoe", card="As", tag_id=n, shoe_seq=n, deck_id=1)


def test_inputs_and_marks_come_back_in_order_and_a_restart_replays_the_open_hand(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    writer = JournalWriter(path)
    seen = CardAppeared(
        ts_ns=3, camera="c", track=1, zone="seat:1", face=Face.DOWN, card=None, conf=0.8
    )
    assert writer.append(card(1)) and writer.append(seen)
    assert writer.mark(Mark(4, "H1", "closed"))
    assert writer.append(TrayCounted(ts_ns=5, device="tray", counts={25: 4}))
    assert writer.append(card(6))
    writer.close()
    assert list(read(path)) == [
        card(1),
        seen,
        Mark(4, "H1", "closed"),
        TrayCounted(ts_ns=5, device="tray", counts={25: 4}),
        card(6),
    ]
    assert since_last_close(path) == [TrayCounted(ts_ns=5, device="tray", counts={25: 4}), card(6)]


def test_a_line_cut_by_a_power_cut_is_reported_then_cut_off_and_nothing_else_is_lost(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"
    writer = JournalWriter(path)
    writer.append(card(1))
    writer.append(card(2))
    writer.close()
    with open(path, "ab") as file:
        file.write(b'{"v": 1, "type": "CardDr')  # the power went here
    items = list(read(path))
    assert items[:2] == [card(1), card(2)]
    assert isinstance(items[2], BadLine) and "cut short" in str(items[2])
    assert str(items[2]).startswith(f"{path}:3:")
    writer = JournalWriter(path)
    assert "cut 24 bytes" in writer.repaired
    writer.append(card(3))
    writer.close()
    assert list(read(path)) == [card(1), card(2), card(3)]


def test_a_bad_line_is_named_and_the_reading_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b'{"v": 1, "type": "Nope"}\n' + b"garbage\n")
    writer = JournalWriter(path)
    writer.append(card(1))
    writer.close()
    items = list(read(path))
    assert [str(i).split(": ", 1)[0] for i in items[:2]] == [f"{path}:1", f"{path}:2"]
    assert "unknown input type 'Nope'" in str(items[0])
    assert items[2] == card(1)


def test_a_full_disk_keeps_lines_in_memory_and_says_so() -> None:
    writer = JournalWriter(Path("/dev/full"), max_pending=3, fsync=False)
    assert not writer.append(card(1))
    assert writer.error == "/dev/full: disk full: 1 lines wait in memory"
    for n in range(2, 6):
        writer.append(card(n))
    assert len(writer.pending) == 3 and writer.dropped == 2


def test_lines_that_waited_are_written_in_order_once_the_disk_takes_them(
    tmp_path: Path, file_size_limit: None
) -> None:
    path = tmp_path / "journal.jsonl"
    writer = JournalWriter(path)
    writer.append(card(1))
    size = path.stat().st_size
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 40, hard))  # room for part of a line
    assert not writer.append(card(2))
    assert not writer.append(card(3))
    assert "2 lines wait" in writer.error
    assert path.stat().st_size == size  # no half line left behind
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    assert writer.append(card(4))
    assert writer.error == ""
    writer.close()
    assert list(read(path)) == [card(1), card(2), card(3), card(4)]
