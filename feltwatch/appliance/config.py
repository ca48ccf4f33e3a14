"""The appliance's configuration (``feltwatch run --config table.yaml``), validated with pydantic:
unknown keys are refused and every bad field is named with its path and the file.

    table:        name, game, seats, blinds, antes, rake, house rules (catalogue 2.19)
    cameras:      each camera's name, source (usb:N, rtsp://..., a file, demo) and zones
    devices:      serial ports (pyserial URLs) of the shoe, the tray and the light
    chips:        the chip set: colour -> reference BGR and denomination
    journal, recording, dashboard: where and how much
    central:      the broker that carries the table's rows to the floor's central service
    demo:         the rendered table of ``demo`` cameras
"""

from __future__ import annotations

import argparse
import difflib
import sys
import typing
import zoneinfo
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.errors import EventError
from engine.events import Game, HouseRules, TableConfig
from engine.fields import house_rules as parse_house_rules
from feltwatch.appliance.exits import EXIT_UNUSABLE
from feltwatch.appliance.mqtt import BrokerSection


class ConfigError(ValueError):
    """A configuration that cannot be used: one line per problem, each naming file and field."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
    """Letters, digits, ``-`` and ``_``: it names files and MQTT topics."""
    game: Literal["NLHE", "PLHE", "FLHE", "PLO"] = "NLHE"
    seats: Annotated[int, Field(ge=2, le=10)] = 9
    sb: Annotated[int, Field(ge=0)]
    bb: Annotated[int, Field(gt=0)]
    ante: Annotated[int, Field(ge=0)] = 0
    bb_ante: Annotated[int, Field(ge=0)] = 0
    rake_pct: Annotated[Decimal, Field(ge=0, le=100)] = Decimal(0)
    rake_cap: Annotated[int, Field(ge=0)] = 0
    house_rules: dict[str, bool | int | str] = Field(default_factory=dict)

    @field_validator("house_rules")
    @classmethod
    def _switches(cls, value: dict[str, bool | int | str]) -> dict[str, bool | int | str]:
        try:
            parse_house_rules(value)
        except EventError as exc:
            raise ValueError(str(exc)) from None
        return value

    def rules(self) -> HouseRules:
        return parse_house_rules(self.house_rules)

    def event(self) -> TableConfig:
        """The event log's ``table`` line for this table."""
        return TableConfig(
            seq=0,
            ts_ms=0,
            table=self.name,
            game=Game(self.game),
            seats=self.seats,
            sb=self.sb,
            bb=self.bb,
            ante=self.ante,
            bb_ante=self.bb_ante,
            rake_pct=self.rake_pct,
            rake_cap=self.rake_cap,
            house_rules=self.rules(),
        )


class CameraSection(_Strict):
    name: Annotated[str, Field(min_length=1, pattern=r"^[A-Za-z0-9_-]+$")]
    source: Annotated[str, Field(min_length=1)]
    """``usb:N``, ``rtsp://...``, a video file, or ``demo[:SEED]``."""
    zones: Path | None = None
    """Zone configuration from ``feltwatch calibrate`` (not needed for ``demo``)."""


class DeviceSection(_Strict):
    port: Annotated[str, Field(min_length=1)]
    """A pyserial URL: ``/dev/ttyUSB0``, ``/dev/serial/by-id/...``, ``loop://``..."""
    baudrate: Annotated[int, Field(gt=0)] = 115200


class DevicesSection(_Strict):
    shoe: DeviceSection | None = None
    tray: DeviceSection | None = None
    light: DeviceSection | None = None


class ChipSection(_Strict):
    bgr: tuple[
        Annotated[int, Field(ge=0, le=255)],
        Annotated[int, Field(ge=0, le=255)],
        Annotated[int, Field(ge=0, le=255)],
    ]
    denomination: Annotated[int, Field(gt=0)]


class JournalSection(_Strict):
    dir: Path = Path("/var/lib/feltwatch/journal")


class RecordingSection(_Strict):
    dir: Path = Path("/var/lib/feltwatch/recordings")
    budget_gb: Annotated[float, Field(gt=0)] = 50.0
    enabled: bool = True
    segment_s: Annotated[int, Field(ge=5, le=3600)] = 10
    fps: Annotated[float, Field(gt=0, le=30)] = 5.0
    """Frames recorded a second (Motion-JPEG; 1080p is about 0.1-0.3 MB a frame)."""
    clip_before_s: Annotated[float, Field(ge=0, le=60)] = 5.0
    clip_after_s: Annotated[float, Field(ge=0, le=60)] = 5.0


class DashboardSection(_Strict):
    enabled: bool = True
    host: str = "127.0.0.1"
    """Serve on loopback behind a TLS proxy (``deploy/``), or on the surveillance network."""
    port: Annotated[int, Field(gt=0, lt=65536)] = 8000
    store: Path = Path("/var/lib/feltwatch/dashboard.sqlite3")
    secure_cookies: bool = True
    """Session cookies only over HTTPS (browsers also send them to 127.0.0.1 and localhost)."""
    tls_cert: Path | None = None
    tls_key: Path | None = None
    """HTTPS on the dashboard's own port (PEM files); needed when ``host`` is not loopback,
    unless a TLS proxy in front of it serves the network and ``host`` is 127.0.0.1."""
    trusted_proxies: list[str] = Field(default_factory=list)
    """Addresses of the reverse proxies in front of the dashboard (``127.0.0.1`` for a TLS
    proxy on the box): only from them is ``X-Forwarded-For`` believed. Empty: the address is
    the connection's."""
    demo_account: bool = False
    """``feltwatch demo`` only: an admin account ``demo`` with the password ``demo``. Anywhere
    else, create accounts with ``feltwatch users add``: there is no default password."""
    timezone: str = ""
    """The casino's time zone (an IANA name, ``Europe/Madrid``): the pages show times in it.
    Empty: each browser's own."""

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if value:
            try:
                zoneinfo.ZoneInfo(value)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                raise ValueError(f"{value!r} is not a time zone (e.g. Europe/Madrid)") from None
        return value


class CentralLinkSection(_Strict):
    """The central service of the floor (``feltwatch central``), through an MQTT broker."""

    broker: BrokerSection
    queue_mb: Annotated[float, Field(gt=0)] = 512.0
    """What may wait on disk for the broker; beyond it the oldest lines are dropped, counted."""


class DemoSection(_Strict):
    """The rendered table of ``demo`` cameras (``feltwatch demo``)."""

    seed: int = 1
    hands: Annotated[int, Field(ge=1, le=10_000)] = 12
    speed: Annotated[float, Field(ge=0.25, le=16)] = 1.0
    """How much faster than real time the table plays."""
    video: Path | None = None
    """The session rendered beforehand (``feltwatch demo --prerender``): the cameras play it on
    the timeline instead of rendering as they go (a camera's frames cost no drawing)."""
    vision: Literal["models", "truth"] = "models"
    """``models``: the vision worker reads the rendered frames with the ONNX models;
    ``truth``: the renderer's ground truth stands in for the detector (tests the rest)."""


class Config(_Strict):
    table: TableSection
    cameras: list[CameraSection] = Field(default_factory=list)
    devices: DevicesSection = Field(default_factory=DevicesSection)
    chips: dict[str, ChipSection] = Field(default_factory=dict)
    journal: JournalSection = Field(default_factory=JournalSection)
    recording: RecordingSection = Field(default_factory=RecordingSection)
    dashboard: DashboardSection = Field(default_factory=DashboardSection)
    central: CentralLinkSection | None = None
    demo: DemoSection = Field(default_factory=DemoSection)

    @field_validator("cameras")
    @classmethod
    def _unique_names(cls, cameras: list[CameraSection]) -> list[CameraSection]:
        names = [c.name for c in cameras]
        doubles = sorted({n for n in names if names.count(n) > 1})
        if doubles:
            raise ValueError(f"camera names must be unique: {', '.join(doubles)}")
        return cameras


def _path(location: tuple[int | str, ...]) -> str:
    out = ""
    for part in location:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


M = TypeVar("M", bound=BaseModel)


MAX_CONFIG_BYTES = 1 << 20
"""A table's configuration is a few kilobytes: a file this large is not one."""


def load_model(path: Path, model: type[M], sections: str) -> M:
    """A YAML file read into ``model``; ``ConfigError`` lists every problem with its field."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError([f"{path}: {len(raw):,} bytes; a configuration is at most 1 MiB"])
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{path}: not UTF-8 text (byte {exc.start})"]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise ConfigError([f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}"]) from None
    except RecursionError:
        raise ConfigError([f"{path}: nested too deep to be a configuration"]) from None
    if not isinstance(data, dict):
        raise ConfigError([f"{path}: expected a mapping of sections ({sections})"])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(
            [
                f"{path}: {_path(e['loc'])}: {_message(e)}{_did_you_mean(model, e)}"
                for e in exc.errors(include_url=False)
            ]
        ) from None


def _message(error: Any) -> str:
    return "unknown key" if error["type"] == "extra_forbidden" else str(error["msg"])


def _did_you_mean(model: type[BaseModel], error: Any) -> str:
    """For a key no section has: the field of that section it is closest to, if one is."""
    if error["type"] != "extra_forbidden" or not isinstance(error["loc"][-1], str):
        return ""
    section: type[BaseModel] = model
    for part in error["loc"][:-1]:
        field = section.model_fields.get(part) if isinstance(part, str) else None
        if field is None:
            continue  # an item of a list or a key of a mapping: the same model
        inner = _model_in(field.annotation)
        if inner is None:
            return ""
        section = inner
    close = difflib.get_close_matches(error["loc"][-1], list(section.model_fields), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _model_in(kind: Any) -> type[BaseModel] | None:
    """The model a field holds, through ``X | None``, ``list[X]`` and ``dict[str, X]``."""
    for _ in range(4):
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            return kind
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        if not args:
            return None
        kind = args[-1]
    return None


def load(path: Path) -> Config:
    """The configuration in ``path``; ``ConfigError`` lists every problem with its field."""
    config = load_model(path, Config, "table, cameras, ...")
    problems = []
    for i, camera in enumerate(config.cameras):
        if camera.zones is not None:
            zones = camera.zones if camera.zones.is_absolute() else path.parent / camera.zones
            if not zones.is_file():
                problems.append(
                    f"{path}: cameras[{i}].zones: no such file {zones} (write it from a still of "
                    f"this camera: feltwatch calibrate STILL --corners ... -o {zones})"
                )
        elif not camera.source.startswith("demo"):
            problems.append(f"{path}: cameras[{i}].zones: needed for {camera.source!r}")
    problems += dashboard_problems(path, config.dashboard)
    if config.central is not None and config.table.name == "central":
        problems.append(f"{path}: table.name: 'central' is the central service's broker account")
    if problems:
        raise ConfigError(problems)
    return config


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def dashboard_problems(path: Path, section: DashboardSection) -> list[str]:
    problems = []
    if (section.tls_cert is None) != (section.tls_key is None):
        problems.append(f"{path}: dashboard.tls_cert and dashboard.tls_key go together")
    for name in ("tls_cert", "tls_key"):
        file = getattr(section, name)
        if file is not None and not (file if file.is_absolute() else path.parent / file).is_file():
            problems.append(
                f"{path}: dashboard.{name}: no such file {file} (the dashboard's TLS "
                "certificate and key: deploy/README.md)"
            )
    if section.enabled and section.host not in LOOPBACK and section.tls_cert is None:
        problems.append(
            f"{path}: dashboard.host: {section.host} serves the network over plain HTTP (logins "
            "and sessions in clear): set tls_cert and tls_key, or serve on 127.0.0.1 behind a "
            "TLS proxy"
        )
    return problems


C = TypeVar("C")


def config_main(
    prog: str,
    argv: list[str] | None,
    run: Callable[[C, Path], int],
    loader: Callable[[Path], C],
) -> int:
    """A process's ``main``: ``--config FILE`` read by ``loader`` (2 and every problem said on
    stderr when it cannot be used), then ``run(config, path)``."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--config", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        config = loader(args.config)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_UNUSABLE
    return run(config, args.config)
