"""The surveillance dashboard: ``create_app(store, settings)`` is the FastAPI application
(``uvicorn`` serves it; ``feltwatch.appliance.dashboard_main`` starts it beside the feed).

Pages: ``/`` the floor (tables and live alerts), ``/tables/<t>`` a live table, ``/alerts``,
``/hands`` (search) and ``/hands/<t>/<h>`` (review), ``/admin`` (accounts, audit log),
``/login``. The JSON API is ``dashboard.api``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import Depends, FastAPI, Form, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from dashboard import api
from dashboard.auth import (
    LOGIN_COOKIE,
    SESSION_COOKIE,
    SESSION_S,
    LoginRequired,
    Who,
    client_of,
    current,
    require,
)
from dashboard.handview import hand_view
from dashboard.limits import BodyLimit
from dashboard.security import (
    DUMMY_HASH,
    LoginLimiter,
    new_token,
    same,
    token_hash,
    verify_password,
)
from dashboard.settings import Settings
from dashboard.store import Role, Store

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=HERE / "templates")
Viewer = Annotated[Who, Depends(require(Role.VIEWER))]
Admin = Annotated[Who, Depends(require(Role.ADMIN))]

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
HSTS = "max-age=31536000"


def create_app(store: Store, settings: Settings) -> FastAPI:
    app = FastAPI(title="Feltwatch dashboard", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.settings = settings
    app.state.limiter = LoginLimiter(settings.login_attempts, settings.login_window_s)
    app.add_middleware(BodyLimit)  # before anything reads a body, the session check included
    app.include_router(api.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.url.scheme == "https":  # browsers keep to HTTPS for this host from now on
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        """What was wrong with the request, without echoing it back (it may not even be text)."""
        detail = [
            {"loc": [str(part)[:60] for part in e.get("loc", ())], "msg": str(e.get("msg", ""))}
            for e in exc.errors()[:20]
        ]
        return JSONResponse({"detail": detail}, 422)

    @app.exception_handler(LoginRequired)
    async def to_login(request: Request, exc: LoginRequired) -> Response:
        return RedirectResponse(f"/login?next={exc.next_url}", status_code=303)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
        who = current(request)
        return page(
            request,
            "error.html",
            who,
            {"status": exc.status_code, "detail": exc.detail},
            status_code=exc.status_code,
        )

    _routes(app, settings)
    return app


def page(
    request: Request,
    name: str,
    who: Who | None,
    context: dict[str, Any] | None = None,
    status_code: int = 200,
) -> Response:
    zone = request.app.state.settings.timezone
    return templates.TemplateResponse(
        request, name, {"who": who, "timezone": zone, **(context or {})}, status_code=status_code
    )


SEVERITIES = ("critical", "warning", "info")


def open_by_table(counts: dict[str, dict[str, int]]) -> list[tuple[str, dict[str, int]]]:
    """The open alerts counted by table and severity, the tables with the most critical first."""
    return sorted(
        counts.items(),
        key=lambda item: (*(-item[1].get(sev, 0) for sev in SEVERITIES), item[0]),
    )


def _safe_next(value: str) -> str:
    target = unquote(value or "/")
    return target if target.startswith("/") and not target.startswith("//") else "/"


def _routes(app: FastAPI, settings: Settings) -> None:
    store: Store = app.state.store
    limiter: LoginLimiter = app.state.limiter

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        """For the service manager: public, says nothing about the tables."""
        return {"status": "ok"}

    @app.get("/login", response_class=HTMLResponse)
    def login_page(request: Request, next: str = "/", error: str = "") -> Response:
        return _login_again(request, next, error, 200)

    @app.post("/login")
    def login(
        request: Request,
        username: Annotated[str, Form(max_length=64)],
        password: Annotated[str, Form(max_length=1024)],
        csrf: Annotated[str, Form()] = "",
        next: Annotated[str, Form()] = "/",
    ) -> Response:
        client = client_of(request)
        now = time.time()
        if not same(csrf, request.cookies.get(LOGIN_COOKIE, "")) or not csrf:
            return _login_again(request, next, "the login form expired: try again", 403)
        wait_s = limiter.attempt(username, client, now)
        if wait_s > 0:
            store.audit(
                username, "login refused", "rate limit", f"retry in {wait_s:.0f} s", client, now
            )
            response = _login_again(
                request, next, f"too many failed logins: try again in {wait_s:.0f} s", 429
            )
            response.headers["Retry-After"] = str(int(wait_s) + 1)
            return response
        user = store.user(username)
        good = verify_password(user.password_hash if user else DUMMY_HASH, password)
        if user is None or not good or user.disabled:
            store.audit(username, "login failed", "dashboard", "", client, now)
            return _login_again(request, next, "wrong name or password", 401)
        limiter.succeeded(username, client, now)
        token = new_token()
        store.add_session(token_hash(token), user.name, new_token(), now, now + SESSION_S)
        store.audit(user.name, "login", "dashboard", str(user.role), client, now)
        response = RedirectResponse(_safe_next(next), status_code=303)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=settings.secure_cookies,
            path="/",
        )
        response.delete_cookie(LOGIN_COOKIE)
        return response

    def _login_again(request: Request, next: str, error: str, status: int) -> Response:
        """The login form, with a fresh token for its CSRF cookie."""
        token = new_token()
        response = page(
            request,
            "login.html",
            None,
            {"next": _safe_next(next), "csrf": token, "error": error, "demo": settings.demo},
            status_code=status,
        )
        response.set_cookie(
            LOGIN_COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=settings.secure_cookies,
            max_age=3600,
        )
        return response

    @app.post("/logout")
    async def logout(request: Request, who: Viewer) -> Response:
        store.drop_session(who.token_hash)
        store.audit(who.name, "logout", "dashboard", "", client_of(request), time.time())
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @app.get("/", response_class=HTMLResponse)
    def floor(request: Request, who: Viewer) -> Response:
        return page(
            request,
            "floor.html",
            who,
            {
                "tables": store.tables(),
                "alerts": store.alerts(limit=100),
                "open_by_table": open_by_table(store.open_counts()),
                "severities": SEVERITIES,
            },
        )

    @app.get("/alerts", response_class=HTMLResponse)
    def alerts_page(request: Request, who: Viewer, status: str | None = None) -> Response:
        if status not in (None, "", "open", "acknowledged", "resolved"):
            raise HTTPException(422, "status is open, acknowledged or resolved")
        return page(
            request,
            "alerts.html",
            who,
            {"alerts": store.alerts(status=status or None, limit=500), "status": status or ""},
        )

    @app.get("/tables/{table}", response_class=HTMLResponse)
    def table_page(request: Request, table: str, who: Viewer) -> Response:
        row = store.table(table)
        if row is None:
            raise HTTPException(404, f"no table {table!r}")
        return page(request, "table.html", who, {"table": row})

    @app.get("/hands", response_class=HTMLResponse)
    def hands_page(request: Request, who: Viewer, query: api.Search) -> Response:
        args = dict(request.query_params)
        return page(
            request,
            "hands.html",
            who,
            {
                "hands": store.hands(query),
                "args": args,
                "families": api.FAMILIES,
                "tables": [t.name for t in store.tables()],
                "query_string": request.url.query,
            },
        )

    @app.get("/hands/{table}/{hand}", response_class=HTMLResponse)
    def hand_page(request: Request, table: str, hand: str, who: Viewer) -> Response:
        found = api.record(store, table, hand)
        return page(
            request,
            "hand.html",
            who,
            {"record": found, "view": hand_view(found.events, found.table_config)},
        )

    @app.get("/admin", response_class=HTMLResponse)
    def admin_page(request: Request, who: Admin) -> Response:
        return page(
            request,
            "admin.html",
            who,
            {"users": store.users(), "audit": store.audit_log(200), "roles": list(Role)},
        )
