"""Request bodies are bounded before anything reads them (before the session is checked): a
body over ``MAX_BODY_BYTES`` (declared, or counted as it streams in) gets 413."""

from __future__ import annotations

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 1 << 20
"""The largest body any route takes (a login form, a note, an account) is a few kilobytes."""


class BodyTooLarge(HTTPException):
    """Raised while the body streams in (an HTTP error: the routes' body parsing passes it on
    as it is, and the app answers 413)."""

    def __init__(self) -> None:
        super().__init__(413, "request body too large")


class BodyLimit:
    """ASGI middleware: 413 for a body over ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (
            not declared.isdigit() or len(declared) > 18 or int(declared) > self.max_bytes
        ):
            await _too_large(send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge()
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await _too_large(send)


async def _too_large(send: Send) -> None:
    body = b'{"detail":"request body too large"}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
