"""The fields of the appliance's rows, read at the edge: each number bounded and finite, each
field of the type it must have; a row that breaks one gets ``RowError`` naming the field."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

MAX_INT = 2**62
"""Sequence numbers, seats, chips and times all stay far below this (and inside SQL's BIGINT)."""
MAX_DEPTH = 16


class RowError(ValueError):
    """A row that cannot be stored (the message names the field)."""


DATA_ERRORS = (ValueError, TypeError, KeyError, AttributeError, OverflowError, RecursionError)
"""What a row that cannot be stored raises (``RowError`` among them); anything else is the
store's own trouble (unreachable, busy): the row is tried again, not set aside."""


def check_values(value: object, where: str = "row", depth: int = 0) -> None:
    """Every number in ``value`` finite and within ``MAX_INT``, every text valid Unicode (no
    lone surrogate, which JSON can carry and no database stores); nesting at most
    ``MAX_DEPTH``."""
    if depth > MAX_DEPTH:
        raise RowError(f"{where}: nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -MAX_INT < value < MAX_INT:
            raise RowError(f"{where}: {str(value)[:20]}... is out of range")
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) >= MAX_INT:
            raise RowError(f"{where}: {value} is not a number in range")
    elif isinstance(value, str):
        if not _valid(value):
            raise RowError(f"{where}: not valid text (a lone surrogate)")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            name = str(key)[:40]
            if not _valid(name):
                raise RowError(f"{where}: a name that is not valid text")
            check_values(item, f"{where}.{name}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            check_values(item, f"{where}[{i}]", depth + 1)


def text(row: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = row.get(key, default)
    if not isinstance(value, str):
        raise RowError(f"{key}: expected text, got {_kind(value)}")
    return value


def integer(row: Mapping[str, Any], key: str) -> int:
    value = row.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RowError(f"{key}: expected an integer, got {_kind(value)}")
    return value


def optional_integer(row: Mapping[str, Any], key: str) -> int | None:
    return None if row.get(key) is None else integer(row, key)


def seconds(row: Mapping[str, Any], key: str, default: float) -> float:
    """A wall-clock time in seconds (missing or zero: ``default``)."""
    value = row.get(key)
    if not value:
        return default
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise RowError(f"{key}: expected seconds, got {_kind(value)}")
    return float(value)


def chips_by_seat(row: Mapping[str, Any], key: str) -> dict[int, int]:
    value = row.get(key) or {}
    if not isinstance(value, Mapping):
        raise RowError(f"{key}: expected chips by seat, got {_kind(value)}")
    out = {}
    for seat, chips in value.items():
        if not str(seat).isascii() or not str(seat).isdigit() or len(str(seat)) > 3:
            raise RowError(f"{key}: seat {str(seat)[:20]!r} is not a seat number")
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
            raise RowError(f"{key}.{seat}: expected chips, got {_kind(chips)}")
        out[int(seat)] = chips
    return out


def event(row: Mapping[str, Any]) -> None:
    """An event-log line as the store needs it (the engine judged it already)."""
    check_values(row, "event")
    integer(row, "seq")
    kind = text(row, "type")
    if kind == "hand_start":
        text(row, "hand")
        optional_integer(row, "button")
        chips_by_seat(row, "stacks")
    elif kind == "hand_end":
        text(row, "hand")


def _valid(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _kind(value: object) -> str:
    return "nothing" if value is None else type(value).__name__
