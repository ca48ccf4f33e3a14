"""The JSON API under ``/api`` (what the pages' scripts call, and other systems may): tables,
alerts and their acknowledgement, hands and their review, exports, the live push, accounts
and the audit log. Each route names the role it needs."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal, cast
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, StreamingResponse
from pydantic import BaseModel, Field

from dashboard import responses
from dashboard.auth import Who, client_of, current, require
from dashboard.exports import ExportError, HandRecord, bundle, csv_summary, event_log, phh
from dashboard.files import file_inside
from dashboard.handview import hand_view
from dashboard.security import PasswordError, hash_password
from dashboard.settings import Settings
from dashboard.store import (
    AlertRow,
    AuditRow,
    HandQuery,
    HandRow,
    Role,
    Store,
    StoreError,
    TableRow,
    alert_json,
)

router = APIRouter(prefix="/api")
Viewer = Annotated[Who, Depends(require(Role.VIEWER))]
Supervisor = Annotated[Who, Depends(require(Role.SUPERVISOR))]
Admin = Annotated[Who, Depends(require(Role.ADMIN))]
FAMILIES = ("exposed_card", "boxed_card", "mucked_winner", "chip_miscount")


def store_of(request: Request) -> Store:
    """The app's store (``create_app`` puts it in the app's state)."""
    return cast("Store", request.app.state.store)


def settings_of(request: Request) -> Settings:
    """The app's settings (``create_app`` puts them in the app's state)."""
    settings = request.app.state.settings
    assert isinstance(settings, Settings)
    return settings


StoreDep = Annotated[Store, Depends(store_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]


def audit(request: Request, who: Who, action: str, target: str, detail: str = "") -> None:
    store_of(request).audit(who.name, action, target, detail, client_of(request), time.time())


# --- tables ---


@router.get("/me")
def me(who: Viewer) -> responses.Me:
    return responses.Me(name=who.name, role=str(who.role), csrf=who.csrf)


@router.get("/tables")
def tables(store: StoreDep, who: Viewer) -> list[TableRow]:
    return list(store.tables())


@router.get("/tables/{table}")
def table_state(
    store: StoreDep, settings: SettingsDep, table: str, who: Viewer
) -> responses.TableState:
    row = store.table(table)
    if row is None:
        raise HTTPException(404, f"no table {table!r}")
    hand = store.current_hand(table)
    view = None
    if hand is not None:
        events = [e.body for e in store.events(table, hand.hand)]
        view = hand_view(events, row.config)
    files = settings.tables.get(table)
    cameras = sorted(p.stem for p in files.cameras_dir.glob("*.jpg")) if files else []
    return responses.TableState(
        table=row,
        hand=view,
        health=list(store.health(table)),
        cameras=cameras,
        alerts=[responses.Alert.of(a) for a in store.alerts(table=table, limit=50)],
    )


@router.get("/tables/{table}/cameras/{camera}.jpg")
def camera_frame(settings: SettingsDep, table: str, camera: str, who: Viewer) -> FileResponse:
    files = settings.tables.get(table)
    if files is None or not camera.replace("-", "").replace("_", "").isalnum():
        raise HTTPException(404, "no such camera")
    path = file_inside(files.cameras_dir, f"{camera}.jpg")
    if path is None:
        raise HTTPException(404, f"camera {camera} has sent no frame")
    return FileResponse(path, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


# --- alerts ---


@router.get("/alerts")
def alerts(
    store: StoreDep,
    who: Viewer,
    table: str | None = None,
    status: str | None = Query(None, pattern="^(open|acknowledged|resolved)$"),
    limit: int = Query(200, ge=1, le=2000),
) -> list[responses.Alert]:
    return [responses.Alert.of(a) for a in store.alerts(table=table, status=status, limit=limit)]


def _alert_or_404(request: Request, alert_id: str) -> AlertRow:
    alert = store_of(request).alert(alert_id)
    if alert is None:
        raise HTTPException(404, f"no alert {alert_id}")
    return alert


@router.get("/alerts/{alert_id}")
def alert(request: Request, store: StoreDep, alert_id: str, who: Viewer) -> responses.AlertDetail:
    found = _alert_or_404(request, alert_id)
    clips = list(store.clips(alert_id))
    return responses.AlertDetail(**alert_json(found), body=dict(found.body), clips=clips)


@router.post("/alerts/{alert_id}/ack")
def acknowledge(
    request: Request, store: StoreDep, settings: SettingsDep, alert_id: str, who: Supervisor
) -> responses.Acknowledged:
    _alert_or_404(request, alert_id)
    row = store.acknowledge(alert_id, who.name, time.time())
    light = settings.acknowledge(row.table, alert_id, who.name)
    audit(request, who, "acknowledge", f"alert {alert_id}", f"table {row.table} hand {row.hand}")
    return responses.Acknowledged(**alert_json(row), light=light)


class Resolution(BaseModel):
    note: str = Field(min_length=1, max_length=4000)


@router.post("/alerts/{alert_id}/resolve")
def resolve(
    request: Request, store: StoreDep, alert_id: str, body: Resolution, who: Supervisor
) -> responses.Alert:
    _alert_or_404(request, alert_id)
    try:
        row = store.resolve(alert_id, who.name, body.note, time.time())
    except StoreError as exc:
        raise HTTPException(409, str(exc)) from None
    audit(request, who, "resolve", f"alert {alert_id}", body.note)
    return responses.Alert.of(row)


class Several(BaseModel):
    """Several alerts acknowledged, or resolved with one note, at once."""

    ids: list[Annotated[str, Field(max_length=200)]] = Field(min_length=1, max_length=500)
    action: Literal["acknowledge", "resolve"]
    note: str = Field(default="", max_length=4000)


@router.post("/alerts/bulk")
def several(
    request: Request, store: StoreDep, settings: SettingsDep, body: Several, who: Supervisor
) -> responses.SeveralDone:
    """Each alert as its own button would (the light told, each audited); those that cannot be
    (no such alert, resolved already) are listed with why, and the rest are done."""
    if body.action == "resolve" and not body.note.strip():
        raise HTTPException(422, "a note is needed to resolve")
    done: list[responses.Alert] = []
    skipped: list[responses.Skipped] = []
    for alert_id in dict.fromkeys(body.ids):
        if store.alert(alert_id) is None:
            skipped.append(responses.Skipped(id=alert_id, why="no such alert"))
            continue
        if body.action == "acknowledge":
            row = store.acknowledge(alert_id, who.name, time.time())
            settings.acknowledge(row.table, alert_id, who.name)
            audit(request, who, "acknowledge", f"alert {alert_id}", "several at once")
        else:
            try:
                row = store.resolve(alert_id, who.name, body.note, time.time())
            except StoreError as exc:
                skipped.append(responses.Skipped(id=alert_id, why=str(exc)))
                continue
            audit(request, who, "resolve", f"alert {alert_id}", body.note)
        done.append(responses.Alert.of(row))
    return responses.SeveralDone(done=done, skipped=skipped)


# --- hands ---


def _when(value: str | None, name: str) -> float | None:
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(value).timestamp()
    except ValueError:
        raise HTTPException(422, f"{name}: not a time (ISO 8601 or seconds): {value!r}") from None


def hand_query(
    table: str | None = None,
    since: str | None = None,
    until: str | None = None,
    family: str | None = Query(None, max_length=80),
    seat: int | None = Query(None, ge=1, le=10),
    has_alert: bool | None = None,
    limit: int = Query(200, ge=1, le=5000),
) -> HandQuery:
    return HandQuery(
        table=table or None,
        since=_when(since, "since"),
        until=_when(until, "until"),
        family=family or None,
        seat=seat,
        has_alert=has_alert,
        limit=limit,
    )


Search = Annotated[HandQuery, Depends(hand_query)]


@router.get("/hands")
def hands(store: StoreDep, who: Viewer, query: Search) -> list[HandRow]:
    return list(store.hands(query))


def record(store: Store, table: str, hand: str) -> HandRecord:
    row = store.hand(table, hand)
    if row is None:
        raise HTTPException(404, f"no hand {hand} at table {table!r}")
    events = store.events(table, hand)
    alerts = store.hand_alerts(table, hand)
    return HandRecord(
        hand=row,
        table_config=store.table_config_before(table, events[0].seq) if events else None,
        events=[e.body for e in events],
        alerts=alerts,
        clips=[c for a in alerts for c in store.clips(a.id)],
    )


@router.get("/hands/{table}/{hand}")
def hand(store: StoreDep, table: str, hand: str, who: Viewer) -> responses.HandReview:
    found = record(store, table, hand)
    return responses.HandReview(
        hand=found.hand,
        table_config=found.table_config,
        events=[dict(e) for e in found.events],
        view=hand_view(found.events, found.table_config),
        alerts=[responses.AlertWithBody.of(a) for a in found.alerts],
        clips=list(found.clips),
    )


@router.get("/hands/{table}/{hand}/media/{alert_id}/{camera}/{kind}")
def media(
    request: Request,
    store: StoreDep,
    table: str,
    hand: str,
    alert_id: str,
    camera: str,
    kind: str,
    who: Viewer,
) -> FileResponse:
    """An alert's clip (``clip``: the Motion-JPEG AVI, the evidence as recorded, a download;
    ``play``: the same clip as H.264 MP4, played in the page, ranges served for seeking) or key
    frame (``keyframe``, JPEG)."""
    if kind not in MEDIA:
        raise HTTPException(404, "kind is clip, play or keyframe")
    clip = next((c for c in store.clips(alert_id) if c.camera == camera), None)
    alert_row = store.alert(alert_id)
    if clip is None or alert_row is None or (alert_row.table, alert_row.hand) != (table, hand):
        raise HTTPException(404, "no such clip")
    field, media_type = MEDIA[kind]
    path = _media_path(request, table, getattr(clip, field))
    # Evidence seen is evidence accounted for: who looked at which clip or key frame, and when
    # (a player's range requests after its first are the same look).
    if kind != "play" or request.headers.get("range", "bytes=0-").startswith("bytes=0-"):
        audit(
            request, who, f"view {kind}", f"alert {alert_id}", f"table {table} hand {hand} {camera}"
        )
    if kind == "play":
        return FileResponse(path, media_type=media_type)
    shown = "inline" if kind == "keyframe" else "attachment"  # a key frame opens in a tab
    return FileResponse(
        path, media_type=media_type, filename=path.name, content_disposition_type=shown
    )


MEDIA = {
    "clip": ("clip_path", "video/x-msvideo"),
    "play": ("play_path", "video/mp4"),
    "keyframe": ("keyframe_path", "image/jpeg"),
}
"""Each kind of an alert's media: the clip row's field and the file's type."""


def _media_path(request: Request, table: str, relative: str) -> Path:
    files = settings_of(request).tables.get(table)
    if files is None or files.media_root is None or not relative:
        raise HTTPException(404, "no recording for this table")
    path = file_inside(files.media_root, relative)
    if path is None:
        raise HTTPException(404, f"{relative}: not on disk (deleted by the recording budget?)")
    return path


# --- exports ---

FORMATS = {
    "phh": "text/plain; charset=utf-8",
    "jsonl": "application/x-ndjson",
    "csv": "text/csv; charset=utf-8",
    "zip": "application/zip",
}


def _export(request: Request, who: Who, records: list[HandRecord], stem: str, fmt: str) -> Response:
    if fmt not in FORMATS:
        raise HTTPException(404, f"formats: {', '.join(FORMATS)}")
    try:
        if fmt == "phh":
            data: bytes = phh(records).encode()
            fmt = "phh" if len(records) == 1 else "phhs"
        elif fmt == "jsonl":
            data = event_log(records).encode()
        elif fmt == "csv":
            data = csv_summary(records).encode()
        else:
            roots = {t: f.media_root for t, f in settings_of(request).tables.items()}
            about = {"exported_by": who.name, "exported_at": time.time()}
            data = bundle(records, roots, about)
    except ExportError as exc:
        raise HTTPException(422, str(exc)) from None
    audit(request, who, f"export {fmt}", stem, f"{len(records)} hand(s)")
    return Response(
        data,
        media_type=FORMATS.get(fmt, FORMATS["phh"]),
        headers={"Content-Disposition": attachment(f"{stem}.{fmt}")},
    )


def attachment(filename: str) -> str:
    """A ``Content-Disposition`` for a download named ``filename`` (RFC 6266: a plain-ASCII
    fallback, and the name itself percent-encoded)."""
    plain = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in filename)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


@router.get("/export/hands/{table}/{hand}.{fmt}")
def export_hand(
    request: Request, store: StoreDep, table: str, hand: str, fmt: str, who: Supervisor
) -> Response:
    found = record(store, table, hand)
    return _export(request, who, [found], found.name, fmt)


@router.get("/export/search.{fmt}")
def export_search(
    request: Request, store: StoreDep, fmt: str, who: Supervisor, query: Search
) -> Response:
    rows = store.hands(query)
    records = [record(store, h.table, h.hand) for h in reversed(rows)]
    return _export(request, who, records, "hands", fmt)


# --- the live push (server-sent events) ---

POLL_S = 0.1
HEARTBEAT_S = 15.0


@router.get("/stream")
async def stream(
    request: Request,
    store: StoreDep,
    who: Viewer,
    after: Annotated[int | None, Query(ge=-1, lt=2**62)] = None,
) -> StreamingResponse:
    """Every change from ``after`` (or the ``Last-Event-ID`` a reconnecting browser sends, or
    now) on: ``event: alert`` / ``alert_status`` / ``event`` / ``hand`` / ``health`` /
    ``light``, ``data:`` the JSON, ``id:`` the change's number."""
    last = request.headers.get("last-event-id", "")
    resumed = int(last) if last.isascii() and last.isdigit() and len(last) <= 18 else None
    start = after if after is not None else resumed  # (anything else: from now)
    if start is None:
        start = await run_in_threadpool(store.last_change_id)

    async def events() -> AsyncIterator[str]:
        position = start
        quiet_s = 0.0
        yield "retry: 1000\n\n"
        while not await request.is_disconnected():
            changes = await run_in_threadpool(store.changes, position)
            for change in changes:
                position = change.id
                body = {"table": change.table, "at": change.at, **change.body}
                yield f"id: {change.id}\nevent: {change.kind}\ndata: {json.dumps(body)}\n\n"
            if changes:
                quiet_s = 0.0
                continue
            await asyncio.sleep(POLL_S)
            quiet_s += POLL_S
            if quiet_s >= HEARTBEAT_S:
                quiet_s = 0.0
                if await run_in_threadpool(current, request) is None:
                    return  # logged out or expired: the browser goes to the login page
                yield ": still here\n\n"

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


# --- accounts and the audit log ---


@router.get("/users")
def users(store: StoreDep, who: Admin) -> list[responses.User]:
    return [
        responses.User(name=u.name, role=str(u.role), disabled=u.disabled) for u in store.users()
    ]


class NewUser(BaseModel):
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.@-]+$")
    password: str = Field(max_length=1024)
    role: Role


@router.post("/users", status_code=201)
def add_user(
    request: Request, store: StoreDep, settings: SettingsDep, body: NewUser, who: Admin
) -> responses.User:
    try:
        digest = hash_password(body.password, demo=settings.demo)
        store.add_user(body.name, digest, body.role, time.time())
    except PasswordError as exc:
        raise HTTPException(422, str(exc)) from None
    except StoreError as exc:
        raise HTTPException(409, str(exc)) from None
    audit(request, who, "add user", body.name, str(body.role))
    return responses.User(name=body.name, role=str(body.role))


@router.get("/audit")
def audit_log(
    store: StoreDep, who: Admin, limit: int = Query(500, ge=1, le=10_000)
) -> list[AuditRow]:
    return list(store.audit_log(limit))
