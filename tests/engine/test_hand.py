"""The hand state machine on hand-built logs: pots, payouts and the impossible sequences."""

from __future__ import annotations

from typing import Any

import pytest

from tests.eventlog import Log, rules

STACKS3 = {1: 1000, 2: 1000, 3: 1000}


def three_handed(**table: Any) -> Log:
    """Seats 1, 2, 3 with the button on 3: seat 1 small blind, seat 2 big blind, seat 3 first."""
    return (
        Log(**table)
        .hand("h1", 3, STACKS3)
        .blinds((1, int(table.get("sb", 50))), (2, int(table.get("bb", 100))))
        .deal({1: "2h3d", 2: "7c8c", 3: "9s9d"})
    )


def test_split_pot_odd_chip_goes_to_first_seat_left_of_button() -> None:
    log = (
        Log(sb=25, bb=50)
        .hand("h1", 3, STACKS3)
        .blinds((1, 25), (2, 50))
        .deal({1: "2h3d", 2: "7c8c", 3: "9h9d"})
        .act(3, "call", 50)
        .act(1, "fold")
        .act(2, "check")
        .check_down("AsKsQsJsTs", (2, 3))
        .show(2, "7c8c")
        .show(3, "9h9d")
        .end("h1")
    )
    report = log.report()
    settlement = report.settlement
    assert [(p.name, p.amount) for p in settlement.pots] == [("main", 125)]
    assert settlement.shares["main"] == {2: 63, 3: 62}
    assert settlement.finishing_stacks == {1: 975, 2: 1013, 3: 1012}
    assert report.alerts == ()


def test_three_way_all_in_builds_main_and_side_pot_and_returns_the_uncalled_bet() -> None:
    """R-POT-1, R-POT-3: each pot decided on its own."""
    # R-POT-1 example 2: A 10, B 50, C 200, all all-in -> main 30, side 80, 150 back to C.
    log = (
        Log(sb=1, bb=2)
        .hand("h1", 3, {1: 10, 2: 50, 3: 200})
        .blinds((1, 1), (2, 2))
        .deal({1: "AhAd", 2: "KhKd", 3: "QhQd"})
        .act(3, "allin")
        .act(1, "allin")
        .act(2, "allin")
        .board("2c7s9d")
        .board("Tc")
        .board("3h")
        .show(3, "QhQd")
        .show(1, "AhAd")
        .show(2, "KhKd")
        .end("h1")
    )
    report = log.report()
    s = report.settlement
    assert [(p.name, p.amount, p.eligible) for p in s.pots] == [
        ("main", 30, (1, 2, 3)),
        ("side1", 80, (2, 3)),
    ]
    assert s.returned == {3: 150}
    assert s.shares == {"main": {1: 30}, "side1": {2: 80}}
    assert s.finishing_stacks == {1: 30, 2: 80, 3: 150}
    assert report.alerts == ()


def test_heads_up_button_acts_first_preflop_and_an_uncalled_bet_is_returned() -> None:
    """R-BLIND-3 heads-up order, R-BLIND-6 the big blind's option, R-POT-6 uncalled bet."""
    log = (
        Log()
        .hand("h1", 2, {1: 1000, 2: 1000})
        .blinds((2, 50), (1, 100))
        .deal({1: "AhKh", 2: "2c7d"})
        .act(2, "call", 100)
        .act(1, "check")
        .board("Qs8d3c")
        .act(1, "bet", 300)
        .act(2, "fold")
        .end("h1")
    )
    report = log.report()
    assert report.alerts == ()
    assert report.settlement.returned == {1: 300}
    assert report.settlement.finishing_stacks == {1: 1100, 2: 900}


def _raked(rake_pct: float, rake_cap: int, **rules_: bool) -> Log:
    log = Log(rake_pct=rake_pct, rake_cap=rake_cap, house_rules=rules_)
    log.hand("h1", 3, STACKS3).blinds((1, 50), (2, 100)).deal({1: "2h3d", 2: "7c8c", 3: "AsAd"})
    return log


def test_rake_is_percent_of_the_pot_up_to_the_cap() -> None:
    log = _raked(5, 30).act(3, "raise", 500).act(1, "fold").act(2, "call", 500)
    log.check_down("2c7sJdTc3h", (2, 3))
    log.show(2, "7c8c").show(3, "AsAd").add("muck", seat=2)
    log.award(3, 1020).add("rake", amount=30).end("h1")
    report = log.report()
    # Pot 1050: 5 % is 52, capped at 30.
    assert report.settlement.rake == 30
    assert report.settlement.awards == {3: 1020}
    assert report.alerts == ()


def test_wrong_rake_is_a_chip_miscount() -> None:
    log = _raked(5, 30).act(3, "raise", 500).act(1, "fold").act(2, "call", 500)
    log.check_down("2c7sJdTc3h", (2, 3))
    log.show(2, "7c8c").show(3, "AsAd").award(3, 1000).add("rake", amount=50).end("h1")
    report = log.report()
    assert "R-RAKE-1" in rules(report)


@pytest.mark.parametrize(("no_flop_no_drop", "rake"), [(True, 0), (False, 5)])
def test_no_flop_no_drop_switch(no_flop_no_drop: bool, rake: int) -> None:
    log = _raked(5, 30, no_flop_no_drop=no_flop_no_drop)
    log.act(3, "raise", 300).act(1, "fold").act(2, "fold").end("h1")
    report = log.report()
    # The uncalled 200 goes back: the pot is 100 + 50 + 100 = 250, and 5 % of it is 12.
    assert report.settlement.returned == {3: 200}
    assert report.settlement.pots[0].amount + report.settlement.rake == 250
    assert report.settlement.rake == (12 if rake else 0)


def test_fixed_limit_cap_is_four_bets_multiway_and_lifted_heads_up() -> None:
    capped = three_handed(game="FLHE")
    capped.act(3, "raise", 200).act(1, "raise", 300).act(2, "raise", 400).act(3, "raise", 500)
    assert rules(capped.report()) == ["R-BET-19"]

    heads_up = Log(game="FLHE").hand("h1", 2, {1: 1000, 2: 1000}).blinds((2, 50), (1, 100))
    heads_up.deal({1: "AhKh", 2: "2c7d"})
    heads_up.act(2, "raise", 200).act(1, "raise", 300).act(2, "raise", 400).act(1, "raise", 500)
    assert rules(heads_up.report()) == []


def test_fixed_limit_bet_size_is_the_small_bet_then_the_big_bet() -> None:
    log = three_handed(game="FLHE").act(3, "call", 100).act(1, "call", 100).act(2, "check")
    log.board("2c7sJd").act(1, "bet", 100).act(2, "raise", 200).act(3, "call", 200)
    log.act(1, "call", 200).board("Tc").act(1, "bet", 100)
    report = log.report()
    assert rules(report) == ["R-BET-19"]
    assert "limit is 200" in report.alerts[0].message


@pytest.mark.parametrize(("raise_to", "expected"), [(350, []), (351, ["R-BET-7"])])
def test_pot_limit_maximum(raise_to: int, expected: list[str]) -> None:
    # Blinds 50/100: the first raise may make it 100 + 150 + 100 = 350.
    log = three_handed(game="PLHE").act(3, "raise", raise_to)
    assert rules(log.report()) == expected


def test_pot_limit_small_blind_counted_as_a_big_blind() -> None:
    """R-BET-8: blinds 50/100 open for up to 400 where the house counts the small blind as big."""
    log = three_handed(game="PLHE", house_rules={"pl_small_blind_as_big": True})
    assert rules(log.act(3, "raise", 400).report()) == []
    log = three_handed(game="PLHE", house_rules={"pl_small_blind_as_big": True})
    assert rules(log.act(3, "raise", 401).report()) == ["R-BET-7"]


def test_pot_limit_maximum_counts_the_call_first() -> None:
    # R-BET-7: pot 100 after the flop, bet 50 -> the next player may make it 250.
    log = Log(game="PLHE", sb=25, bb=50).hand("h1", 2, {1: 2000, 2: 2000})
    log.blinds((2, 25), (1, 50)).deal({1: "AhKh", 2: "2c7d"}).act(2, "call", 50).act(1, "check")
    log.board("Qs8d3c").act(1, "bet", 50).act(2, "raise", 250)
    assert rules(log.report()) == []
    log.act(1, "raise", 1000)
    assert rules(log.report()) == ["R-BET-7"]  # pot 400 -> at most 250 + 400 + 200 = 850


def test_minimum_bet_and_raise() -> None:
    log = three_handed().act(3, "raise", 150)
    assert rules(log.report()) == ["R-BET-2"]
    log = three_handed().act(3, "call", 100).act(1, "call", 100).act(2, "check")
    log.board("2c7sJd").act(1, "bet", 60)
    assert rules(log.report()) == ["R-BET-1"]


def test_all_in_below_the_minimum_is_allowed() -> None:
    log = Log().hand("h1", 3, {1: 1000, 2: 1000, 3: 130}).blinds((1, 50), (2, 100))
    log.deal({1: "2h3d", 2: "7c8c", 3: "9s9d"}).act(3, "allin")
    assert rules(log.report()) == []


def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    def start() -> Log:
        log = Log().hand("h1", 3, {1: 1000, 2: 250, 3: 1000}).blinds((1, 50), (2, 100))
        log.deal({1: "2h3d", 2: "7c8c", 3: "9s9d"})
        # Seat 3 raises to 200; seat 1 calls; the big blind is all-in to 250 (+50, short).
        return log.act(3, "raise", 200).act(1, "call", 200).act(2, "allin")

    assert rules(start().act(3, "call", 250).act(1, "call", 250).report()) == []
    assert rules(start().act(3, "raise", 500).report()) == ["R-BET-6"]


def test_several_short_all_ins_that_make_a_full_raise_reopen_the_betting() -> None:
    def start(seat_5: str) -> Log:
        stacks = {1: 1000, 2: 1000, 3: 1000, 4: 260, 5: 310}
        log = Log().hand("h1", 5, stacks).blinds((1, 50), (2, 100))
        log.deal({1: "2h3d", 2: "7c8c", 3: "9s9d", 4: "KdKc", 5: "AhAc"})
        # Seat 3 makes it 200; seat 4 is all-in to 260 (+60, short of the 100 minimum).
        log.act(3, "raise", 200).act(4, "allin").act(5, seat_5).act(1, "fold").act(2, "fold")
        return log.act(3, "raise", 800)

    # Seat 5 all-in to 310: seat 3 faces 110 more than it acted on, a full raise in total.
    assert rules(start("allin").report()) == []
    # Seat 5 only calls 260: seat 3 faces 60 more and may not re-raise.
    assert rules(start("call").report()) == ["R-BET-6"]


def test_action_out_of_turn() -> None:
    log = three_handed().act(1, "call", 100)
    report = log.report()
    assert rules(report) == ["R-BET-17"]
    assert report.alerts[0].seat == 1
    assert "seat 3 was to act" in report.alerts[0].message


def test_check_facing_a_bet_and_short_call() -> None:
    assert rules(three_handed().act(3, "check").report()) == ["R-BET-5"]
    assert rules(three_handed().act(3, "call", 60).report()) == ["R-BET-5"]


def test_award_that_does_not_match_the_pot_is_a_critical_chip_miscount() -> None:
    def played() -> Log:
        log = three_handed().act(3, "call", 100).act(1, "call", 100).act(2, "check")
        log.check_down("AcKsJd6c5h", (1, 2, 3))
        log.show(1, "2h3d").show(2, "7c8c").show(3, "9s9d")
        return log.add("muck", seat=1).add("muck", seat=2)

    assert played().award(3, 300).end("h1").report().alerts == ()
    report = played().award(3, 250).end("h1").report()
    assert rules(report) == ["R-POT-5"]
    alert = report.alerts[0]
    assert (alert.family, alert.severity, alert.seat) == ("chip_miscount", "critical", 3)


def test_mucked_hand_at_showdown_cannot_win() -> None:
    log = three_handed().act(3, "call", 100).act(1, "call", 100).act(2, "check")
    log.check_down("2c7sJdTc3h", (1, 2, 3))
    log.show(1, "2h3d").add("muck", seat=3).end("h1")
    report = log.report()
    # Seat 2 never showed and seat 3 mucked: only seat 1 tabled a hand.
    assert report.settlement.shares == {"main": {1: 300}}


def test_pot_limit_omaha_uses_exactly_two_hole_cards() -> None:
    """R-SHOW-4 (and R-SHOW-3: eval7 ranks the five-card hands)."""
    log = Log(game="PLO").hand("h1", 2, {1: 1000, 2: 1000}).blinds((2, 50), (1, 100))
    log.deal({1: "As7h8h3d", 2: "3c3h4d6c"}).act(2, "call", 100).act(1, "check")
    log.check_down("2s5s9sJsKd", (1, 2))
    log.show(1, "As7h8h3d").show(2, "3c3h4d6c").end("h1")
    report = log.report()
    # Hold'em rules would give seat 1 a flush; in Omaha it has ace high and loses to 3-3.
    assert report.settlement.shares == {"main": {2: 200}}


def test_premature_board_card() -> None:
    log = three_handed().act(3, "call", 100).act(1, "call", 100).board("2c7sJd")
    report = log.report()
    assert rules(report) == ["R-PREM-2"]
    assert "seat 2 still to act" in report.alerts[0].message


def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    log = Log(bb_ante=100).hand("h1", 3, STACKS3).add("ante", seat=2, amount=100)
    log.blinds((1, 50), (2, 100)).deal({1: "2h3d", 2: "7c8c", 3: "9s9d"})
    log.act(3, "raise", 300).act(1, "fold").act(2, "fold").end("h1")
    report = log.report()
    assert report.settlement.returned == {3: 200}
    assert report.settlement.awards == {3: 350}
    assert report.settlement.finishing_stacks == {1: 950, 2: 800, 3: 1250}


def test_a_straddle_acts_last_preflop_and_sets_the_minimum_raise() -> None:
    """R-BLIND-7: seat 4 straddles 200; seat 5 acts first; a raise must make it 400."""
    stacks = {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000}
    log = Log().hand("h1", 5, stacks).blinds((1, 50), (2, 100), (3, 200))
    log.deal({1: "2h3d", 2: "7c8c", 3: "9s9d", 4: "KdKc", 5: "AhAc"})
    assert rules(log.act(4, "raise", 300).report()) == ["R-BET-2"]
    log = Log().hand("h1", 5, stacks).blinds((1, 50), (2, 100), (3, 200))
    log.deal({1: "2h3d", 2: "7c8c", 3: "9s9d", 4: "KdKc", 5: "AhAc"})
    log.act(4, "raise", 400).act(5, "fold").act(1, "fold").act(2, "fold").act(3, "call", 400)
    report = log.report()
    assert report.alerts == ()


def test_a_hand_mucked_out_of_turn_is_a_fold_and_the_turn_stays() -> None:
    log = three_handed().add("muck", seat=1).act(3, "call", 100).act(2, "check")
    report = log.report()
    assert report.alerts == ()
    assert report.settlement.pots[0].eligible == (2, 3)


def test_a_stack_that_grows_during_the_hand_breaks_table_stakes() -> None:
    """R-BET-23: chips counted in front of seat 3 beyond what its bets left it."""
    log = three_handed().act(3, "raise", 300).add("stack", seat=3, amount=800)
    report = log.report()
    assert rules(report) == ["R-BET-23"]
    assert report.alerts[0].amounts == {"counted": 800, "expected": 700}
    assert (
        rules(three_handed().act(3, "raise", 300).add("stack", seat=3, amount=700).report()) == []
    )
