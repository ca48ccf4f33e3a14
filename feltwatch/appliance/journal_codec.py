"""Engine inputs <-> journal lines: one JSON object per input, schema-versioned.

``{"v": 1, "type": "CardDrawn", "ts_ns": ..., "device": "shoe", "card": "As", ...}``. The
types are the frozen dataclasses of ``engine.inputs`` (devices) and ``engine.observations``
(cameras); decoding rebuilds them from their own type hints, so a new input type needs no code
here, only its registration in ``INPUT_TYPES``.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

import orjson

from engine import inputs, observations
from engine.observations import EngineInput

SCHEMA = 1


class JournalError(ValueError):
    """A journal line that cannot be read back (the message names the field)."""


def _concrete(module: types.ModuleType, base: type) -> dict[str, type]:
    return {
        name: cls
        for name, cls in vars(module).items()
        if isinstance(cls, type)
        and issubclass(cls, base)
        and cls is not base
        and dataclasses.is_dataclass(cls)
    }


INPUT_TYPES: dict[str, type] = {
    **_concrete(inputs, inputs.DeviceInput),
    **_concrete(observations, observations.Observation),
}


def encode(item: EngineInput) -> bytes:
    """One journal line (with its newline) for an engine input."""
    name = type(item).__name__
    if INPUT_TYPES.get(name) is not type(item):
        raise TypeError(f"{name} is not an engine input type")
    row: dict[str, Any] = {"v": SCHEMA, "type": name}
    assert dataclasses.is_dataclass(item) and not isinstance(item, type)
    for f in dataclasses.fields(item):
        row[f.name] = getattr(item, f.name)
    return orjson.dumps(row, option=orjson.OPT_NON_STR_KEYS) + b"\n"


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        return _convert(value, options[0], where) if len(options) == 1 else value
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            choices = [e.value for e in hint]
            raise JournalError(f"{where}: {value!r} is not one of {choices}") from None
    if origin in (Mapping, dict, typing.Mapping) or hint in (Mapping, dict):
        if not isinstance(value, dict):
            raise JournalError(f"{where}: expected an object, got {value!r}")
        key_hint, value_hint = args if args else (Any, Any)
        return {
            _convert(_key(k, key_hint, where), key_hint, where): _convert(v, value_hint, where)
            for k, v in value.items()
        }
    if origin is tuple:
        if not isinstance(value, list):
            raise JournalError(f"{where}: expected a list, got {value!r}")
        item_hint = args[0] if args else Any
        return tuple(_convert(v, item_hint, where) for v in value)
    if hint is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise JournalError(f"{where}: expected an integer, got {value!r}")
    if hint is float and not isinstance(value, int | float):
        raise JournalError(f"{where}: expected a number, got {value!r}")
    if hint is str and not isinstance(value, str):
        raise JournalError(f"{where}: expected a string, got {value!r}")
    if hint is bool and not isinstance(value, bool):
        raise JournalError(f"{where}: expected true or false, got {value!r}")
    return value


def _key(key: str, hint: Any, where: str) -> Any:
    if hint is int:
        try:
            return int(key)
        except ValueError:
            raise JournalError(f"{where}: key {key!r} is not an integer") from None
    return key


def decode(line: bytes | str) -> EngineInput:
    """The engine input of one journal line; ``JournalError`` names what is wrong."""
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise JournalError(f"not JSON ({exc})") from None
    if not isinstance(row, dict):
        raise JournalError("not a JSON object")
    if row.get("v") != SCHEMA:
        raise JournalError(f"v: schema {row.get('v')!r} is not {SCHEMA}")
    name = row.get("type")
    cls = INPUT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise JournalError(f"type: unknown input type {name!r}")
    hints = _hints(cls)
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in row:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise JournalError(f"{name}.{f.name}: missing")
            continue
        kwargs[f.name] = _convert(row[f.name], hints[f.name], f"{name}.{f.name}")
    item: EngineInput = cls(**kwargs)
    return item
