"""What the composition root gives the dashboard app."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.table_files import TableFiles


def no_light(table: str, alert_id: str, user: str) -> str:
    return "no light connected to this dashboard"


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    tables: Mapping[str, TableFiles] = field(default_factory=dict)
    acknowledge: Callable[[str, str, str], str] = no_light
    """Tell the table's engine an alert was acknowledged (its light goes back to normal):
    ``(table, alert id, user) -> what happened``, in words for the person who clicked."""
    secure_cookies: bool = True
    """``Secure`` session cookies: browsers send them over HTTPS, and to 127.0.0.1 / localhost."""
    demo: bool = False
    """The demo allows short passwords (its account is printed on the console)."""
    login_attempts: int = 5
    login_window_s: float = 300.0
    timezone: str = ""
    """The casino's time zone (IANA name) the pages show times in; empty: the browser's."""
    trusted_proxies: frozenset[str] = frozenset()
    """Addresses of the reverse proxies in front of the dashboard: only from them is
    ``X-Forwarded-For`` believed (the login limit and the audit log go by the address)."""
