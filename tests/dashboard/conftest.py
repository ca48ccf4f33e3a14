"""The dashboard app on a store fed from a table's files (``appliance.write_table``), and a
logged-in client per role."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dashboard.app import create_app
from dashboard.feed import Feed
from dashboard.security import hash_password
from dashboard.settings import Settings
from dashboard.store import Role
from dashboard.store.sqlite import SqliteStore
from engine.table_files import TableFiles
from tests.dashboard.appliance import Table, add_clip, write_table

PASSWORD = "correct horse battery"
ROLES = {"viewer1": Role.VIEWER, "super1": Role.SUPERVISOR, "admin1": Role.ADMIN}


@dataclass
class Lights:
    """What the app told the tables' engines (``Settings.acknowledge``)."""

    calls: list[tuple[str, str, str]] = field(default_factory=list)

    def __call__(self, table: str, alert_id: str, user: str) -> str:
        self.calls.append((table, alert_id, user))
        return "sent to the table"


@dataclass
class Site:
    store: SqliteStore
    table: Table
    feed: Feed
    lights: Lights
    app: FastAPI

    def client(self, user: str | None = None) -> TestClient:
        client = TestClient(self.app, base_url="https://testserver")
        if user is not None:
            login(client, user)
        return client


def login(client: TestClient, user: str, password: str = PASSWORD) -> httpx.Response:
    client.get("/login")
    token = client.cookies.get("feltwatch_login")
    return client.post(
        "/login",
        data={"username": user, "password": password, "csrf": token, "next": "/"},
        follow_redirects=False,
    )


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/me").json()["csrf"]}


def make_site(folder: Path, **settings: Any) -> Site:
    table = write_table(folder)
    add_clip(table, table.alerts[0][1])
    store = SqliteStore(folder / "dashboard.sqlite3")
    for name, role in ROLES.items():
        store.add_user(name, hash_password(PASSWORD), role, 0.0)
    files = TableFiles(table=table.name, journal_dir=table.journal_dir, media_root=table.media_root)
    feed = Feed(store, [files])
    feed.poll()
    lights = Lights()
    app = create_app(
        store,
        Settings(tables={files.table: files}, acknowledge=lights, **settings),
    )
    return Site(store, table, feed, lights, app)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = make_site(tmp_path)
    yield made
    made.store.close()
