"""A camera's zones: the file ``feltwatch calibrate`` wrote (the demo writes its table's layout
so)."""

from __future__ import annotations

from pathlib import Path

import yaml

from feltwatch.appliance.config import CameraSection, Config, ConfigError


def zone_config(config: Config, camera: CameraSection, config_path: Path) -> dict[str, object]:
    assert camera.zones is not None
    zones = camera.zones if camera.zones.is_absolute() else config_path.parent / camera.zones
    loaded = yaml.safe_load(zones.read_text())
    if not isinstance(loaded, dict):
        raise ConfigError([f"{zones}: expected the zone configuration of feltwatch calibrate"])
    return loaded
