"""The web edge against an operator's bad day and an attacker's: oversized bodies refused before
authentication, the login limit holding under logins tried together, forwarded addresses
believed from the configured proxies only, file routes that do not follow links, strict header
parsing, and the response headers a browser needs."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dashboard.api import attachment
from dashboard.files import file_inside
from dashboard.limits import MAX_BODY_BYTES
from dashboard.store import ClipRow
from tests.dashboard.conftest import Site, csrf, login, make_site


def test_an_oversized_body_is_refused_before_the_session_is_checked(site: Site) -> None:
    anonymous = site.client()
    big = b"x" * (MAX_BODY_BYTES + 1)
    response = anonymous.post(
        "/api/users", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    declared = anonymous.post(  # a length declared over the limit: not read at all
        "/login", content=b"", headers={"content-length": str(200 << 20)}
    )
    assert declared.status_code == 413

    def chunks() -> Iterator[bytes]:
        for _ in range(3):
            yield b"y" * (MAX_BODY_BYTES // 2)

    admin = site.client("admin1")
    streamed = admin.post(  # no length said, counted as it comes
        "/api/users", content=chunks(), headers={**csrf(admin), "content-type": "application/json"}
    )
    assert streamed.status_code == 413
    assert admin.get("/healthz").status_code == 200


def test_logins_tried_together_are_limited_as_if_tried_in_turn(site: Site) -> None:
    codes: list[int] = []
    lock = threading.Lock()

    def attempt() -> None:
        code = login(site.client(), "super1", "wrong password!").status_code
        with lock:
            codes.append(code)

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes).count(401) == 5  # the limit: no more passwords were checked
    assert codes.count(429) == 15
    actions = [a.action for a in site.store.audit_log()]
    assert actions.count("login failed") == 5


@pytest.mark.parametrize("trusted", [frozenset(), frozenset({"testclient"})])
def test_forwarded_addresses_are_believed_from_the_configured_proxies_only(
    tmp_path: Path, trusted: frozenset[str]
) -> None:
    site = make_site(tmp_path, trusted_proxies=trusted)
    client = site.client()
    login(client, "viewer1", "wrong password!")
    client.get("/login")
    token = client.cookies.get("feltwatch_login")
    client.post(
        "/login",
        data={"username": "viewer1", "password": "nope", "csrf": token},
        headers={"X-Forwarded-For": "203.0.113.9, 10.0.0.5"},
    )
    addresses = [a.client for a in site.store.audit_log() if a.action == "login failed"]
    if trusted:  # the proxy says who came: the last address it added
        assert addresses == ["testclient", "10.0.0.5"] or addresses == ["10.0.0.5", "testclient"]
    else:  # anyone can write the header: the connection's address
        assert addresses == ["testclient", "testclient"]
    site.store.close()


def test_file_routes_do_not_follow_links_out_of_their_folder(site: Site, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the dashboard")
    cameras = site.table.journal_dir / "demo.cameras"
    for files in site.app.state.settings.tables.values():
        cameras = files.cameras_dir
    cameras.mkdir(parents=True, exist_ok=True)
    (cameras / "evil.jpg").symlink_to(secret)
    viewer = site.client("viewer1")
    frame = viewer.get(f"/api/tables/{site.table.name}/cameras/evil.jpg")
    assert frame.status_code == 404 and "not for" not in frame.text

    media = site.table.media_root
    (media / "linked.avi").symlink_to(secret)
    alert = site.store.alerts()[0]
    site.store.put_clip(
        ClipRow(alert_id=alert.id, camera="linked", clip_path="linked.avi", keyframe_path="")
    )
    path = f"/api/hands/{alert.table}/{alert.hand}/media/{alert.id}/linked/clip"
    assert viewer.get(path).status_code == 404

    assert file_inside(media, "linked.avi") is None
    assert file_inside(media, "../secret.txt") is None
    assert file_inside(media, str(secret)) is None
    os.symlink(tmp_path, media / "up")
    assert file_inside(media, "up/secret.txt") is None  # a linked folder on the way


@pytest.mark.parametrize("value", ["²".encode(), b"1" * 29, b"-5", b"", b"12 ", b"0x10"])
def test_a_strange_last_event_id_starts_the_stream_from_now(site: Site, value: bytes) -> None:
    client = site.client("viewer1")
    with client.stream("GET", "/api/stream", headers={b"Last-Event-ID": value}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")


def test_an_out_of_range_stream_position_is_refused(site: Site) -> None:
    client = site.client("viewer1")
    assert client.get(f"/api/stream?after={10**29}").status_code == 422


def test_security_headers_and_escaped_download_names(site: Site) -> None:
    client = site.client("super1")
    response = client.get("/login")
    policy = response.headers["content-security-policy"]
    assert "base-uri 'none'" in policy and "form-action 'self'" in policy
    assert response.headers["strict-transport-security"].startswith("max-age=")
    plain = TestClient(site.app, base_url="http://testserver")
    assert "strict-transport-security" not in plain.get("/login").headers
    header = attachment('hand "1"\r\n; x.phh')
    assert "\r" not in header and "\n" not in header
    assert header.startswith("attachment; filename=\"hand__1_____x.phh\"; filename*=UTF-8''")
    assert "%22" in header and "%0D%0A" in header
