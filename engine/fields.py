"""The fields of the table event log: what each holds, in which unit, and how it is read.

A ``Field`` reads one value of a decoded JSON object and raises ``EventError`` naming the field
and what was expected. The same descriptions write the format's reference (``docs/event-log.md``),
so what the reader accepts and what the reference says cannot drift apart.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from engine.cards import CardError, parse_card, parse_cards
from engine.errors import EventError
from engine.events import HouseRules
from engine.zones import Place, zone_of

LARGEST = 2**53
"""The largest whole number the log carries (the largest that every JSON reader keeps exact)."""

ZONES = ("board", "burn", "muck", "off_table", "shoe")
"""Where a card can be seen arriving, besides ``seat:N``."""

_MISSING = object()


def shown(value: object, limit: int = 40) -> str:
    """``value`` as JSON would write it (``true``, ``null``, ``"x"``), cut to ``limit``."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"a number of about {round(value.bit_length() * 0.30103)} digits"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = type(value).__name__
    except RecursionError:
        text = f"a {type(value).__name__} nested too deep"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole_number(value: object, name: str, what: str, *, minimum: int = 0) -> int:
    """A whole number of ``what``: an integer, or a float with nothing after the point."""
    if isinstance(value, bool):
        raise EventError(name, f"expected {what} as a whole number, got {shown(value)} (a boolean)")
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise EventError(name, f"expected {what} as a whole number, got {shown(value)}")
    if value < minimum:
        raise EventError(name, f"{what}: must be at least {minimum}, got {shown(value)}")
    if value > LARGEST:
        raise EventError(name, f"{what}: must be at most {LARGEST}, got {shown(value)}")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Field:
    """One field of an event type."""

    name: str
    kind: str
    """What the value is, as the reference writes it (``whole number``, ``text``, ...)."""
    unit: str = ""
    """What a number counts (``chip units``, ``milliseconds``) or what a text names."""
    meaning: str
    read: Callable[[object, str], Any]
    """``read(value, name)``: the value as the event holds it, or ``EventError``."""
    default: object = _MISSING
    """The value when the field is absent or null (none: the field is required)."""

    @property
    def required(self) -> bool:
        return self.default is _MISSING

    def take(self, obj: Mapping[str, Any]) -> Any:
        value = obj.get(self.name)
        if value is None:
            if self.required:
                raise EventError(self.name, f"missing ({self.kind}{self._unit()})")
            return self.default
        return self.read(value, self.name)

    def _unit(self) -> str:
        return f", {self.unit}" if self.unit else ""


def whole(
    name: str, unit: str, meaning: str, *, minimum: int = 0, default: object = _MISSING
) -> Field:
    return Field(
        name=name,
        kind="whole number",
        unit=unit,
        meaning=meaning,
        default=default,
        read=lambda value, field: whole_number(value, field, unit, minimum=minimum),
    )


def seat(name: str, meaning: str) -> Field:
    return whole(name, "seat number", meaning, minimum=1)


def _text(value: object, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise EventError(name, f"expected a non-empty text, got {shown(value)}")
    return str(value)


def text(name: str, meaning: str, *, default: object = _MISSING) -> Field:
    return Field(name=name, kind="text", meaning=meaning, read=_text, default=default)


def choice(name: str, enum: type[StrEnum], meaning: str, *, default: object = _MISSING) -> Field:
    allowed = ", ".join(member.value for member in enum)

    def read(value: object, field: str) -> StrEnum:
        if isinstance(value, str):
            try:
                return enum(value)
            except ValueError:
                pass
        raise EventError(field, f"expected one of {allowed}, got {shown(value)}")

    return Field(name=name, kind=f"one of {allowed}", meaning=meaning, read=read, default=default)


def _card(value: object, name: str) -> str:
    try:
        return parse_card(value)
    except CardError as exc:
        raise EventError(name, str(exc)) from None


def card(name: str, meaning: str, *, default: object = _MISSING) -> Field:
    return Field(
        name=name, kind="card", unit="e.g. As, Td", meaning=meaning, read=_card, default=default
    )


def _cards(value: object, name: str) -> tuple[str, ...]:
    try:
        cards = parse_cards(value)
    except CardError as exc:
        raise EventError(name, str(exc)) from None
    if not cards:
        raise EventError(name, "no cards (a hand thrown away without showing is a muck)")
    return cards


def cards(name: str, meaning: str) -> Field:
    return Field(
        name=name, kind="list of cards", unit='["As", "Kd"] or "AsKd"', meaning=meaning, read=_cards
    )


def _zone(value: object, name: str) -> str:
    if isinstance(value, str) and (value in ZONES or is_seat_zone(value)):
        return value
    raise EventError(name, f"expected seat:N or one of {', '.join(ZONES)}, got {shown(value)}")


def is_seat_zone(to: str) -> bool:
    return zone_of(to).place is Place.SEAT


def zone(name: str, meaning: str) -> Field:
    return Field(
        name=name, kind="text", unit=f"seat:N, {', '.join(ZONES)}", meaning=meaning, read=_zone
    )


def numbered(name: str, key: str, unit: str, meaning: str) -> Field:
    """An object of ``key`` (a number written as text) -> a whole number of ``unit``."""

    def read(value: object, field: str) -> dict[int, int]:
        if not isinstance(value, dict) or not value:
            raise EventError(
                field, f"expected a non-empty object of {key} -> {unit}, got {shown(value)}"
            )
        result: dict[int, int] = {}
        for name_, amount in value.items():
            number = name_.strip() if isinstance(name_, str) else name_
            if not (isinstance(number, str) and number.isascii() and number.isdigit()):
                raise EventError(f"{field}.{str(name_)[:20]}", f"the {key} must be a number")
            if len(number) > len(str(LARGEST)):
                raise EventError(f"{field}.{str(name_)[:20]}", f"the {key} is out of range")
            where = f"{field}.{int(number)}"
            result[whole_number(int(number), where, key, minimum=1)] = whole_number(
                amount, where, unit
            )
        return result

    return Field(
        name=name, kind=f"object of {key} -> whole number", unit=unit, meaning=meaning, read=read
    )


def _percent(value: object, name: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise EventError(
            name, f"expected a percentage (a number from 0 to 100), got {shown(value)}"
        )
    try:
        pct = Decimal(str(value))
    except InvalidOperation:
        raise EventError(
            name, f"expected a percentage (a number from 0 to 100), got {shown(value)}"
        ) from None
    if not pct.is_finite() or not (0 <= pct <= 100):
        raise EventError(name, f"a percentage must be from 0 to 100, got {shown(value)}")
    return pct


def percent(name: str, meaning: str) -> Field:
    return Field(
        name=name, kind="number", unit="percent", meaning=meaning, read=_percent, default=Decimal(0)
    )


def switch_value(name: str, default: object, value: object) -> object:
    """One house-rule switch's value, checked against the type of its default."""
    where = f"house_rules.{name}"
    if isinstance(default, StrEnum):
        allowed = ", ".join(member.value for member in type(default))
        if isinstance(value, str) and value in {m.value for m in type(default)}:
            return type(default)(value)
        raise EventError(where, f"expected one of {allowed}, got {shown(value)}")
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise EventError(where, f"expected true or false, got {shown(value)}")
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LARGEST:
        raise EventError(where, f"expected a positive whole number, got {shown(value)}")
    return value


def house_rules(value: object, problems: list[EventError] | None = None) -> HouseRules:
    """House rule switches (catalogue 2.19). With ``problems``, a bad switch is left at its
    default and its error appended; without, the first bad switch raises ``EventError``."""
    if not isinstance(value, dict):
        raise EventError("house_rules", f"expected an object of switches, got {shown(value)}")
    defaults = HouseRules()
    known = [f.name for f in fields(HouseRules)]
    kwargs: dict[str, Any] = {}
    for key, switch in value.items():
        try:
            if key not in known:
                raise EventError(
                    f"house_rules.{str(key)[:40]}", f"unknown switch (known: {', '.join(known)})"
                )
            kwargs[key] = switch_value(key, getattr(defaults, key), switch)
        except EventError as exc:
            if problems is None:
                raise
            problems.append(exc)
    return HouseRules(**kwargs)


def switches(name: str, meaning: str) -> Field:
    return Field(
        name=name,
        kind="object of switch -> value",
        unit="catalogue 2.19",
        meaning=meaning,
        read=lambda value, _field: house_rules(value),
        default=HouseRules(),
    )
