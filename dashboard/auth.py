"""Who is asking: the session cookie, the role each route needs, CSRF on every change.

A page asked for without a session goes to the login page; an API call gets 401. A role too
low gets 403. Every request that changes something (POST) must carry the session's CSRF token,
in the ``X-CSRF-Token`` header (the pages' scripts) or a ``csrf`` form field (the pages' forms).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import quote

from fastapi import HTTPException, Request

from dashboard.security import same, token_hash
from dashboard.store import Role, SessionRow, Store

SESSION_COOKIE = "feltwatch_session"
LOGIN_COOKIE = "feltwatch_login"
"""The login form's CSRF token (double submit: cookie and form field must match)."""
SESSION_S = 12 * 3600
"""A surveillance shift; the cookie ends with the browser too."""


class LoginRequired(Exception):
    """A page asked for without a session: answered with a redirect to the login page."""

    def __init__(self, next_url: str) -> None:
        self.next_url = next_url


@dataclass(frozen=True, slots=True)
class Who:
    name: str
    role: Role
    csrf: str
    token_hash: str


def current(request: Request) -> Who | None:
    store: Store = request.app.state.store
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    digest = token_hash(token)
    session: SessionRow | None = store.session(digest, time.time())
    if session is None:
        return None
    return Who(session.user.name, session.user.role, session.csrf, digest)


def client_of(request: Request) -> str:
    """The address of the person's browser: the connection's, or, when the connection comes
    from a proxy the configuration trusts, the last address in ``X-Forwarded-For`` that is not
    one of those proxies (what any client puts before it is its own claim)."""
    peer = request.client.host if request.client else ""
    trusted: frozenset[str] = request.app.state.settings.trusted_proxies
    if peer not in trusted:
        return peer
    hops = [h.strip() for h in ",".join(request.headers.getlist("x-forwarded-for")).split(",")]
    for hop in reversed(hops):
        if hop and hop not in trusted:
            return hop[:64]
    return peer


def require(role: Role) -> Callable[[Request], Awaitable[Who]]:
    """A route dependency: the caller, with at least ``role``; POSTs checked for CSRF."""

    async def dependency(request: Request) -> Who:
        who = current(request)
        if who is None:
            if request.url.path.startswith("/api/"):
                raise HTTPException(401, "log in first", headers={"WWW-Authenticate": "Cookie"})
            target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            raise LoginRequired(quote(target, safe=""))
        if not who.role.allows(role):
            raise HTTPException(403, f"this needs the {role} role (you are {who.role})")
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            sent = request.headers.get("x-csrf-token")
            if sent is None and "form" in request.headers.get("content-type", ""):
                sent = str((await request.form()).get("csrf", ""))
            if not sent or not same(sent, who.csrf):
                raise HTTPException(403, "missing or wrong CSRF token")
        return who

    return dependency
