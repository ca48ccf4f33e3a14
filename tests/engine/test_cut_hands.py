"""A hand with a line missing or unreadable is reported incomplete and not judged past the hole."""

from __future__ import annotations

import io
import random
from dataclasses import replace

from engine import codec
from engine.session import CheckResult, check
from engine.simulate import demo_table, simulate_hand
from tests.engine.rules.scenario import scenario


def _check(text: str) -> CheckResult:
    return check(codec.iter_lines("log.jsonl", io.StringIO(text)), "log.jsonl")


def _two_hands() -> list[str]:
    """Two clean hands of the demo table, the button moving on."""
    rng = random.Random(5)
    table = demo_table()
    stacks = dict.fromkeys(range(1, 7), 10_000)
    first = simulate_hand(table, hand="h1", button=1, stacks=stacks, rng=rng)
    second = simulate_hand(table, hand="h2", button=2, stacks=stacks, rng=rng)[1:]
    events = [replace(e, seq=i + 1) for i, e in enumerate([*first, *second])]
    return codec.dump_events(events).splitlines()


def test_the_two_hands_are_clean_when_whole() -> None:
    result = _check("\n".join(_two_hands()) + "\n")
    assert not result.errors and result.alerts == ()
    assert [h.hand for h in result.hands] == ["h1", "h2"]


def test_a_log_whose_last_line_is_cut_raises_no_alert_for_the_cut_hand() -> None:
    lines = _two_hands()
    for keep in range(len(lines) - 12, len(lines)):  # cut anywhere in the second hand's end
        cut = [*lines[:keep], lines[keep][: len(lines[keep]) // 2]]
        result = _check("\n".join(cut))
        assert [e.line for e in result.errors] == [keep + 1]
        assert result.alerts == (), keep
        last = result.hands[-1]
        assert not last.complete and last.cut is not None


def test_a_hand_with_an_unreadable_line_is_not_judged_past_it_and_the_next_hand_is() -> None:
    lines = _two_hands()
    first_end = next(i for i, raw in enumerate(lines) if '"hand_end"' in raw)
    for broken in range(2, first_end):
        damaged = [*lines]
        damaged[broken] = damaged[broken].replace('"seq"', '"sq"')
        result = _check("\n".join(damaged) + "\n")
        assert [e.line for e in result.errors] == [broken + 1]
        assert result.alerts == (), broken
        assert result.hands[0].cut == f"line {broken + 1} could not be read"
        assert result.hands[1].cut is None and result.hands[1].complete


def test_alerts_raised_before_the_hole_stand() -> None:
    log = scenario(river_bets=lambda log: log.act(3, "check").act(2, "check"))  # out of turn
    lines = log.text().splitlines()
    push = next(i for i, raw in enumerate(lines) if '"award"' in raw)
    lines[push] = "{"
    whole = log.run()
    result = _check("\n".join(lines) + "\n")
    assert result.alerts and result.alerts == whole.alerts
    assert result.hands[0].cut == f"line {push + 1} could not be read"
