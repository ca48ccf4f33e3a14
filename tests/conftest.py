"""Test-wide settings: hypothesis never judges by wall-clock time (CI machines are shared); the
compiled engine modules, if any, must not be older than their sources."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from tests.services.servers import Postgres

ENGINE = Path(__file__).resolve().parents[1] / "engine"


def _stale_compiled() -> list[str]:
    stale = []
    for compiled in ENGINE.rglob("*.so"):
        source = compiled.with_name(compiled.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(str(source.relative_to(ENGINE.parent)))
    return stale


def pytest_sessionstart(session: pytest.Session) -> None:
    stale = _stale_compiled()
    if stale:
        pytest.exit(
            f"compiled modules are older than {', '.join(stale)}: run `make compile` or "
            "`make uncompile`",
            returncode=2,
        )


settings.register_profile("feltwatch", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("feltwatch")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Postgres]:
    """A real PostgreSQL on loopback for the session (``tests/services/servers.py``)."""
    from tests.services.servers import postgres

    with postgres(tmp_path_factory.mktemp("postgres")) as server:
        yield server
