"""Every route, for every role: who may, who may not, and what an anonymous request gets."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pokerkit import HandHistory

from dashboard.exports import verify_bundle
from dashboard.store import Role
from tests.dashboard.conftest import ROLES, Site, csrf, login
from tests.present import present

USERS = {role: name for name, role in ROLES.items()}


def routes(site: Site) -> list[tuple[str, str, Role | None, dict[str, object] | None]]:
    """(method, path, the role it needs (None: anyone), JSON body) for every route."""
    table = site.table.name
    alert = site.store.alerts(table=table, limit=1)[-1].id
    first = site.store.alerts(table=table)[-1]
    hand = first.hand
    clip = site.store.clips(first.id)[0]
    media = f"/api/hands/{table}/{hand}/media/{first.id}/{clip.camera}"
    return [
        ("GET", "/", Role.VIEWER, None),
        ("GET", "/alerts", Role.VIEWER, None),
        ("GET", f"/tables/{table}", Role.VIEWER, None),
        ("GET", "/hands", Role.VIEWER, None),
        ("GET", f"/hands/{table}/{hand}", Role.VIEWER, None),
        ("GET", "/admin", Role.ADMIN, None),
        ("POST", "/logout", Role.VIEWER, None),
        ("GET", "/api/me", Role.VIEWER, None),
        ("GET", "/api/tables", Role.VIEWER, None),
        ("GET", f"/api/tables/{table}", Role.VIEWER, None),
        ("GET", f"/api/tables/{table}/cameras/overhead.jpg", Role.VIEWER, None),
        ("GET", "/api/alerts", Role.VIEWER, None),
        ("GET", f"/api/alerts/{alert}", Role.VIEWER, None),
        ("POST", f"/api/alerts/{alert}/ack", Role.SUPERVISOR, None),
        ("POST", f"/api/alerts/{alert}/resolve", Role.SUPERVISOR, {"note": "checked on video"}),
        ("POST", "/api/alerts/bulk", Role.SUPERVISOR, {"ids": [alert], "action": "acknowledge"}),
        ("GET", "/api/hands", Role.VIEWER, None),
        ("GET", f"/api/hands/{table}/{hand}", Role.VIEWER, None),
        ("GET", f"{media}/clip", Role.VIEWER, None),
        ("GET", f"{media}/keyframe", Role.VIEWER, None),
        ("GET", f"{media}/play", Role.VIEWER, None),
        ("GET", f"/api/export/hands/{table}/{hand}.zip", Role.SUPERVISOR, None),
        ("GET", f"/api/export/search.csv?table={table}", Role.SUPERVISOR, None),
        ("GET", "/api/stream?after=-1", Role.VIEWER, None),
        ("GET", "/api/users", Role.ADMIN, None),
        ("POST", "/api/users", Role.ADMIN, {"name": "x", "password": "x" * 12, "role": "viewer"}),
        ("GET", "/api/audit", Role.ADMIN, None),
        ("GET", "/healthz", None, None),
        ("GET", "/login", None, None),
        ("POST", "/login", None, None),
    ]


def test_the_matrix_names_every_route(site: Site) -> None:
    import re

    listed = {(m, re.sub(r"\?.*", "", p)) for m, p, _, _ in routes(site)}
    for route in site.app.routes:
        if not isinstance(route, APIRoute):
            continue
        for method in route.methods or ():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", route.path) + "$"
            found = any(m == method and re.match(pattern, p) for m, p in listed)
            assert found, f"{method} {route.path} is not in the role matrix"


def _call(
    client: TestClient, method: str, path: str, body: object, headers: dict[str, str]
) -> tuple[int, str]:
    if path.startswith("/api/stream"):
        with client.stream(method, path, headers=headers) as response:
            return response.status_code, response.headers.get("location", "")
    response = client.request(method, path, json=body, headers=headers, follow_redirects=False)
    return response.status_code, response.headers.get("location", "")


def test_anonymous_requests_get_401_or_the_login_page(site: Site) -> None:
    client = site.client()
    for method, path, role, body in routes(site):
        if role is None:
            continue
        status, location = _call(client, method, path, body, {})
        if path.startswith("/api/"):
            assert status == 401, (method, path, status)
        else:
            assert (status, location.split("?")[0]) == (303, "/login"), (method, path, status)


@pytest.mark.parametrize("role", list(Role))
def test_each_role_is_allowed_or_refused(site: Site, role: Role) -> None:
    for method, path, needed, body in routes(site):
        if needed is None or path == "/logout":
            continue
        client = site.client(USERS[role])
        status, _ = _call(client, method, path, body, csrf(client))
        if role.allows(needed):
            assert status not in (401, 403, 404, 405, 422), (role, method, path, status)
        else:
            assert status == 403, (role, method, path, status)


def test_a_viewer_cannot_acknowledge(site: Site) -> None:
    client = site.client("viewer1")
    alert = site.store.alerts()[0]
    response = client.post(f"/api/alerts/{alert.id}/ack", headers=csrf(client))
    assert response.status_code == 403
    assert present(site.store.alert(alert.id)).status == "open"
    assert site.lights.calls == []


def test_acknowledge_and_resolve_reach_the_store_the_light_and_the_audit_log(site: Site) -> None:
    client = site.client("super1")
    alert = site.store.alerts()[0]
    done = client.post(f"/api/alerts/{alert.id}/ack", headers=csrf(client)).json()
    assert (done["status"], done["acknowledged_by"]) == ("acknowledged", "super1")
    assert site.lights.calls == [(alert.table, alert.id, "super1")]
    resolved = client.post(
        f"/api/alerts/{alert.id}/resolve", json={"note": "dealer re-counted"}, headers=csrf(client)
    ).json()
    assert (resolved["status"], resolved["note"]) == ("resolved", "dealer re-counted")
    again = client.post(f"/api/alerts/{alert.id}/resolve", json={"note": "x"}, headers=csrf(client))
    assert again.status_code == 409
    actions = [(a.user, a.action) for a in site.store.audit_log()]
    assert ("super1", "acknowledge") in actions and ("super1", "resolve") in actions
    assert ("super1", "login") in actions


def test_several_alerts_are_acknowledged_or_resolved_with_one_note(site: Site) -> None:
    client = site.client("super1")
    ids = [a.id for a in site.store.alerts(status="open")][:3]
    assert len(ids) == 3
    done = client.post("/api/alerts/bulk", json={"ids": ids[:2], "action": "acknowledge"},
                       headers=csrf(client)).json()  # fmt: skip
    assert [a["status"] for a in done["done"]] == ["acknowledged"] * 2 and done["skipped"] == []
    assert [call[1] for call in site.lights.calls] == ids[:2]  # each table's light told
    refused = client.post("/api/alerts/bulk", json={"ids": ids, "action": "resolve", "note": " "},
                          headers=csrf(client))  # fmt: skip
    assert refused.status_code == 422  # resolving needs a note
    done = client.post(
        "/api/alerts/bulk",
        json={"ids": [*ids, "no-such-alert"], "action": "resolve", "note": "one dealer, retrained"},
        headers=csrf(client),
    ).json()
    assert [a["note"] for a in done["done"]] == ["one dealer, retrained"] * 3
    assert done["skipped"] == [{"id": "no-such-alert", "why": "no such alert"}]
    again = client.post("/api/alerts/bulk", json={"ids": ids[:1], "action": "resolve",
                        "note": "x"}, headers=csrf(client)).json()  # fmt: skip
    assert again["done"] == [] and "resolved already" in again["skipped"][0]["why"]
    audited = [(a.action, a.target) for a in site.store.audit_log() if a.user == "super1"]
    for alert_id in ids:
        assert ("resolve", f"alert {alert_id}") in audited
    assert site.client("viewer1").post(
        "/api/alerts/bulk", json={"ids": ids, "action": "acknowledge"}, headers=csrf(client)
    ).status_code in (401, 403)


def test_the_floor_counts_the_open_alerts_by_table_and_severity(site: Site) -> None:
    open_alerts = site.store.alerts(status="open")
    html = site.client("viewer1").get("/").text
    assert "Open alerts by table" in html
    assert f'data-open-table="{site.table.name}"' in html
    assert f"<td>{len(open_alerts)}</td></tr>" in html


def test_every_look_at_a_clip_or_key_frame_is_in_the_audit_log(site: Site) -> None:
    client = site.client("viewer1")
    alert = site.store.alerts()[-1]
    clip = site.store.clips(alert.id)[0]
    media = f"/api/hands/{alert.table}/{alert.hand}/media/{alert.id}/{clip.camera}"
    for kind in ("clip", "keyframe", "play"):
        assert client.get(f"{media}/{kind}").status_code == 200
    # The browser's player asks for ranges as it plays and seeks: one look, audited once.
    played = client.get(f"{media}/play", headers={"Range": "bytes=100-"})
    assert played.status_code == 206 and played.headers["content-type"] == "video/mp4"
    looked = [(a.user, a.action, a.target) for a in site.store.audit_log()]
    for kind in ("clip", "keyframe", "play"):
        assert looked.count(("viewer1", f"view {kind}", f"alert {alert.id}")) == 1


def test_a_change_without_the_csrf_token_is_refused(site: Site) -> None:
    client = site.client("super1")
    alert = site.store.alerts()[0]
    assert client.post(f"/api/alerts/{alert.id}/ack").status_code == 403
    wrong = {"X-CSRF-Token": "not-the-token"}
    assert client.post(f"/api/alerts/{alert.id}/ack", headers=wrong).status_code == 403
    assert client.post("/logout", follow_redirects=False).status_code == 403
    assert present(site.store.alert(alert.id)).status == "open"


def test_session_cookie_is_httponly_secure_and_samesite(site: Site) -> None:
    client = site.client()
    response = login(client, "viewer1")
    cookie = response.headers["set-cookie"]
    assert "feltwatch_session=" in cookie
    for flag in ("HttpOnly", "Secure", "SameSite=strict"):
        assert flag.lower() in cookie.lower(), cookie


def test_login_is_rate_limited_and_audited(site: Site) -> None:
    client = site.client()
    codes = [login(client, "super1", "wrong password!").status_code for _ in range(6)]
    assert codes[:5] == [401] * 5 and codes[5] == 429
    assert login(client, "super1").status_code == 429  # the right password too, while locked
    actions = [a.action for a in site.store.audit_log()]
    assert actions.count("login failed") == 5 and "login refused" in actions


def test_login_without_the_form_token_is_refused(site: Site) -> None:
    client = site.client()
    response = client.post(
        "/login", data={"username": "admin1", "password": "correct horse battery"}
    )
    assert response.status_code == 403
    assert client.get("/api/me").status_code == 401


def test_logout_ends_the_session(site: Site) -> None:
    client = site.client("viewer1")
    token = client.get("/api/me").json()["csrf"]
    client.post("/logout", data={"csrf": token}, follow_redirects=False)
    assert client.get("/api/me").status_code == 401


def test_the_audit_log_cannot_be_changed(site: Site) -> None:
    import sqlite3

    site.store.audit("admin1", "login", "dashboard", "", "", 1.0)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        site.store._db().execute("UPDATE audit SET user_name = 'someone else'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        site.store._db().execute("DELETE FROM audit")


def test_admin_adds_accounts_with_real_passwords(site: Site) -> None:
    client = site.client("admin1")
    short = {"name": "new1", "password": "short", "role": "viewer"}
    assert client.post("/api/users", json=short, headers=csrf(client)).status_code == 422
    good = {"name": "new1", "password": "a long passphrase", "role": "supervisor"}
    assert client.post("/api/users", json=good, headers=csrf(client)).status_code == 201
    assert client.post("/api/users", json=good, headers=csrf(client)).status_code == 409
    fresh = site.client()
    login(fresh, "new1", "a long passphrase")
    assert fresh.get("/api/me").json()["role"] == "supervisor"
    assert "$argon2id$" in present(site.store.user("new1")).password_hash


def test_hands_search(site: Site) -> None:
    client = site.client("viewer1")
    every = client.get("/api/hands").json()
    assert len(every) == len(site.table.hands)
    with_alerts = {h["hand"] for h in client.get("/api/hands?has_alert=true").json()}
    assert with_alerts == {hand for hand, _ in site.table.alerts}
    for expected in site.table.expected:
        found = client.get(f"/api/hands?family={expected.family}").json()
        assert expected.hand in {h["hand"] for h in found}
    seat = client.get("/api/hands?seat=6").json()
    assert all("6" in h["seats"] for h in seat) and seat
    first, last = every[-1]["started_at"], every[0]["started_at"]
    window = client.get(f"/api/hands?since={first + 1}&until={last}").json()
    assert len(window) == len(every) - 2
    assert client.get("/api/hands?since=yesterday").status_code == 422


def test_hand_review_has_events_alerts_clips_and_computed_vs_observed(site: Site) -> None:
    client = site.client("viewer1")
    short = next(e for e in site.table.expected if e.family == "chip_miscount")
    review = client.get(f"/api/hands/{site.table.name}/{short.hand}").json()
    assert review["events"][0]["type"] == "hand_start"
    assert short.rule in {a["rule"] for a in review["alerts"]}
    summary = review["hand"]["summary"]
    assert summary["computed"]["awards"] != summary["observed"]["awards"]
    page = client.get(f"/hands/{site.table.name}/{short.hand}")
    assert page.status_code == 200 and short.rule in page.text and "mismatch" in page.text


def test_exports_read_back(site: Site) -> None:
    client = site.client("super1")
    name = site.table.name
    text = client.get(f"/api/export/search.phh?table={name}").text
    histories = list(HandHistory.loads_all(text))
    assert len(histories) == len(site.table.hands)
    one = client.get(f"/api/export/hands/{name}/1.phh")
    assert HandHistory.loads(one.text).hand == "1"
    lines = client.get(f"/api/export/hands/{name}/1.jsonl").text.splitlines()
    assert json.loads(lines[0])["type"] == "table" and json.loads(lines[-1])["type"] == "hand_end"
    csv_text = client.get(f"/api/export/search.csv?table={name}").text.splitlines()
    assert csv_text[0].startswith("table,hand,") and len(csv_text) == 1 + len(site.table.hands)
    assert client.get(f"/api/export/hands/{name}/1.exe").status_code == 404
    exports = [a.action for a in site.store.audit_log()]
    assert exports.count("export phh") == 1 and exports.count("export phhs") == 1


def test_the_review_bundle_holds_everything_and_its_hashes_verify(site: Site) -> None:
    client = site.client("super1")
    alert = site.table.alerts[0][1]
    response = client.get(f"/api/export/hands/{site.table.name}/{alert.hand}.zip")
    assert response.headers["content-type"] == "application/zip"
    assert verify_bundle(response.content) == []
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
    assert {"hands.phh", "events.jsonl", "alerts.json", "summary.csv", "manifest.json"} <= names
    assert any(n.startswith("clips/") for n in names)
    assert any(n.startswith("keyframes/") for n in names)
    assert manifest["exported_by"] == "super1" and manifest["missing"] == []
    tampered = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(response.content)) as src,
        zipfile.ZipFile(tampered, "w") as dst,
    ):
        for item in src.namelist():
            data = src.read(item)
            dst.writestr(item, data + b"x" if item == "events.jsonl" else data)
    assert verify_bundle(tampered.getvalue()) == [
        next(p for p in verify_bundle(tampered.getvalue()) if p.startswith("events.jsonl"))
    ]


def test_clip_paths_cannot_leave_the_recording_folder(site: Site) -> None:
    from dashboard.store import ClipRow

    alert = site.table.alerts[1][1]
    alert_row = next(a for a in site.store.alerts() if (a.hand, a.rule) == (alert.hand, alert.rule))
    site.store.put_clip(
        ClipRow(
            alert_id=alert_row.id, camera="evil", clip_path="../../etc/passwd", keyframe_path=""
        )
    )
    client = site.client("viewer1")
    path = f"/api/hands/{alert_row.table}/{alert_row.hand}/media/{alert_row.id}/evil/clip"
    assert client.get(path).status_code == 404


def test_the_live_push_sends_new_alerts_from_where_the_browser_was(site: Site) -> None:
    client = site.client("viewer1")
    before = site.store.last_change_id()
    alert = site.store.alerts()[0]
    site.store.acknowledge(alert.id, "super1", 2.0)
    with client.stream("GET", f"/api/stream?after={before}") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.iter_lines()
        seen = []
        for line in lines:
            seen.append(line)
            if line.startswith("data:"):
                break
    assert f"id: {before + 1}" in seen and "event: alert_status" in seen
    data = json.loads(seen[-1][5:])
    assert (data["id"], data["status"], data["acknowledged_by"]) == (
        alert.id,
        "acknowledged",
        "super1",
    )


def test_a_search_bundle_holds_the_clips_of_its_hands(site: Site) -> None:
    client = site.client("super1")
    response = client.get(f"/api/export/search.zip?table={site.table.name}")
    assert verify_bundle(response.content) == []
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read("manifest.json"))
    assert "hands.phhs" in names and any(n.startswith("clips/") for n in names)
    assert len(manifest["hands"]) == len(site.table.hands) and manifest["missing"] == []
