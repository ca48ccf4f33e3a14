"""Read and write the table event log v1 (JSON lines).

Parsing validates at the edge (the fields and their units are ``SCHEMAS``, the format's reference
is written from them): every problem is an ``EventError`` naming the field, so a caller can report
``file:line: field: message`` and go on with the next line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO

import orjson

from engine.errors import EventError, InputError
from engine.events import (
    EVENT_TYPES,
    Action,
    ActionKind,
    CardSeen,
    Event,
    Face,
    Game,
    HandStart,
    HouseRules,
    MuckedBy,
    TableConfig,
)
from engine.fields import (
    Field,
    card,
    cards,
    choice,
    house_rules,
    numbered,
    percent,
    seat,
    shown,
    switches,
    text,
    whole,
    zone,
)
from engine.pots import UNCALLED_POT

_NO_EXTRA: Mapping[str, Any] = {}

SEQ = whole("seq", "sequence number", "increases from line to line")
TS_MS = whole("ts_ms", "milliseconds", "when it happened (any origin, never going back)")
AMOUNT = whole("amount", "chip units", "the chips")

SCHEMAS: dict[str, tuple[Field, ...]] = {
    "table": (
        text("table", "the table's name"),
        choice("game", Game, "the game dealt"),
        whole("seats", "seats", "seats at the table (2 to 10)", minimum=2),
        whole("sb", "chip units", "the small blind"),
        whole("bb", "chip units", "the big blind", minimum=1),
        whole("ante", "chip units", "each seat's ante (0: none)", default=0),
        whole("bb_ante", "chip units", "the big blind's ante for the table (0: none)", default=0),
        percent("rake_pct", "the rake, percent of the pot (0: no rake)"),
        whole("rake_cap", "chip units", "the most rake taken from a pot (0: no cap)", default=0),
        switches("house_rules", "the house's rule switches (see below)"),
    ),
    "hand_start": (
        text("hand", "the hand's id"),
        seat("button", "the dealer button's seat"),
        numbered("stacks", "seat", "chip units", "the chips of each seat in the hand"),
    ),
    "shoe_draw": (
        card("card", "the card the shoe read"),
        whole("shoe_seq", "read number", "the shoe's count of its reads"),
    ),
    "card": (
        zone("to", "where the card arrived"),
        choice("face", Face, "which way up it lies"),
        card("card", "the card, when it lies face up (null: face down)", default=None),
        text("back", "the card back vision saw (colour or design)", default=None),
    ),
    "blind": (
        seat("seat", "the seat posting"),
        whole("amount", "chip units", "the blind", minimum=1),
    ),
    "ante": (
        seat("seat", "the seat posting"),
        whole("amount", "chip units", "the ante", minimum=1),
    ),
    "action": (
        seat("seat", "the seat acting"),
        choice("action", ActionKind, "what it did"),
        whole(
            "to",
            "chip units",
            "the seat's total bet on this street after the action (needed for bet and raise; "
            "absent: implied)",
            default=None,
        ),
    ),
    "show": (seat("seat", "the seat tabling its hand"), cards("cards", "the cards tabled")),
    "muck": (
        seat("seat", "the seat whose hand went into the muck"),
        choice("by", MuckedBy, "who threw it in, when known", default=None),
    ),
    "award": (
        seat("seat", "the seat the chips were pushed to"),
        AMOUNT,
        text(
            "pot",
            f"which pot: main, side1, side2, ..., or {UNCALLED_POT} for a bet nobody called "
            "handed back",
            default="main",
        ),
    ),
    "rake": (whole("amount", "chip units", "the chips dropped as rake"),),
    "tray": (
        numbered(
            "counts", "denomination", "chips", "the chips in the dealer's tray by denomination"
        ),
    ),
    "stack": (seat("seat", "the seat counted"), whole("amount", "chip units", "its chips")),
    "hand_end": (text("hand", "the hand's id (that of the hand open)"),),
}
"""Each event type's fields after ``type``, ``seq`` and ``ts_ms``."""
assert set(SCHEMAS) == set(EVENT_TYPES)

_OPTIONAL_ON_TABLE = frozenset(f.name for f in SCHEMAS["table"] if not f.required)
"""Fields of a ``table`` line that fall back to their default when wrong (the line is kept)."""


def _check(event: Event) -> None:
    """What one field cannot say alone: the checks across fields of an event."""
    if isinstance(event, TableConfig):
        if event.seats > 10:
            raise EventError("seats", f"at most 10 seats at a table, got {event.seats}")
        if event.sb > event.bb:
            raise EventError(
                "sb", f"small blind {event.sb} is larger than the big blind {event.bb}"
            )
    elif isinstance(event, HandStart):
        for seat_, stack in event.stacks.items():
            if stack == 0:
                raise EventError(f"stacks.{seat_}", "a seat in the hand must have chips")
    elif isinstance(event, CardSeen):
        if event.face is Face.UP and event.card is None:
            raise EventError("card", "a face-up card needs its identity")
    elif (
        isinstance(event, Action)
        and event.action in (ActionKind.BET, ActionKind.RAISE)
        and event.to is None
    ):
        raise EventError("to", f"a {event.action} needs the seat's total bet on the street")


def parse_event_tolerant(obj: object) -> tuple[Event, tuple[EventError, ...]]:
    """Turn one decoded JSON object into an event and the problems it was read despite.

    A wrong optional field of a ``table`` line (or one wrong house-rule switch) takes its default
    and comes back as a problem: the rest of the line still applies. Any other problem raises
    ``EventError`` naming the field.
    """
    if not isinstance(obj, dict):
        raise EventError(None, f"expected a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None or not isinstance(kind, str):
        raise EventError("type", f"unknown event type {shown(kind)} (known: {', '.join(SCHEMAS)})")
    known = _KNOWN_FIELDS[kind]
    extra = _NO_EXTRA if obj.keys() <= known else {k: v for k, v in obj.items() if k not in known}
    values: dict[str, Any] = {"seq": SEQ.take(obj), "ts_ms": TS_MS.take(obj), "extra": extra}
    problems: list[EventError] = []
    for spec in schema:
        if kind == "table" and spec.name == "house_rules" and obj.get(spec.name) is not None:
            try:
                values[spec.name] = house_rules(obj[spec.name], problems)
            except EventError as exc:
                problems.append(exc)
                values[spec.name] = spec.default
            continue
        try:
            values[spec.name] = spec.take(obj)
        except EventError as exc:
            if kind != "table" or spec.name not in _OPTIONAL_ON_TABLE:
                raise
            problems.append(exc)
            values[spec.name] = spec.default
    event = EVENT_TYPES[kind](**values)
    _check(event)
    return event, tuple(problems)


def parse_event(obj: object) -> Event:
    """Turn one decoded JSON object into an event; raise ``EventError`` naming the first bad field
    (strict: for the appliance's own records)."""
    event, problems = parse_event_tolerant(obj)
    if problems:
        raise problems[0]
    return event


_KNOWN_FIELDS: dict[str, frozenset[str]] = {
    name: frozenset(f.name for f in fields(cls)) | {"type"} for name, cls in EVENT_TYPES.items()
}


def _decode(line: str) -> object:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise EventError(None, f"malformed JSON: {exc.msg} at column {exc.colno}") from None


def parse_line(line: str) -> Event:
    return parse_event(_decode(line))


def iter_lines(path: str, stream: TextIO) -> Iterator[tuple[int, Event | InputError]]:
    """Yield ``(line number, event or error)`` for each non-blank line; never raises on content."""
    last_seq = -1
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            event, problems = parse_event_tolerant(_decode(raw))
        except EventError as exc:
            yield number, InputError(path=path, line=number, field=exc.field, message=exc.message)
            continue
        for problem in problems:
            yield (
                number,
                InputError(
                    path=path,
                    line=number,
                    field=problem.field,
                    message=f"{problem.message}; the rest of the line applies",
                    line_kept=True,
                ),
            )
        if event.seq <= last_seq:
            message = f"seq {event.seq} is not above the previous line's seq {last_seq}"
            yield (
                number,
                InputError(path=path, line=number, field="seq", message=message, line_kept=True),
            )
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
