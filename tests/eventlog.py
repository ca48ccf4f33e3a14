"""Build table event logs for tests, line by line, and run them through the real reader."""

from __future__ import annotations

import io
import json
from typing import Any

from engine import codec
from engine.hand import HandReport
from engine.session import CheckResult, check

SHARED = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared"


class Log:
    def __init__(self, **table: Any) -> None:
        self.lines: list[dict[str, Any]] = []
        config = {"table": "T1", "game": "NLHE", "seats": 6, "sb": 50, "bb": 100} | table
        self.add("table", **config)

    def add(self, type: str, **fields: Any) -> Log:
        seq = len(self.lines) + 1
        self.lines.append({"type": type, "seq": seq, "ts_ms": seq * 250, **fields})
        return self

    @property
    def last_seq(self) -> int:
        return len(self.lines)

    def hand(self, hand: str, button: int, stacks: dict[int, int]) -> Log:
        return self.add(
            "hand_start", hand=hand, button=button, stacks={str(k): v for k, v in stacks.items()}
        )

    def blinds(self, *posts: tuple[int, int]) -> Log:
        for seat, amount in posts:
            self.add("blind", seat=seat, amount=amount)
        return self

    def deal(self, hands: dict[int, str]) -> Log:
        """Hole cards one at a time, clockwise in the order given, each read by the shoe."""
        split = {seat: [c[i : i + 2] for i in range(0, len(c), 2)] for seat, c in hands.items()}
        for k in range(max(len(cards) for cards in split.values())):
            for seat, cards in split.items():
                self.add("shoe_draw", card=cards[k], shoe_seq=self.last_seq)
                self.add("card", to=f"seat:{seat}", face="down", card=None)
        return self

    def board(self, cards: str, *, burn: bool = True) -> Log:
        """One street of board cards, after a burn card (face down, identity unread)."""
        if burn:
            self.add("card", to="burn", face="down", card=None)
        for i in range(0, len(cards), 2):
            card = cards[i : i + 2]
            self.add("shoe_draw", card=card, shoe_seq=self.last_seq)
            self.add("card", to="board", face="up", card=card)
        return self

    def check_down(self, board: str, order: tuple[int, ...]) -> Log:
        """Deal flop, turn and river with every seat in ``order`` checking each street."""
        for street in (board[:6], board[6:8], board[8:10]):
            self.board(street)
            for seat in order:
                self.act(seat, "check")
        return self

    def act(self, seat: int, action: str, to: int | None = None) -> Log:
        fields: dict[str, Any] = {"seat": seat, "action": action}
        if to is not None:
            fields["to"] = to
        return self.add("action", **fields)

    def show(self, seat: int, cards: str) -> Log:
        return self.add("show", seat=seat, cards=cards)

    def award(self, seat: int, amount: int, pot: str = "main") -> Log:
        return self.add("award", seat=seat, amount=amount, pot=pot)

    def end(self, hand: str) -> Log:
        return self.add("hand_end", hand=hand)

    def text(self) -> str:
        return "".join(json.dumps(line) + "\n" for line in self.lines)

    def run(self) -> CheckResult:
        return check(codec.iter_lines("test.jsonl", io.StringIO(self.text())), "test.jsonl")

    def report(self) -> HandReport:
        result = self.run()
        assert not result.errors, result.errors
        assert len(result.hands) == 1
        return result.hands[0]


def rules(report: HandReport) -> list[str]:
    return [alert.rule for alert in report.alerts]
