"""The feed: what the appliance's files gain reaches the store once, bad lines are skipped and
said, and a restarted dashboard carries on where it was."""

from __future__ import annotations

import json
from pathlib import Path

from dashboard.apply import Applier
from dashboard.feed import Feed, TableFiles
from dashboard.store import HandQuery
from dashboard.store.sqlite import SqliteStore
from tests.dashboard.appliance import write_table


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
    assert store.alert(first.id).acknowledged_by == "sup (central)"  # type: ignore[union-attr]
    assert store.alert(second.id).status == "open"  # type: ignore[union-attr]


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
