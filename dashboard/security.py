"""Passwords (Argon2id, argon2-cffi), session tokens, CSRF tokens and the login rate limit."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()
MIN_PASSWORD_CHARS = 10
"""Outside the demo: a shared surveillance room is no place for short passwords."""


class PasswordError(ValueError):
    pass


def hash_password(password: str, *, demo: bool = False) -> str:
    if not demo and len(password) < MIN_PASSWORD_CHARS:
        raise PasswordError(f"a password needs at least {MIN_PASSWORD_CHARS} characters")
    return _HASHER.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))
"""Verified against when the user does not exist, so that the answer takes as long."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Sessions are stored by the hash of their token: a copy of the database opens none."""
    return hashlib.sha256(token.encode()).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class LoginLimiter:
    """At most ``attempts`` failed logins per ``window_s`` for one account, and for one client
    address; a success clears the account's count."""

    def __init__(self, attempts: int = 5, window_s: float = 300.0) -> None:
        self.attempts = attempts
        self.window_s = window_s
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        while times and times[0] <= now - self.window_s:
            times.popleft()
        return times

    def attempt(self, user: str, client: str, now: float) -> float:
        """0 when a login may be tried now, and the try is counted as failed until it
        ``succeeded`` (checked and counted at once: logins tried together cannot all pass the
        limit); else the seconds to wait."""
        keys = (f"user:{user}", f"client:{client}")
        with self._lock:
            waits = []
            for key in keys:
                times = self._recent(key, now)
                if len(times) >= self.attempts:
                    waits.append(times[0] + self.window_s - now)
            if waits:
                return max(waits)
            for key in keys:
                self._failures[key].append(now)
            return 0.0

    def succeeded(self, user: str, client: str, now: float) -> None:
        """The try counted at ``now`` was right: the account's count is cleared, the
        address's try is taken back."""
        with self._lock:
            self._failures.pop(f"user:{user}", None)
            times = self._failures.get(f"client:{client}")
            if times is not None and now in times:
                times.remove(now)
