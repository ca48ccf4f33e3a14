"""The repository, on SQLite and on a real PostgreSQL: the same calls, the same answers."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.store import AlertRow, AlertStatus, HandQuery, Role, StoreError
from dashboard.store.sql import SqlStore
from dashboard.store.sqlite import SqliteStore

COUNTER = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStore]:
    if request.param == "sqlite":
        made: SqlStore = SqliteStore(tmp_path / "d.sqlite3")
    else:
        from dashboard.store.postgres import PostgresStore

        server = request.getfixturevalue("postgres_server")
        made = PostgresStore(server.database(f"store{next(COUNTER)}"))
    yield made
    made.close()


def hand(seq: int, name: str, stacks: dict[str, int]) -> list[dict[str, object]]:
    return [
        {"type": "hand_start", "seq": seq, "ts_ms": 0, "hand": name, "button": 1, "stacks": stacks},
        {"type": "blind", "seq": seq + 1, "ts_ms": 0, "seat": 2, "amount": 50},
        {"type": "hand_end", "seq": seq + 2, "ts_ms": 0, "hand": name},
    ]


def alert(hand_name: str, seq: int, family: str = "exposed_card") -> AlertRow:
    return AlertRow(
        id=f"a{hand_name}-{seq}", table="t1", hand=hand_name, seq=seq, rule="R-X-1",
        family=family, severity="warning", seat=2, message="m", raised_at=100.0 + seq,
        status=AlertStatus.OPEN, body={"evidence": [seq]},
    )  # fmt: skip


def test_migrations_apply_once(store: SqlStore) -> None:
    assert store.applied == [
        "0001_initial.sql",
        f"0002_audit_append_only.{store.dialect}.sql",
        "0003_quarantine.sql",
        "0004_clip_player.sql",
    ]


def test_events_hands_and_copies(store: SqlStore) -> None:
    table = {"type": "table", "seq": 1, "ts_ms": 0, "table": "t1", "sb": 50, "bb": 100}
    rows = [table, *hand(2, "1", {"1": 1000, "2": 900}), *hand(5, "2", {"2": 950, "3": 500})]
    assert store.put_events("t1", rows, 10.0) == 7
    assert store.put_events("t1", rows[3:], 11.0) == 0  # copies are ignored
    assert [e.type for e in store.events("t1", "2")] == ["hand_start", "blind", "hand_end"]
    assert store.table_config_before("t1", 5) == table
    found = store.hands(HandQuery(table="t1"))
    assert [(h.hand, h.complete, dict(h.seats)) for h in found] == [
        ("2", True, {2: 950, 3: 500}),
        ("1", True, {1: 1000, 2: 900}),
    ]
    assert [h.hand for h in store.hands(HandQuery(seat=1))] == ["1"]
    current = store.current_hand("t1")
    assert current is not None and current.hand == "2"
    store.put_hand_summary("t1", "1", {"started_wall": 3.0, "wall": 4.0, "alerts": 0})
    first = store.hand("t1", "1")
    assert first is not None and (first.started_at, first.ended_at) == (3.0, 4.0)
    assert [h.hand for h in store.hands(HandQuery(since=5.0))] == ["2"]


def test_alerts_acknowledge_resolve_and_the_changes_feed(store: SqlStore) -> None:
    store.put_events("t1", hand(1, "1", {"1": 1, "2": 2}), 10.0)
    start = store.last_change_id()
    assert store.put_alert(alert("1", 2)) is True
    assert store.put_alert(alert("1", 2)) is False  # the same alert again (a restart)
    assert store.put_alert(alert("1", 3, "chip_miscount")) is True
    assert store.open_counts() == {"t1": {"warning": 2}}
    assert [h.hand for h in store.hands(HandQuery(family="chip_miscount"))] == ["1"]
    assert [h.hand for h in store.hands(HandQuery(has_alert=False))] == []
    acked = store.acknowledge("a1-2", "sup", 20.0)
    assert (acked.status, acked.acknowledged_by) == (AlertStatus.ACKNOWLEDGED, "sup")
    done = store.acknowledge_table("t1", "dealer", 21.0)
    assert [a.id for a in done] == ["a1-3"]
    resolved = store.resolve("a1-2", "sup", "checked", 22.0)
    assert (resolved.status, resolved.note) == (AlertStatus.RESOLVED, "checked")
    with pytest.raises(StoreError):
        store.resolve("a1-2", "sup", "again", 23.0)
    with pytest.raises(StoreError):
        store.acknowledge("nope", "sup", 23.0)
    kinds = [(c.kind, c.body.get("id")) for c in store.changes(start)]
    assert kinds == [
        ("alert", "a1-2"),
        ("alert", "a1-3"),
        ("alert_status", "a1-2"),
        ("alert_status", "a1-3"),
        ("alert_status", "a1-2"),
    ]
    table = store.table("t1")
    assert table is not None and table.open_alerts == 0


def test_accounts_sessions_and_the_append_only_audit_log(store: SqlStore) -> None:
    store.add_user("ana", "hash", Role.ADMIN, 1.0)
    with pytest.raises(StoreError):
        store.add_user("ana", "hash", Role.VIEWER, 1.0)
    store.add_session("tok", "ana", "csrf", 1.0, 100.0)
    session = store.session("tok", 50.0)
    assert session is not None and (session.user.role, session.csrf) == (Role.ADMIN, "csrf")
    assert store.session("tok", 101.0) is None  # expired
    store.drop_session("tok")
    assert store.session("tok", 50.0) is None
    store.audit("ana", "login", "dashboard", "", "127.0.0.1", 1.0)
    with pytest.raises(Exception, match="append-only"):
        store._db().execute("UPDATE audit SET user_name = 'x'")
    with pytest.raises(Exception, match="append-only"):
        store._db().execute("DELETE FROM audit")
    assert [a.action for a in store.audit_log()] == ["login"]
