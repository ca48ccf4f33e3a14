"""The feed: what the appliance's files gain reaches the store once, bad lines are skipped and
said, and a restarted dashboard carries on where it was."""

from __future__ import annotations

import json
from pathlib import Path

from dashboard.apply import Applier
from dashboard.feed import Feed
from dashboard.store import HandQuery
from dashboard.store.sqlite import SqliteStore
from engine.table_files import TableFiles
from tests.dashboard.appliance import write_table
from tests.present import present


def test_everything_once_bad_lines_said_and_a_restart_resumes(tmp_path: Path) -> None:
    table = write_table(tmp_path, hands=4)
    files = TableFiles(table=table.name, journal_dir=table.journal_dir)
    store = SqliteStore(tmp_path / "d.sqlite3")
    Feed(store, [files]).poll()
    assert len(store.hands(HandQuery())) == 4
    assert len(store.alerts()) == len(table.alerts)
    with table.file("alerts").open("a") as file:
        file.write("{not json\n")
        file.write(json.dumps({"hand": "1", "rule": "R-X-1"}) + "\n")  # no seq, family...
        file.write('{"partial": ')  # still being written: left for later
    again = Feed(store, [files])  # a restarted dashboard
    again.poll()
    assert again.bad_lines == 2
    assert len(store.alerts()) == len(table.alerts)  # nothing twice
    health = {h.source: h for h in store.health(table.name)}
    assert health["feed"].status == "warning"
    assert str(table.file("alerts")) in health["feed"].message
    assert store.feed_offset(str(table.file("alerts"))) < table.file("alerts").stat().st_size


def test_a_replaced_file_is_read_from_its_start(tmp_path: Path) -> None:
    table = write_table(tmp_path, hands=2)
    files = TableFiles(table=table.name, journal_dir=table.journal_dir)
    store = SqliteStore(tmp_path / "d.sqlite3")
    feed = Feed(store, [files])
    feed.poll()
    light = table.file("light")
    rows = [
        {"colour": "amber", "pattern": "slow", "cause": "alert", "wall": 5.0},
        {"colour": "green", "pattern": "steady", "cause": "light button", "wall": 6.0},
    ]
    light.write_text("".join(json.dumps(r) + "\n" for r in rows))
    feed.poll()
    t = store.table(table.name)
    assert t is not None and t.light == "green steady"
    assert {a.status for a in store.alerts()} == {"acknowledged"}  # the dealer's button
    assert {a.acknowledged_by for a in store.alerts()} == {"dealer (light button)"}
    light.write_text(json.dumps({"colour": "red", "pattern": "fast", "wall": 7.0}) + "\n")
    feed.poll()  # shorter than what was read: a new file
    t = store.table(table.name)
    assert t is not None and t.light == "red fast"


def test_an_acknowledgement_on_another_dashboard_is_taken_here(tmp_path: Path) -> None:
    table = write_table(tmp_path, hands=2)
    files = TableFiles(table=table.name, journal_dir=table.journal_dir)
    store = SqliteStore(tmp_path / "d.sqlite3")
    feed = Feed(store, [files])
    feed.poll()
    first, second = store.alerts()[-1], store.alerts()[0]
    row = {"colour": "green", "pattern": "steady", "cause": "dashboard", "user": "sup (central)",
           "alert": first.id, "wall": 9.0}  # fmt: skip
    table.file("light").write_text(json.dumps(row) + "\n")
    feed.poll()
    assert present(store.alert(first.id)).acknowledged_by == "sup (central)"
    assert present(store.alert(second.id)).status == "open"


def test_a_camera_whose_view_is_degraded_is_shown_degraded_with_why(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "d.sqlite3")
    applier = Applier(store, clock=lambda: 100.0)
    figures = {"camera": "overhead", "wall": 99.5, "fps": 11.2, "detector_fps": 11.2}
    applier.row("t1", "camera", {**figures, "view_degraded": "48 frames dropped in 2.1 s"})
    (row,) = store.health("t1")
    assert (row.source, row.status) == ("camera:overhead", "degraded")
    assert row.message == "11.2 fps, detector 11.2/s; view degraded: 48 frames dropped in 2.1 s"
    applier.row("t1", "camera", {**figures, "view_degraded": ""})  # clear again
    (row,) = store.health("t1")
    assert (row.status, row.message) == ("running", "11.2 fps, detector 11.2/s")


BAD_ROWS = {
    "events": [
        b'{"seq": 336, "type": "hand_start", "hand": "stall", "stacks": {"1": "lots"}}',
        b'{"seq": 337, "type": "hand_start", "stacks": {"1": 100}}',
        b'{"seq": 1000000000000000000000000000000, "type": "action"}',
        b'{"seq": "x", "type": "action"}',
        b'{"seq": 338, "type": 5}',
        b'{"seq": 339, "type": "hand_start", "hand": {}, "button": [], "stacks": []}',
        b"[" * 5000 + b"]" * 5000,
        b'{"seq": 340, "type": "action", "ts_ms": 1e400}',
        b'\xff\xfe{"seq": 341}',
    ],
    "alerts": [
        b'{"hand": "1", "seq": 1000000000000000000000000000000, "rule": "R-X-1", "family": "f",'
        b' "severity": "warning", "seat": 2, "message": "m", "id": "big"}',
        b'{"hand": "1", "seq": 5, "rule": "R-X-1", "family": "f", "severity": "warning",'
        b' "seat": {}, "message": "m", "id": "seat-object"}',
        b'{"seq": 5, "rule": "R-X-1", "id": "no-hand"}',
        b'{"hand": [], "seq": 5, "rule": 7, "family": null, "id": ["x"]}',
    ],
    "light": [
        b'{"colour": "red", "pattern": "fast", "wall": 1' + b"0" * 400 + b"}",
        b'{"colour": {}, "pattern": [], "wall": "soon"}',
    ],
    "hands": [b'{"hand": {}, "table": 5}', b'{"hand": "1", "pot": 1e400}'],
    "health": [b'{"source": {}, "status": [], "wall": "x"}', b'{"wall": 1e400}'],
}


def test_bad_rows_are_quarantined_with_why_and_every_good_row_after_them_is_stored(
    tmp_path: Path,
) -> None:
    table = write_table(tmp_path, hands=2)
    files = TableFiles(table=table.name, journal_dir=table.journal_dir)
    store = SqliteStore(tmp_path / "d.sqlite3")
    feed = Feed(store, [files])
    feed.poll()
    events_before = len(store.events(table.name, table.hands[-1]))
    last_seq = max(e.seq for e in table.events)
    for kind, bad in BAD_ROWS.items():
        with table.file(kind).open("ab") as file:
            for row in bad:
                file.write(row + b"\n")
    good_health = {"source": "probe", "status": "ok", "message": "after the bad rows", "wall": 9.0}
    with table.file("health").open("a") as file:
        file.write(json.dumps(good_health) + "\n")
    good_events = [
        {"seq": last_seq + 1, "type": "hand_start", "ts_ms": 0, "hand": "after", "button": 1,
         "stacks": {"1": 500, "2": 500}},
        {"seq": last_seq + 2, "type": "hand_end", "ts_ms": 0, "hand": "after"},
    ]  # fmt: skip
    with table.file("events").open("a") as file:
        for good in good_events:
            file.write(json.dumps(good) + "\n")
    feed.poll()
    kept = store.quarantined(table.name, limit=1000)
    assert len(kept) == sum(len(rows) for rows in BAD_ROWS.values())
    assert all(q.reason and q.line for q in kept)
    assert {h.source: h.message for h in store.health(table.name)}["probe"] == "after the bad rows"
    assert store.hand(table.name, "after") is not None
    assert len(store.events(table.name, table.hands[-1])) == events_before
    for kind, path in files.records():
        assert store.feed_offset(str(path)) == path.stat().st_size, kind  # nothing left behind
    feed.poll()  # nothing is tried again
    assert len(store.quarantined(table.name, limit=1000)) == len(kept)
    assert "quarantined" in {h.source: h.message for h in store.health(table.name)}["feed"]
