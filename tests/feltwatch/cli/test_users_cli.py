"""``feltwatch users``: the installer makes the accounts (no default one outside the demo)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dashboard.security import verify_password
from dashboard.store.sqlite import SqliteStore
from feltwatch.cli.main import main


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "table.yaml"
    path.write_text(f"table: {{name: T, sb: 5, bb: 10}}\ndashboard: {{store: {tmp_path}/d.db}}\n")
    return path


def users(config: Path, monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: str = "") -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["users", *argv, "--config", str(config)])


def test_add_list_and_change_a_password(
    config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    add = ("add", "ana", "--role", "admin", "--password-stdin")
    assert users(config, monkeypatch, *add, stdin="first passphrase\n") == 0
    assert users(config, monkeypatch, "list") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "ana\tadmin"
    change = ("password", "ana", "--password-stdin")
    assert users(config, monkeypatch, *change, stdin="second passphrase\n") == 0
    store = SqliteStore(config.parent / "d.db")
    user = store.user("ana")
    assert user is not None and verify_password(user.password_hash, "second passphrase")
    assert [a.action for a in store.audit_log()] == ["set password", "add user"]


def test_refusals_are_said(
    config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    add = ("add", "bo", "--role", "viewer", "--password-stdin")
    assert users(config, monkeypatch, *add, stdin="short\n") == 1
    assert "at least 10 characters" in capsys.readouterr().err
    assert users(config, monkeypatch, *add, stdin="long enough pass\n") == 0
    assert users(config, monkeypatch, *add, stdin="long enough pass\n") == 1
    assert "exists already" in capsys.readouterr().err
    assert users(config, monkeypatch, "password", "nobody", "--password-stdin", stdin="x" * 12) == 1
    assert "no user 'nobody'" in capsys.readouterr().err
