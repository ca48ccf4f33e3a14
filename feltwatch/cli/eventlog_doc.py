"""``feltwatch eventlog``: the table event log's reference (docs/event-log.md), written from the
reader's own field descriptions (``engine.codec.SCHEMAS``) and the events' docstrings."""

from __future__ import annotations

import ast
import inspect
from dataclasses import fields
from itertools import pairwise

from engine import events
from engine.codec import SCHEMAS, SEQ, TS_MS
from engine.events import EVENT_TYPES, HouseRules
from engine.fields import LARGEST, Field

_MEANING = {
    "table": "The table's configuration: it applies to the hands that start after it.",
    "hand_start": "A new hand begins.",
    "shoe_draw": "The RFID shoe read a card leaving it (its identity, not how it lies).",
    "card": "Vision saw a card arrive somewhere.",
    "blind": "A blind posted (a straddle is a blind above the big blind).",
    "ante": "An ante posted.",
    "action": "A betting action.",
    "show": "Cards tabled.",
    "muck": "A hand thrown into the muck, or killed by the dealer.",
    "award": "Chips pushed to a seat: a pot, or a bet nobody called handed back.",
    "rake": "Chips dropped as rake.",
    "tray": "The RFID chip tray's count by denomination.",
    "stack": "Vision counted the chips in front of a seat (its stack, not its bet).",
    "hand_end": "The dealer cleared the table.",
}
assert set(_MEANING) == set(EVENT_TYPES)


def _row(field: Field) -> str:
    default = "required" if field.required else f"optional, default `{_shown(field.default)}`"
    unit = f" ({field.unit})" if field.unit else ""
    return f"| `{field.name}` | {field.kind}{unit} | {default} | {field.meaning} |"


def _shown(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, HouseRules):
        return "{}"
    return str(value)


def switch_docs() -> dict[str, str]:
    """Each house-rule switch's docstring, as written under it in ``engine/events.py``."""
    tree = ast.parse(inspect.getsource(events))
    cls = next(
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name == HouseRules.__name__
    )
    docs: dict[str, str] = {}
    for node, after in pairwise(cls.body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def markdown() -> str:
    lines = [
        "# The table event log (v1)",
        "",
        "Written by `feltwatch eventlog` from the reader's field descriptions "
        "(`engine/codec.py`, `engine/fields.py`); a test fails when this file is out of date. "
        "`feltwatch check FILE.jsonl` reads it.",
        "",
        "One JSON object per line, each with a `type` and these two fields:",
        "",
        "| field | type | | meaning |",
        "|---|---|---|---|",
        _row(SEQ),
        _row(TS_MS),
        "",
        f"Whole numbers are 0 to {LARGEST}; one written as a float with nothing after the point "
        "(`21600.0`) is read as the integer. Money is whole chip units, seats are numbered from "
        "1, cards are rank (`23456789TJQKA`) then suit (`cdhs`). Fields not listed here are "
        "kept and ignored.",
        "",
        "Bad input: a malformed line, an unknown `type` or a wrong field is reported as "
        "`file:line: field: message` and the line is skipped; the lines after it are read. A "
        "wrong optional field of a `table` line, or a wrong house-rule switch, takes its default "
        "and the rest of the line applies. A hand with a line skipped, or without its "
        "`hand_end` at the end of the log, is reported incomplete: the alerts raised before the "
        "gap stand, nothing after it is judged.",
    ]
    for name, schema in SCHEMAS.items():
        lines += ["", f"## `{name}`", "", _MEANING[name], ""]
        lines += ["| field | type | | meaning |", "|---|---|---|---|"]
        lines += [_row(field) for field in schema]
    docs = switch_docs()
    lines += ["", "## House rules (`table.house_rules`)", ""]
    lines += ["| switch | default | meaning |", "|---|---|---|"]
    for field in fields(HouseRules):
        default = getattr(HouseRules(), field.name)
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        lines.append(f"| `{field.name}` | `{shown}` | {docs.get(field.name, '')} |")
    return "\n".join(lines) + "\n"
