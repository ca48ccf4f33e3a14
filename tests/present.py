"""A value a test knows is there (a row it wrote, an image it made), checked and typed."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    assert value is not None
    return value
