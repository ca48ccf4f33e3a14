"""Read and write the table event log v1 (JSON lines).

Parsing validates at the edge: every problem is an ``EventError`` naming the field, so a caller
can report ``file:line: field: message`` and go on with the next line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import fields
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO, TypeVar

import orjson

from engine.cards import CardError, parse_card, parse_cards
from engine.errors import EventError, InputError
from engine.events import (
    EVENT_TYPES,
    Action,
    ActionKind,
    Ante,
    Award,
    Blind,
    CardSeen,
    Event,
    Face,
    Game,
    HandEnd,
    HandStart,
    HouseRules,
    Muck,
    Rake,
    ShoeDraw,
    Show,
    StackCount,
    TableConfig,
    TrayCount,
)

E = TypeVar("E", bound=StrEnum)
_NO_EXTRA: Mapping[str, Any] = {}
ZONES = ("board", "burn", "muck", "off_table", "shoe")


# --- field readers -------------------------------------------------------------------------


def _int(obj: Mapping[str, Any], name: str, *, minimum: int = 0) -> int:
    if name not in obj:
        raise EventError(name, "missing")
    value = obj[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(name, f"expected an integer number of chip units, got {value!r}")
    if value < minimum:
        raise EventError(name, f"must be >= {minimum}, got {value}")
    return value


def _opt_int(obj: Mapping[str, Any], name: str, default: int, *, minimum: int = 0) -> int:
    return _int(obj, name, minimum=minimum) if obj.get(name) is not None else default


def _seat(obj: Mapping[str, Any], name: str = "seat") -> int:
    return _int(obj, name, minimum=1)


def _str(obj: Mapping[str, Any], name: str) -> str:
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise EventError(name, f"expected a non-empty string, got {value!r}")
    return str(value)


def _enum(obj: Mapping[str, Any], name: str, enum: type[E]) -> E:
    value = obj.get(name)
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return enum(value)
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise EventError(name, f"expected one of {allowed}, got {value!r}") from None


def _card(obj: Mapping[str, Any], name: str) -> str:
    try:
        return parse_card(obj.get(name))
    except CardError as exc:
        raise EventError(name, str(exc)) from None


def _seat_map(obj: Mapping[str, Any], name: str, *, key_name: str = "seat") -> dict[int, int]:
    value = obj.get(name)
    if not isinstance(value, dict) or not value:
        expected = f"expected a non-empty object of {key_name} -> amount"
        raise EventError(name, f"{expected}, got {value!r}")
    result: dict[int, int] = {}
    for key in value:
        try:
            number = int(key)
        except (TypeError, ValueError):
            raise EventError(f"{name}.{key}", f"{key_name} must be a number") from None
        if number < 1:
            raise EventError(f"{name}.{key}", f"{key_name} must be >= 1")
        result[number] = _int(value, key)
    return result


def _house_rules(obj: Mapping[str, Any]) -> HouseRules:
    value = obj.get("house_rules")
    if value is None:
        return HouseRules()
    return parse_house_rules(value)


def parse_house_rules(value: object) -> HouseRules:
    """House rule switches (an object of ``switch: value``, catalogue 2.19); ``EventError``
    names the switch that is unknown or has a wrong value."""
    if not isinstance(value, dict):
        raise EventError("house_rules", f"expected an object of switches, got {value!r}")
    known = {f.name: f for f in fields(HouseRules)}
    kwargs: dict[str, Any] = {}
    for key, switch in value.items():
        if key not in known:
            raise EventError(f"house_rules.{key}", f"unknown switch (known: {', '.join(known)})")
        default = getattr(HouseRules(), key)
        if isinstance(default, StrEnum):
            switch = _enum(value, key, type(default))
        elif isinstance(default, bool):
            if not isinstance(switch, bool):
                raise EventError(f"house_rules.{key}", f"expected true or false, got {switch!r}")
        elif isinstance(switch, bool) or not isinstance(switch, int) or switch < 1:
            raise EventError(f"house_rules.{key}", f"expected a positive integer, got {switch!r}")
        kwargs[key] = switch
    return HouseRules(**kwargs)


def _pct(obj: Mapping[str, Any], name: str) -> Decimal:
    value = obj.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int | Decimal | float | str):
        raise EventError(name, f"expected a percentage, got {value!r}")
    try:
        pct = Decimal(str(value))
    except InvalidOperation:
        raise EventError(name, f"expected a percentage, got {value!r}") from None
    if not (0 <= pct <= 100):
        raise EventError(name, f"must be between 0 and 100, got {value}")
    return pct


# --- per-type parsers ----------------------------------------------------------------------


def _table(o: Mapping[str, Any], base: dict[str, Any]) -> Event:
    seats = _int(o, "seats", minimum=2)
    if seats > 10:
        raise EventError("seats", f"at most 10 seats at a table, got {seats}")
    sb, bb = _int(o, "sb"), _int(o, "bb", minimum=1)
    if sb > bb:
        raise EventError("sb", f"small blind {sb} is larger than the big blind {bb}")
    return TableConfig(
        **base,
        table=_str(o, "table"),
        game=_enum(o, "game", Game),
        seats=seats,
        sb=sb,
        bb=bb,
        ante=_opt_int(o, "ante", 0),
        bb_ante=_opt_int(o, "bb_ante", 0),
        rake_pct=_pct(o, "rake_pct"),
        rake_cap=_opt_int(o, "rake_cap", 0),
        house_rules=_house_rules(o),
    )


def _hand_start(o: Mapping[str, Any], base: dict[str, Any]) -> Event:
    stacks = _seat_map(o, "stacks")
    for seat, stack in stacks.items():
        if stack == 0:
            raise EventError(f"stacks.{seat}", "a seat in the hand must have chips")
    return HandStart(**base, hand=_str(o, "hand"), button=_seat(o, "button"), stacks=stacks)


def _card_seen(o: Mapping[str, Any], base: dict[str, Any]) -> Event:
    to = o.get("to")
    if not isinstance(to, str) or not (to in ZONES or _is_seat_zone(to)):
        raise EventError("to", f"expected seat:N or one of {', '.join(ZONES)}, got {to!r}")
    face = _enum(o, "face", Face)
    card = None if o.get("card") is None else _card(o, "card")
    if face is Face.UP and card is None:
        raise EventError("card", "a face-up card needs its identity")
    back = o.get("back")
    if back is not None and not isinstance(back, str):
        raise EventError("back", f"expected the name of the card back, got {back!r}")
    return CardSeen(**base, to=to, face=face, card=card, back=back)


def _is_seat_zone(to: str) -> bool:
    return to.startswith("seat:") and to[5:].isdigit() and int(to[5:]) >= 1


def _action(o: Mapping[str, Any], base: dict[str, Any]) -> Event:
    kind = _enum(o, "action", ActionKind)
    to = _opt_int(o, "to", -1)
    if kind in (ActionKind.BET, ActionKind.RAISE) and to < 0:
        raise EventError("to", f"a {kind} needs the seat's total bet on the street")
    return Action(**base, seat=_seat(o), action=kind, to=None if to < 0 else to)


def _show(o: Mapping[str, Any], base: dict[str, Any]) -> Event:
    try:
        cards = parse_cards(o.get("cards"))
    except CardError as exc:
        raise EventError("cards", str(exc)) from None
    if not cards:
        raise EventError("cards", "a show needs the cards tabled (use a muck event for none)")
    return Show(**base, seat=_seat(o), cards=cards)


def _muck_by(o: Mapping[str, Any]) -> str | None:
    by = o.get("by")
    if by not in (None, "player", "dealer"):
        raise EventError("by", f"expected player or dealer, got {by!r}")
    return by


def _tray(o: Mapping[str, Any], base: dict[str, Any]) -> Event:
    return TrayCount(**base, counts=_seat_map(o, "counts", key_name="denomination"))


_PARSERS: dict[str, Callable[[Mapping[str, Any], dict[str, Any]], Event]] = {
    "table": _table,
    "hand_start": _hand_start,
    "shoe_draw": lambda o, b: ShoeDraw(**b, card=_card(o, "card"), shoe_seq=_int(o, "shoe_seq")),
    "card": _card_seen,
    "blind": lambda o, b: Blind(**b, seat=_seat(o), amount=_int(o, "amount", minimum=1)),
    "ante": lambda o, b: Ante(**b, seat=_seat(o), amount=_int(o, "amount", minimum=1)),
    "action": _action,
    "show": _show,
    "muck": lambda o, b: Muck(**b, seat=_seat(o), by=_muck_by(o)),
    "award": lambda o, b: Award(
        **b, seat=_seat(o), amount=_int(o, "amount"), pot=str(o.get("pot") or "main")
    ),
    "rake": lambda o, b: Rake(**b, amount=_int(o, "amount")),
    "tray": _tray,
    "stack": lambda o, b: StackCount(**b, seat=_seat(o), amount=_int(o, "amount")),
    "hand_end": lambda o, b: HandEnd(**b, hand=_str(o, "hand")),
}
assert set(_PARSERS) == set(EVENT_TYPES)

_KNOWN_FIELDS: dict[str, frozenset[str]] = {
    name: frozenset(f.name for f in fields(cls)) | {"type"} for name, cls in EVENT_TYPES.items()
}


def parse_event(obj: object) -> Event:
    """Turn one decoded JSON object into an event; raise ``EventError`` naming the bad field."""
    if not isinstance(obj, dict):
        raise EventError(None, f"expected a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None or not isinstance(kind, str):
        raise EventError("type", f"unknown event type {kind!r} (known: {', '.join(_PARSERS)})")
    known = _KNOWN_FIELDS[kind]
    extra = _NO_EXTRA if obj.keys() <= known else {k: v for k, v in obj.items() if k not in known}
    base = {"seq": _int(obj, "seq"), "ts_ms": _int(obj, "ts_ms"), "extra": extra}
    return parser(obj, base)


def parse_line(text: str) -> Event:
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise EventError(None, f"malformed JSON: {exc.msg} at column {exc.colno}") from None
    return parse_event(obj)


def iter_lines(path: str, stream: TextIO) -> Iterator[tuple[int, Event | InputError]]:
    """Yield ``(line number, event or error)`` for each non-blank line; never raises on content."""
    last_seq = -1
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            event = parse_line(raw)
        except EventError as exc:
            yield number, InputError(path=path, line=number, field=exc.field, message=exc.message)
            continue
        if event.seq <= last_seq:
            message = f"seq {event.seq} is not above the previous line's seq {last_seq}"
            yield number, InputError(path=path, line=number, field="seq", message=message)
        last_seq = max(last_seq, event.seq)
        yield number, event


def read_file(path: Path) -> Iterator[tuple[int, Event | InputError]]:
    with path.open(encoding="utf-8", errors="replace") as stream:
        yield from iter_lines(str(path), stream)


# --- writing -------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, HouseRules):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.TYPE}
    for f in fields(event):
        if f.name != "extra":
            out[f.name] = _plain(getattr(event, f.name))
    out.update(_plain(event.extra))
    return out


def dump_events(events: Iterable[Event]) -> str:
    return "".join(json.dumps(event_to_json(e), separators=(",", ":")) + "\n" for e in events)
