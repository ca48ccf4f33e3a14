"""Test-wide settings: hypothesis never judges by wall-clock time (CI machines are shared)."""

from hypothesis import HealthCheck, settings

settings.register_profile("feltwatch", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("feltwatch")
