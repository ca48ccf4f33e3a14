"""Every implemented rule: one event log that triggers it and one near miss that must not.

Each case perturbs the clean hand of ``scenario.py`` at one or two points.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules.registry import all_rules
from tests.engine.rules.scenario import CLEAN_DEAL, Step, deal_cards, deal_with, scenario
from tests.eventlog import Log

NO_MORE: dict[str, Step | None] = {
    name: None
    for name in ("flop_bets", "turn", "turn_bets", "river", "river_bets", "showdown", "push")
}
AFTER_PREFLOP: dict[str, Step | None] = {
    "flop_bets": None,
    "turn_bets": None,
    "river_bets": None,
}
STACKS = {1: 1000, 2: 1000, 3: 1000}
KINGS = deal_with({1: (2, "Kd", "down"), 4: (2, "Kh", "down")})
"""Seat 2 gets K-K: trips on the K-high board, better than seat 3's aces."""


def _seq(*steps: Step) -> Step:
    def run(log: Log) -> None:
        for step in steps:
            step(log)

    return run


def _all_in_preflop(shows: bool) -> Step:
    def run(log: Log) -> None:
        log.act(3, "allin").act(1, "fold").act(2, "call", 1000)
        if shows:
            log.show(2, "7c8c").show(3, "AsAd")

    return run


def _side_pot_hand(main_first: bool) -> dict[str, Step | None]:
    def preflop(log: Log) -> None:
        log.act(3, "raise", 300).act(1, "call", 300).act(2, "allin")
        log.act(3, "call", 400).act(1, "call", 400)

    def showdown(log: Log) -> None:
        log.show(1, "2h3d").show(3, "AsAd").show(2, "KdKh").add("muck", seat=1)

    def push(log: Log) -> None:
        pots = [(2, 1170, "main"), (3, 400, "side1")]
        for seat, amount, pot in pots if main_first else pots[::-1]:
            log.award(seat, amount, pot)
        log.add("rake", amount=30)

    return {
        "deal": KINGS,
        "preflop": preflop,
        "flop_bets": lambda log: log.act(1, "check").act(3, "bet", 200).act(1, "call", 200),
        "turn_bets": lambda log: log.act(1, "check").act(3, "check"),
        "river_bets": lambda log: log.act(1, "check").act(3, "check"),
        "showdown": showdown,
        "push": push,
    }


Case = tuple[dict[str, Any], dict[str, Any]]
# rule id -> (trigger, near miss); each a dict of scenario() keyword arguments.
CASES: dict[str, Case] = {
    "R-HAND-1": (
        {"end": lambda log: log.hand("h2", 1, {1: 1000, 2: 1000}).end("h2")},
        {},
    ),
    "R-COUNT-1": (
        {"deal": lambda log: deal_cards(log, [*CLEAN_DEAL, (3, "Kh", "down")]), **NO_MORE},
        {},
    ),
    "R-MISDEAL-2": (
        {
            **NO_MORE,
            "deal": lambda log: deal_cards(
                log, [*CLEAN_DEAL, (1, "Kh", "down"), (2, "Qh", "down")]
            ),
        },
        {"deal": lambda log: deal_cards(log, [*CLEAN_DEAL, (3, "Kh", "down")]), **NO_MORE},
    ),
    "R-MISDEAL-8": (
        {"deal": lambda log: deal_cards(log, [c for c in CLEAN_DEAL if c[0] != 1]), **NO_MORE},
        {},
    ),
    "R-MISDEAL-7": (
        {"deal": lambda log: deal_cards(log, [*CLEAN_DEAL, (5, "Kh", "down")]), **NO_MORE},
        {},
    ),
    "R-COUNT-4": (
        {"table": {"game": "PLO"}, **NO_MORE},
        {
            **NO_MORE,
            "table": {"game": "PLO"},
            "deal": lambda log: log.deal({1: "2h3d4c5c", 2: "7c8c9cTc", 3: "AsAd6h6d"}),
        },
    ),
    "R-COUNT-3": (
        {"showdown": lambda log: log.show(2, "7c8c").show(3, "AsAdKh").add("muck", seat=2)},
        {},
    ),
    "R-BET-4": (
        {"table": {"game": "FLHE"}, "preflop": lambda log: log.act(3, "raise", 150), **NO_MORE},
        {"table": {"game": "FLHE"}, "preflop": lambda log: log.act(3, "raise", 140), **NO_MORE},
    ),
    "R-BET-21": (
        {
            **NO_MORE,
            "table": {"house_rules": {"chip_unit": 25}},
            "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 210),
        },
        {
            **NO_MORE,
            "table": {"house_rules": {"chip_unit": 25}},
            "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 200),
        },
    ),
    "R-MISDEAL-6": (
        {
            "end": lambda log: (
                log.end("h1")
                .hand("h2", 2, STACKS)
                .blinds((3, 50), (1, 100))
                .act(2, "fold")
                .end("h2")
            )
        },
        {
            "end": lambda log: (
                log.end("h1")
                .hand("h2", 1, STACKS)
                .blinds((2, 50), (3, 100))
                .act(1, "fold")
                .end("h2")
            )
        },
    ),
    "R-MISDEAL-10": (
        {
            "deal": deal_with({0: (1, "2h", "up")}),
            **NO_MORE,
            "end": lambda log: (
                log.end("h1")
                .hand("h2", 1, STACKS)
                .blinds((2, 50), (3, 100))
                .act(1, "fold")
                .end("h2")
            ),
        },
        {
            "deal": deal_with({0: (1, "2h", "up")}),
            **NO_MORE,
            "end": lambda log: (
                log.end("h1")
                .hand("h2", 3, STACKS)
                .blinds((1, 50), (2, 100))
                .act(3, "fold")
                .end("h2")
            ),
        },
    ),
    "R-BLIND-5": (
        {
            "end": lambda log: (
                log.end("h1")
                .hand("h2", 4, {**STACKS, 4: 1000})
                .blinds((1, 50), (2, 100))
                .deal({1: "2h3d", 2: "7c8c", 3: "AsAd", 4: "KdKc"})
                .act(3, "fold")
                .end("h2")
            )
        },
        {
            "end": lambda log: (
                log.end("h1")
                .hand("h2", 1, {**STACKS, 5: 1000})
                .blinds((2, 50), (3, 100))
                .deal({2: "7c8c", 3: "AsAd", 5: "KdKc", 1: "2h3d"})
                .act(5, "fold")
                .end("h2")
            )
        },
    ),
    "R-TABLE-1": (
        {
            "turn_bets": lambda log: (
                log.add("card", to="off_table", face="down").act(2, "check").act(3, "check")
            )
        },
        {},
    ),
    "R-ALLIN-4": (
        {
            "table": {"house_rules": {"tournament": True}},
            "stacks": {1: 1000, 2: 400, 3: 1000},
            **_side_pot_hand(main_first=False),
            "showdown": lambda log: log.show(1, "2h3d").show(3, "AsAd").add("muck", seat=1),
            "end": lambda log: log.show(2, "KdKh").end("h1"),
        },
        {
            "table": {"house_rules": {"tournament": True}},
            "stacks": {1: 1000, 2: 400, 3: 1000},
            **_side_pot_hand(main_first=False),
        },
    ),
    "R-BOX-3": (
        {
            "table": {"house_rules": {"face_up_deal_is_boxed": True}},
            "deal": deal_with({3: (1, "3d", "up")}),
            **NO_MORE,
        },
        {"deal": deal_with({3: (1, "3d", "up")}), **NO_MORE},
    ),
    "R-BLIND-7": (
        {"blinds": lambda log: log.blinds((1, 50), (2, 100), (1, 200)), **NO_MORE},
        {
            "blinds": lambda log: log.blinds((1, 50), (2, 100), (3, 200)),
            "preflop": lambda log: log.act(1, "fold").act(2, "fold"),
            **NO_MORE,
        },
    ),
    "R-ALLIN-6": (
        {
            "preflop": _all_in_preflop(shows=False),
            **AFTER_PREFLOP,
            "flop": lambda log: log.add("stack", seat=3, amount=100).board("Kc9d4h"),
            "showdown": lambda log: log.show(2, "7c8c").show(3, "AsAd").add("muck", seat=2),
            "push": lambda log: log.award(3, 2020).add("rake", amount=30),
        },
        {
            "preflop": _all_in_preflop(shows=False),
            **AFTER_PREFLOP,
            "flop": lambda log: log.add("stack", seat=3, amount=0).board("Kc9d4h"),
            "showdown": lambda log: log.show(2, "7c8c").show(3, "AsAd").add("muck", seat=2),
            "push": lambda log: log.award(3, 2020).add("rake", amount=30),
        },
    ),
    "R-CHIP-6": (
        {"turn": lambda log: log.add("stack", seat=2, amount=400).board("Jc")},
        {"turn": lambda log: log.add("stack", seat=2, amount=500).board("Jc")},
    ),
    "R-EXPOSE-6": (
        {
            "turn_bets": lambda log: (
                log.add("card", to="seat:2", face="up", card="7c").act(2, "check").act(3, "check")
            )
        },
        {},
    ),
    "R-EXPOSE-9": (
        {
            "table": {"house_rules": {"tournament": True}},
            "turn_bets": lambda log: (
                log.add("card", to="off_table", face="down").act(2, "check").act(3, "check")
            ),
        },
        {
            "turn_bets": lambda log: (
                log.add("card", to="off_table", face="down").act(2, "check").act(3, "check")
            ),
        },
    ),
    "R-ALLIN-7": (
        {
            "preflop": _all_in_preflop(shows=True),
            **AFTER_PREFLOP,
            "showdown": lambda log: log.add("muck", seat=2),
            "push": lambda log: (
                log.award(3, 2020).add("rake", amount=30).add("stack", seat=2, amount=200)
            ),
        },
        {
            "preflop": _all_in_preflop(shows=True),
            **AFTER_PREFLOP,
            "showdown": lambda log: log.add("muck", seat=2),
            "push": lambda log: (
                log.award(3, 2020).add("rake", amount=30).add("stack", seat=2, amount=0)
            ),
        },
    ),
    "R-BET-17": (
        {"preflop": lambda log: log.act(1, "fold").act(3, "raise", 300).act(2, "call", 300)},
        {},
    ),
    "R-BET-5": (
        {"flop_bets": lambda log: log.act(2, "check").act(3, "bet", 200).act(2, "call", 150)},
        {},
    ),
    "R-BET-23": (
        {**NO_MORE, "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 800)},
        {**NO_MORE, "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 700)},
    ),
    "R-BET-1": (
        {**NO_MORE, "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 60)},
        {**NO_MORE, "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 100)},
    ),
    "R-BET-2": (
        {**NO_MORE, "preflop": lambda log: log.act(3, "raise", 150)},
        {**NO_MORE, "preflop": lambda log: log.act(3, "raise", 200)},
    ),
    "R-BET-6": (
        {
            **NO_MORE,
            "stacks": {1: 1000, 2: 350, 3: 1000},
            "preflop": lambda log: (
                log.act(3, "raise", 300).act(1, "call", 300).act(2, "allin").act(3, "raise", 600)
            ),
        },
        {
            **NO_MORE,
            "stacks": {1: 1000, 2: 350, 3: 1000},
            "preflop": lambda log: (
                log.act(3, "raise", 300)
                .act(1, "call", 300)
                .act(2, "allin")
                .act(3, "call", 350)
                .act(1, "call", 350)
            ),
        },
    ),
    "R-BET-7": (
        {"table": {"game": "PLHE"}, "preflop": lambda log: log.act(3, "raise", 351), **NO_MORE},
        {"table": {"game": "PLHE"}, "preflop": lambda log: log.act(3, "raise", 350), **NO_MORE},
    ),
    "R-BET-19": (
        {"table": {"game": "FLHE"}, "preflop": lambda log: log.act(3, "raise", 250), **NO_MORE},
        {
            "table": {"game": "FLHE"},
            "preflop": lambda log: log.act(3, "raise", 200).act(1, "fold").act(2, "call", 200),
            "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 100).act(2, "call", 100),
            "push": None,
        },
    ),
    "R-BLIND-1": ({**NO_MORE, "blinds": lambda log: log.blinds((1, 50), (3, 100))}, {}),
    "R-BLIND-2": ({**NO_MORE, "blinds": lambda log: log.blinds((1, 50), (2, 90))}, {}),
    "R-BOX-1": (
        {"deal": _seq(lambda log: log.add("card", to="shoe", face="up", card="Kh"), deal_with({}))},
        {},
    ),
    "R-BOX-2": (
        {
            "deal": _seq(
                lambda log: log.add("card", to="shoe", face="up", card="Kh"),
                lambda log: log.add("card", to="shoe", face="up", card="Qh"),
                deal_with({}),
            )
        },
        {"deal": _seq(lambda log: log.add("card", to="shoe", face="up", card="Kh"), deal_with({}))},
    ),
    "R-BOX-4": (
        {
            "deal": _seq(
                lambda log: log.add("card", to="shoe", face="up", card="3d"),
                deal_with({3: (1, "3d", "up")}),
            )
        },
        {
            "deal": _seq(
                lambda log: log.add("card", to="shoe", face="up", card="Kh"),
                deal_with({3: (1, "3d", "up")}),
            )
        },
    ),
    "R-BURN-1": (
        {
            "flop": lambda log: (
                log.add("shoe_draw", card="Qs", shoe_seq=90)
                .add("card", to="burn", face="up", card="Qs")
                .board("Kc9d4h", burn=False)
            )
        },
        {
            "flop": lambda log: (
                log.add("shoe_draw", card="Qs", shoe_seq=90)
                .add("card", to="burn", face="down", card=None)
                .board("Kc9d4h", burn=False)
            )
        },
    ),
    "R-BURN-2": ({"turn": lambda log: log.board("Jc", burn=False)}, {}),
    "R-BURN-3": (
        {"flop": lambda log: log.add("card", to="burn", face="down").board("Kc9d4h")},
        {},
    ),
    "R-DEAL-1": (
        {"deal": lambda log: deal_cards(log, [CLEAN_DEAL[i] for i in (0, 2, 1, 3, 4, 5)])},
        {},
    ),
    "R-MISDEAL-5": (
        {"deal": lambda log: deal_cards(log, [CLEAN_DEAL[i] for i in (1, 2, 0, 4, 5, 3)])},
        {},
    ),
    "R-MISDEAL-3": ({**NO_MORE, "deal": lambda log: deal_cards(log, CLEAN_DEAL[:5])}, {}),
    "R-DECK-12": (
        {"showdown": lambda log: log.show(2, "7c8c").show(3, "AsAh").add("muck", seat=2)},
        {},
    ),
    "R-DECK-2": (
        {
            "deal": lambda log: [
                log.add("shoe_draw", card=c, shoe_seq=i).add(
                    "card", to=f"seat:{s}", face="down", back="blue" if i == 4 else "red"
                )
                for i, (s, c, _) in enumerate(CLEAN_DEAL)
            ]
        },
        {
            "deal": lambda log: [
                log.add("shoe_draw", card=c, shoe_seq=i).add(
                    "card", to=f"seat:{s}", face="down", back="red"
                )
                for i, (s, c, _) in enumerate(CLEAN_DEAL)
            ]
        },
    ),
    "R-DECK-3": ({"deal": deal_with({4: (2, "As", "down")}), **NO_MORE}, {}),
    "R-EXPOSE-1": (
        {
            **NO_MORE,
            "deal": _seq(
                deal_with({}),
                lambda log: log.add("shoe_draw", card="Qs", shoe_seq=50).add(
                    "card", to="off_table", face="up", card="Qs"
                ),
            ),
        },
        {},
    ),
    "R-EXPOSE-3": (
        {"deal": deal_with({0: (1, "2h", "up")}), **NO_MORE},
        {"deal": deal_with({3: (1, "3d", "up")}), **NO_MORE},
    ),
    "R-EXPOSE-4": ({"deal": deal_with({3: (1, "3d", "up")}), **NO_MORE}, {}),
    "R-EXPOSE-5": (
        {"deal": deal_with({3: (1, "3d", "up"), 4: (2, "8c", "up")}), **NO_MORE},
        {"deal": deal_with({3: (1, "3d", "up")}), **NO_MORE},
    ),
    "R-EXPOSE-7": (
        {
            **NO_MORE,
            "table": {"house_rules": {"tournament": True}},
            "preflop": lambda log: log.act(3, "raise", 300).act(1, "call", 300).show(1, "2h3d"),
        },
        {
            **NO_MORE,
            "preflop": lambda log: log.act(3, "raise", 300).act(1, "call", 300).show(1, "2h3d"),
        },
    ),
    "R-EXPOSE-17": (
        {
            **{**NO_MORE, "turn": None, "river": None},
            "preflop": lambda log: log.act(3, "raise", 300).act(1, "fold").act(2, "fold"),
        },
        {
            **{**NO_MORE, "flop": None, "turn": None, "river": None},
            "preflop": lambda log: log.act(3, "raise", 300).act(1, "fold").act(2, "fold"),
        },
    ),
    "R-MUCK-13": (
        {
            "deal": KINGS,
            "showdown": lambda log: log.show(3, "AsAd").add("muck", seat=2, by="player"),
        },
        {
            "deal": KINGS,
            "showdown": lambda log: log.show(2, "KdKh").show(3, "AsAd").add("muck", seat=3),
            "push": lambda log: log.award(2, 1020).add("rake", amount=30),
        },
    ),
    "R-MUCK-6": (
        {
            "deal": KINGS,
            "showdown": lambda log: log.show(3, "AsAd").add("muck", seat=2, by="dealer"),
        },
        {
            "deal": KINGS,
            "showdown": lambda log: log.show(3, "AsAd").add("muck", seat=2, by="player"),
        },
    ),
    "R-MUCK-11": (
        {
            "flop": lambda log: log.board("AhKhQh"),
            "turn": lambda log: log.board("Jh"),
            "river": lambda log: log.board("Th"),
            "showdown": lambda log: log.show(3, "AsAd").add("muck", seat=2, by="player"),
        },
        {
            "flop": lambda log: log.board("AhKhQh"),
            "turn": lambda log: log.board("Jh"),
            "river": lambda log: log.board("2c"),
            "showdown": lambda log: log.show(3, "AsAd").add("muck", seat=2, by="player"),
        },
    ),
    "R-MUCK-5": (
        {
            "turn_bets": lambda log: (
                log.add("card", to="seat:2", face="down").act(2, "check").act(3, "check")
            )
        },
        {},
    ),
    "R-MUCK-7": (
        {
            "deal": KINGS,
            "showdown": lambda log: log.show(2, "KdKh").show(3, "AsAd").add("muck", seat=2),
        },
        {},
    ),
    "R-MUCK-8": ({"showdown": lambda log: log.show(2, "7c8c").show(3, "AsAd")}, {}),
    "R-ODD-2": (
        {
            "table": {"rake_cap": 31},
            "deal": deal_with({1: (2, "Ac", "down"), 4: (2, "Ah", "down")}),
            "showdown": lambda log: log.show(2, "AcAh").show(3, "AsAd"),
            "push": lambda log: log.award(3, 510).award(2, 509).add("rake", amount=31),
        },
        {
            "table": {"rake_cap": 31},
            "deal": deal_with({1: (2, "Ac", "down"), 4: (2, "Ah", "down")}),
            "showdown": lambda log: log.show(2, "AcAh").show(3, "AsAd"),
            "push": lambda log: log.award(2, 510).award(3, 509).add("rake", amount=31),
        },
    ),
    "R-POT-2": (
        {"stacks": {1: 1000, 2: 400, 3: 1000}, **_side_pot_hand(main_first=True)},
        {"stacks": {1: 1000, 2: 400, 3: 1000}, **_side_pot_hand(main_first=False)},
    ),
    "R-POT-5": ({"push": lambda log: log.award(3, 1000).add("rake", amount=30)}, {}),
    "R-POT-6": (
        {
            **{**NO_MORE, "turn": None, "river": None},
            "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 200).act(2, "fold"),
            "push": lambda log: log.award(3, 620).award(2, 200).add("rake", amount=30),
        },
        {
            **{**NO_MORE, "turn": None, "river": None},
            "flop_bets": lambda log: log.act(2, "check").act(3, "bet", 200).act(2, "fold"),
            "push": lambda log: log.award(3, 620).award(3, 200, "uncalled").add("rake", amount=30),
        },
    ),
    "R-PREM-1": (
        {"deal": _seq(deal_with({}), lambda log: None), "blinds": None, **NO_MORE},
        {},
    ),
    "R-PREM-2": (
        {**NO_MORE, "preflop": lambda log: log.act(3, "raise", 300).act(1, "fold")},
        {},
    ),
    "R-PREM-3": (
        {"flop_bets": lambda log: log.act(2, "check").act(3, "bet", 200), "turn_bets": None},
        {},
    ),
    "R-PREM-4": ({"turn_bets": lambda log: log.act(2, "check"), "river_bets": None}, {}),
    "R-RAKE-1": ({"push": lambda log: log.award(3, 1010).add("rake", amount=40)}, {}),
    "R-RAKE-2": (
        {
            "table": {"rake_cap": 25},
            "push": lambda log: log.award(3, 1025).add("rake", amount=25),
            "end": lambda log: log.add("tray", counts={"25": 101, "100": 100}).end("h1"),
        },
        {
            "table": {"rake_cap": 25},
            "push": lambda log: log.award(3, 1025).add("rake", amount=25),
            "end": lambda log: log.add("tray", counts={"25": 100, "100": 100}).end("h1"),
        },
    ),
    "R-SHOW-1": (
        {"showdown": None},
        {"showdown": lambda log: log.add("muck", seat=2)},
    ),
    "R-SHOW-2": ({"push": lambda log: log.award(2, 1020).add("rake", amount=30)}, {}),
    "R-TRAY-3": (
        {
            "turn_bets": lambda log: (
                log.add("tray", counts={"25": 100, "100": 96}).act(2, "check").act(3, "check")
            )
        },
        {
            "turn_bets": lambda log: (
                log.add("tray", counts={"25": 100, "100": 100}).act(2, "check").act(3, "check")
            )
        },
    ),
    "R-ALLIN-1": (
        {
            **AFTER_PREFLOP,
            "table": {"house_rules": {"tournament": True}},
            "preflop": _all_in_preflop(shows=False),
            "push": lambda log: log.award(3, 2020).add("rake", amount=30),
        },
        {
            **AFTER_PREFLOP,
            "table": {"house_rules": {"tournament": True}},
            "preflop": _all_in_preflop(shows=True),
            "showdown": lambda log: log.add("muck", seat=2),
            "push": lambda log: log.award(3, 2020).add("rake", amount=30),
        },
    ),
    "R-ALLIN-3": (
        {
            **AFTER_PREFLOP,
            "table": {"house_rules": {"tournament": True}},
            "preflop": _all_in_preflop(shows=False),
            "showdown": lambda log: log.show(3, "AsAd").add("muck", seat=2),
            "push": lambda log: log.award(3, 2020).add("rake", amount=30),
        },
        {
            **AFTER_PREFLOP,
            "table": {"house_rules": {"tournament": True}},
            "preflop": _all_in_preflop(shows=True),
            "showdown": lambda log: log.add("muck", seat=2),
            "push": lambda log: log.award(3, 2020).add("rake", amount=30),
        },
    ),
}


def _premature_deal(log: Log) -> None:
    deal_cards(log, CLEAN_DEAL[:3])
    log.board("Kc9d4h")
    deal_cards(log, CLEAN_DEAL[3:])


CASES["R-PREM-1"] = ({**NO_MORE, "deal": _premature_deal}, {})


def _alerts(kwargs: dict[str, Any]) -> list[tuple[str, str]]:
    result = scenario(**kwargs).run()
    assert not result.errors, result.errors
    return [(a.rule, a.family) for a in result.alerts]


def test_the_clean_hand_raises_nothing() -> None:
    assert _alerts({}) == []


def test_every_implemented_rule_has_a_case() -> None:
    assert sorted(CASES) == sorted(all_rules())


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_trigger(rule_id: str) -> None:
    trigger, _ = CASES[rule_id]
    family = all_rules()[rule_id].family
    assert (rule_id, family) in _alerts(trigger)


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_near_miss(rule_id: str) -> None:
    _, near = CASES[rule_id]
    assert rule_id not in [rule for rule, _ in _alerts(near)]
