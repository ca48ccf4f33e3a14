"""Legal orders of the end of a hand that the rules must not mistake for irregularities."""

from __future__ import annotations

import pytest

from tests.engine.rules.scenario import Step, scenario
from tests.eventlog import Log, rules

NO_POSTFLOP: dict[str, Step | None] = {
    name: None for name in ("flop", "flop_bets", "turn", "turn_bets", "river", "river_bets")
}


def _everyone_folds(log: Log) -> None:
    log.act(3, "raise", 300).act(1, "fold").act(2, "fold")


@pytest.mark.parametrize(
    "push",
    [
        pytest.param(lambda log: log.award(3, 450), id="pot-and-bet-together"),
        pytest.param(lambda log: log.award(3, 200, "uncalled").award(3, 250), id="bet-apart"),
        pytest.param(lambda log: log.award(3, 250).award(3, 200, "uncalled"), id="bet-after"),
        pytest.param(lambda log: log.award(3, 200).award(3, 250), id="bet-apart-unlabelled"),
    ],
)
@pytest.mark.parametrize(
    "ending",
    [
        pytest.param(lambda log: log.add("muck", seat=3), id="winner-mucks"),
        pytest.param(lambda log: log.add("muck", seat=3, by="player"), id="winner-throws-in"),
        pytest.param(lambda log: log.show(3, "As"), id="shows-one"),
        pytest.param(lambda log: log.show(3, "AsAd").add("muck", seat=3), id="shows-both"),
    ],
)
def test_uncontested_winner_throws_his_cards_in_before_the_push(ending: Step, push: Step) -> None:
    log = scenario(None, None, preflop=_everyone_folds, **NO_POSTFLOP, showdown=ending, push=push)
    assert rules(log.report()) == []


@pytest.mark.parametrize("label", ["uncalled", "main"])
def test_uncalled_bet_handed_back_before_the_loser_is_killed(label: str) -> None:
    """All-in for more than seat 2 can call: the excess goes back at once, the board is run,
    then the loser is killed and the pot pushed."""

    def hand_back_and_run(log: Log) -> None:
        log.award(3, 500, label).show(2, "7c8c").show(3, "AsAd").board("Kc9d4h")

    log = scenario(
        stacks={1: 1000, 2: 500, 3: 1000},
        preflop=lambda log: log.act(3, "allin").act(1, "fold").act(2, "allin"),
        flop=hand_back_and_run,
        flop_bets=None,
        turn_bets=None,
        river_bets=None,
        showdown=lambda log: log.add("muck", seat=2),
        push=lambda log: log.award(3, 1020).add("rake", amount=30),
    )
    assert rules(log.report()) == []


def test_the_pot_pushed_before_the_loser_is_killed_is_still_raised() -> None:
    """The near miss: an uncalled bet handed back first does not hide a real R-MUCK-8."""
    log = scenario(
        showdown=lambda log: log.show(2, "7c8c").show(3, "AsAd"),
        push=lambda log: log.award(3, 1020).add("rake", amount=30).add("muck", seat=2),
    )
    assert rules(log.report()) == ["R-MUCK-8"]
