"""Reading the event log: every event type, round trips, and every kind of bad line."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import codec
from engine.errors import EventError, InputError
from engine.events import Action, ActionKind, Award, CardSeen, Face, TableConfig, TrayCount
from tests.eventlog import Log

GOOD = [
    '{"type":"table","seq":1,"ts_ms":0,"table":"T1","game":"PLO","seats":9,"sb":1,"bb":2,'
    '"rake_pct":2.5,"rake_cap":6,"house_rules":{"no_flop_no_drop":false}}',
    '{"type":"hand_start","seq":2,"ts_ms":1,"hand":"7","button":3,"stacks":{"1":100,"3":200}}',
    '{"type":"shoe_draw","seq":3,"ts_ms":2,"card":"As","shoe_seq":1}',
    '{"type":"card","seq":4,"ts_ms":3,"to":"seat:3","face":"down","card":null}',
    '{"type":"card","seq":5,"ts_ms":4,"to":"board","face":"up","card":"Td"}',
    '{"type":"blind","seq":6,"ts_ms":5,"seat":1,"amount":1}',
    '{"type":"ante","seq":7,"ts_ms":6,"seat":1,"amount":1}',
    '{"type":"action","seq":8,"ts_ms":7,"seat":3,"action":"raise","to":6}',
    '{"type":"action","seq":9,"ts_ms":8,"seat":1,"action":"fold"}',
    '{"type":"show","seq":10,"ts_ms":9,"seat":3,"cards":["As","Kd"]}',
    '{"type":"muck","seq":11,"ts_ms":10,"seat":1}',
    '{"type":"award","seq":12,"ts_ms":11,"seat":3,"amount":12,"pot":"side1"}',
    '{"type":"rake","seq":13,"ts_ms":12,"amount":1}',
    '{"type":"tray","seq":14,"ts_ms":13,"counts":{"25":40,"100":60}}',
    '{"type":"hand_end","seq":15,"ts_ms":14,"hand":"7"}',
]


def test_every_event_type_reads_and_writes_back_the_same() -> None:
    events = [codec.parse_line(line) for line in GOOD]
    assert [e.TYPE for e in events] == [json.loads(line)["type"] for line in GOOD]
    assert [codec.parse_line(line) for line in codec.dump_events(events).splitlines()] == events
    table = events[0]
    assert isinstance(table, TableConfig) and not table.house_rules.no_flop_no_drop
    assert events[3] == CardSeen(seq=4, ts_ms=3, to="seat:3", face=Face.DOWN, card=None)
    assert events[7] == Action(seq=8, ts_ms=7, seat=3, action=ActionKind.RAISE, to=6)


def test_unknown_fields_are_kept_and_ignored() -> None:
    event = codec.parse_line('{"type":"muck","seq":1,"ts_ms":0,"seat":2,"camera":"overhead-1"}')
    assert event.extra == {"camera": "overhead-1"}
    assert codec.event_to_json(event)["camera"] == "overhead-1"


BAD = [
    ("{not json", None, "malformed JSON"),
    ("[1, 2]", None, "expected a JSON object"),
    ('{"type":"teleport","seq":1,"ts_ms":0}', "type", 'unknown event type "teleport"'),
    ('{"type":"muck","ts_ms":0,"seat":1}', "seq", "missing"),
    ('{"type":"shoe_draw","seq":1,"ts_ms":0,"card":"1s","shoe_seq":1}', "card", "unknown card"),
    ('{"type":"show","seq":1,"ts_ms":0,"seat":1,"cards":"AsAs"}', "cards", "duplicate card"),
    ('{"type":"blind","seq":1,"ts_ms":0,"seat":1,"amount":-50}', "amount", "must be at least 1"),
    ('{"type":"blind","seq":1,"ts_ms":0,"seat":1,"amount":50.5}', "amount", "whole number"),
    ('{"type":"award","seq":1,"ts_ms":0,"seat":1,"amount":"100"}', "amount", "whole number"),
    ('{"type":"muck","seq":1,"ts_ms":0,"seat":0}', "seat", "must be at least 1"),
    ('{"type":"action","seq":1,"ts_ms":0,"seat":1,"action":"raise"}', "to", "needs the seat"),
    ('{"type":"action","seq":1,"ts_ms":0,"seat":1,"action":"shove"}', "action", "one of"),
    ('{"type":"card","seq":1,"ts_ms":0,"to":"floor","face":"up","card":"As"}', "to", "seat:N"),
    ('{"type":"card","seq":1,"ts_ms":0,"to":"board","face":"up"}', "card", "identity"),
    (
        '{"type":"hand_start","seq":1,"ts_ms":0,"hand":"1","button":1,"stacks":{"x":5}}',
        "stacks.x",
        "must be a number",
    ),
    (
        '{"type":"table","seq":1,"ts_ms":0,"table":"T","game":"NLHE","seats":6,"sb":1,"bb":2,'
        '"house_rules":{"no_flop_no_drp":true}}',
        "house_rules.no_flop_no_drp",
        "unknown switch",
    ),
    (
        '{"type":"table","seq":1,"ts_ms":0,"table":"T","game":"NLHE","seats":6,"sb":5,"bb":2}',
        "sb",
        "larger than the big blind",
    ),
]


@pytest.mark.parametrize(("line", "field", "message"), BAD)
def test_bad_line_names_the_field(line: str, field: str | None, message: str) -> None:
    with pytest.raises(EventError) as caught:
        codec.parse_line(line)
    assert caught.value.field == field
    assert message in caught.value.message


def test_a_bad_line_is_reported_with_file_and_line_and_the_rest_is_read() -> None:
    text = GOOD[0] + "\n\n{oops\n" + GOOD[1] + "\n"
    items = list(codec.iter_lines("log.jsonl", io.StringIO(text)))
    assert [line for line, _ in items] == [1, 3, 4]
    error = items[1][1]
    assert isinstance(error, InputError)
    assert str(error).startswith("log.jsonl:3: malformed JSON")


def test_seq_must_increase() -> None:
    text = GOOD[1] + "\n" + GOOD[0] + "\n"
    errors = [i for _, i in codec.iter_lines("x", io.StringIO(text)) if isinstance(i, InputError)]
    assert [(e.line, e.field) for e in errors] == [(2, "seq")]


def test_engine_level_bad_input_names_line_and_field_and_goes_on() -> None:
    log = Log().hand("h1", 3, {1: 1000, 2: 1000, 3: 1000}).add("blind", seat=7, amount=50)
    log.add("card", to="seat:9", face="down").add("action", seat=3, action="fold")
    log.end("h1").add("muck", seat=1)
    result = log.run()
    assert [(e.line, e.field) for e in result.errors] == [(3, "seat"), (4, "to"), (7, "type")]
    assert "seat 7 is not in hand h1" in result.errors[0].message
    assert "outside a hand" in result.errors[2].message
    assert len(result.hands) == 1 and result.hands[0].complete


scalars = st.none() | st.booleans() | st.integers(-5, 10**6) | st.text("AKs2d:x", max_size=4)
json_values = (
    scalars
    | st.lists(scalars, max_size=3)
    | st.dictionaries(st.sampled_from(["1", "2", "x", "no_flop_no_drop"]), scalars, max_size=3)
)
type_names = st.sampled_from(["table", "hand_start", "card", "action", "show", "award", "x"])


FIELD_NAMES = sorted(
    {"seq", "ts_ms", "seat", "amount", "card", "cards", "to", "face", "action", "stacks", "hand"}
    | {"button", "table", "game", "seats", "sb", "bb", "house_rules", "rake_pct", "counts"}
)


@given(type_names, st.dictionaries(st.sampled_from(FIELD_NAMES), json_values))
def test_arbitrary_objects_never_raise_anything_but_event_error(
    kind: str, fields: dict[str, object]
) -> None:
    with contextlib.suppress(EventError):
        codec.parse_event({"type": kind, **fields})


@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_stop_the_reader(data: bytes) -> None:
    text = data.decode("utf-8", errors="replace")
    for _, item in codec.iter_lines("fuzz", io.StringIO(text)):
        assert item is not None


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("ts_ms", 21600.5, "expected milliseconds as a whole number, got 21600.5"),
        ("ts_ms", "21600", 'expected milliseconds as a whole number, got "21600"'),
        ("seq", True, "expected sequence number as a whole number, got true (a boolean)"),
        ("amount", False, "expected chip units as a whole number, got false (a boolean)"),
        ("amount", 2.0**60, "chip units: must be at most"),
        ("seat", 1.5, "expected seat number as a whole number, got 1.5"),
    ],
)
def test_a_wrong_number_names_its_field_and_its_unit(
    field: str, value: object, message: str
) -> None:
    line = {"type": "award", "seq": 1, "ts_ms": 0, "seat": 1, "amount": 10} | {field: value}
    with pytest.raises(EventError) as caught:
        codec.parse_event(line)
    assert caught.value.field == field
    assert message in caught.value.message


def test_whole_numbers_written_as_floats_are_read_where_an_integer_is_meant() -> None:
    event = codec.parse_line(
        '{"type":"award","seq":3.0,"ts_ms":21600.0,"seat":2.0,"amount":1.5e3,"pot":"main"}'
    )
    assert isinstance(event, Award)
    assert (event.seq, event.ts_ms, event.seat, event.amount) == (3, 21600, 2, 1500)
    tray = codec.parse_line('{"type":"tray","seq":1,"ts_ms":0,"counts":{"25":40.0}}')
    assert isinstance(tray, TrayCount) and tray.counts == {25: 40}


def _items(log: Log) -> list[tuple[int, object]]:
    return list(codec.iter_lines("log.jsonl", io.StringIO(log.text())))


def test_a_bad_optional_field_of_a_table_line_costs_that_field_and_not_the_hands_after() -> None:
    from tests.engine.rules.scenario import scenario

    good = scenario(table={"bb_ante": 0}).run()
    log = scenario(table={"bb_ante": False, "house_rules": {"tournament": "yes", "chip_unit": 25}})
    result = log.run()
    assert [(e.line, e.field, e.line_kept) for e in result.errors] == [
        (1, "bb_ante", True),
        (1, "house_rules.tournament", True),
    ]
    assert "expected chip units as a whole number, got false (a boolean)" in str(result.errors[0])
    assert "the rest of the line applies" in str(result.errors[0])
    assert len(result.hands) == 1 and result.hands[0].complete
    assert result.alerts == good.alerts == ()
    table = next(item for _, item in _items(log) if isinstance(item, TableConfig))
    assert table.house_rules.chip_unit == 25 and not table.house_rules.tournament
    assert table.rake_pct == 5


def test_a_wrong_required_field_of_a_table_line_drops_the_line() -> None:
    log = Log(bb="big")
    errors = [item for _, item in _items(log) if isinstance(item, InputError)]
    assert [(e.field, e.line_kept) for e in errors] == [("bb", False)]
