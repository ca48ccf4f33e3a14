"""Pot construction, uncalled bets, odd chips and rake as pure functions."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from engine.pots import build_pots, rake_amount, split, take_rake, uncalled_return


def test_pot_one_example_one_short_call_all_in() -> None:
    """R-POT-1 side-pot construction."""
    # R-POT-1 example 1: pot 200, a 200 bet called all-in for 50 -> 150 back, main pot 300.
    committed = {1: 100 + 200, 2: 100 + 50}
    seat, amount = uncalled_return(committed)
    assert (seat, amount) == (1, 150)
    committed[1] -= amount
    assert [(p.name, p.amount) for p in build_pots(committed, [1, 2])] == [("main", 300)]


def test_folded_money_stays_in_the_pots_it_reached() -> None:
    # Seat 1 bet 500 then folded to seat 3's raise; seat 2 called all-in for 200.
    committed = {1: 500, 2: 200, 3: 500}
    pots = build_pots(committed, [2, 3])
    assert [(p.amount, p.eligible) for p in pots] == [(600, (2, 3)), (600, (3,))]


def test_layers_with_the_same_players_are_one_pot() -> None:
    pots = build_pots({1: 100, 2: 300, 3: 300}, [2, 3])
    assert [(p.name, p.amount, p.eligible) for p in pots] == [("main", 700, (2, 3))]


def test_dead_money_goes_to_the_main_pot() -> None:
    pots = build_pots({1: 100, 2: 50}, [1, 2], dead_main=30)
    assert [(p.amount, p.eligible) for p in pots] == [(130, (1, 2)), (50, (1,))]


def test_odd_chips_go_one_each_clockwise_from_the_button() -> None:
    """R-ODD-1, R-ODD-2, R-POT-4: equal shares, one odd chip per seat from the button."""
    assert split(11, [5, 1, 3], button=5, seat_count=6) == {1: 4, 3: 4, 5: 3}
    assert split(11, [5, 1, 3], button=2, seat_count=6) == {3: 4, 5: 4, 1: 3}


def test_rake_percent_cap_and_rounding() -> None:
    assert rake_amount(1000, Decimal(5), 30) == 30
    assert rake_amount(250, Decimal(5), 30) == 12
    assert rake_amount(250, Decimal("3.5"), 0) == 8
    assert rake_amount(250, Decimal(0), 30) == 0


def test_rake_comes_from_the_main_pot_first() -> None:
    pots = build_pots({1: 10, 2: 50, 3: 50}, [1, 2, 3])
    raked = take_rake(pots, 35)
    assert [p.amount for p in raked] == [0, 75]


ledgers = st.dictionaries(st.integers(1, 10), st.integers(0, 10_000), min_size=2, max_size=10)


@given(ledgers, st.data())
def test_pots_hold_every_chip_once(committed: dict[int, int], data: st.DataObject) -> None:
    live = data.draw(st.lists(st.sampled_from(sorted(committed)), min_size=1, unique=True))
    seat, returned = uncalled_return(committed)
    if seat is not None:
        committed = committed | {seat: committed[seat] - returned}
    pots = build_pots(committed, live)
    assert sum(p.amount for p in pots) == sum(committed.values())
    for pot in pots:
        assert set(pot.eligible) <= set(live)


@given(st.integers(0, 10**9), st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True))
def test_split_shares_differ_by_at_most_one_chip(amount: int, winners: list[int]) -> None:
    shares = split(amount, winners, button=1, seat_count=10)
    assert sum(shares.values()) == amount
    assert max(shares.values()) - min(shares.values()) <= 1
