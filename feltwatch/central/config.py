"""The central service's configuration (``feltwatch central --config central.yaml``).

broker:     the MQTT broker every table publishes to (host, port, credentials, TLS)
store:      the PostgreSQL database (a libpq connection string; its password in a file)
dashboard:  where the floor's dashboard is served (as a table's ``dashboard`` section)
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from feltwatch.appliance.config import ConfigError, DashboardSection, dashboard_problems, load_model
from feltwatch.appliance.mqtt import BrokerSection


class StoreSection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    dsn: str = Field(min_length=1)
    """``host=127.0.0.1 dbname=feltwatch user=feltwatch`` (libpq key=value or a URI)."""
    password_file: Path | None = None


class CentralConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    broker: BrokerSection
    store: StoreSection
    dashboard: DashboardSection = Field(default_factory=DashboardSection)

    def dsn(self, base: Path) -> str:
        if self.store.password_file is None:
            return self.store.dsn
        path = self.store.password_file
        path = path if path.is_absolute() else base / path
        password = path.read_text().strip().replace("\\", "\\\\").replace("'", "\\'")
        return f"{self.store.dsn} password='{password}'"


def load_central(path: Path) -> CentralConfig:
    config = load_model(path, CentralConfig, "broker, store, dashboard")
    problems = dashboard_problems(path, config.dashboard)
    for name, file in (
        ("broker.password_file", config.broker.password_file),
        ("broker.tls_ca", config.broker.tls_ca),
        ("store.password_file", config.store.password_file),
    ):
        if file is not None and not (file if file.is_absolute() else path.parent / file).is_file():
            problems.append(f"{path}: {name}: no such file {file}")
    if problems:
        raise ConfigError(problems)
    return config
