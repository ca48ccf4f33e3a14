"""The current state of a hand for the live table page, folded from its event-log lines: seats
with stacks, cards (as seen; a face-down card known from the shoe's read is marked ``*``), bets
of the street, folds; the board; the pot. Display only: judging the hand is the engine's work."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.zones import Place, zone_of

STREET_AFTER_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


def hand_view(
    events: Iterable[Mapping[str, Any]], table: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    seats: dict[int, dict[str, Any]] = {}
    board: list[str] = []
    drawn: list[str] = []
    pot = 0
    out: dict[str, Any] = {"hand": None, "button": None, "ended": False}
    if table:
        out["blinds"] = {k: table.get(k) for k in ("sb", "bb", "ante", "bb_ante")}
        out["game"] = table.get("game")

    def seat(n: int) -> dict[str, Any]:
        return seats.setdefault(
            n, {"seat": n, "stack": 0, "bet": 0, "cards": [], "folded": False, "shown": False}
        )

    def bet(n: int, to: int) -> None:
        nonlocal pot
        s = seat(n)
        more = max(0, to - s["bet"])
        s["bet"] = to
        s["stack"] -= more
        pot += more

    for e in events:
        kind = e.get("type")
        if kind == "hand_start":
            out.update(hand=e.get("hand"), button=e.get("button"))
            for n, stack in dict(e.get("stacks") or {}).items():
                seat(int(n))["stack"] = int(stack)
        elif kind in ("blind", "ante"):
            s = seat(int(e["seat"]))
            bet(int(e["seat"]), s["bet"] + int(e["amount"]))
        elif kind == "action":
            s = seat(int(e["seat"]))
            if e.get("action") == "fold":
                s["folded"] = True
            elif e.get("action") == "allin":
                bet(int(e["seat"]), s["bet"] + s["stack"])
            elif e.get("to") is not None:
                bet(int(e["seat"]), int(e["to"]))
        elif kind == "shoe_draw":
            drawn.append(str(e.get("card")))
        elif kind == "card":
            to = str(e.get("to", ""))
            # A face-down card is known to surveillance from the shoe's read, in draw order.
            known = drawn.pop(0) if drawn and to != "shoe" else None
            to_seat = zone_of(to).seat_of(Place.SEAT)
            if to_seat is not None:
                seat(to_seat)["cards"].append(e.get("card") or (known and known + "*") or "??")
            elif to == "board" and e.get("card"):
                board.append(str(e["card"]))
                for s in seats.values():
                    s["bet"] = 0
        elif kind == "show":
            s = seat(int(e["seat"]))
            s["cards"], s["shown"] = list(e.get("cards") or []), True
        elif kind == "muck":
            seat(int(e["seat"]))["folded"] = True
        elif kind == "award":
            seat(int(e["seat"]))["stack"] += int(e["amount"])
            pot -= int(e["amount"])
        elif kind == "rake":
            pot -= int(e["amount"])
        elif kind == "hand_end":
            out["ended"] = True
    out.update(
        seats=[seats[n] for n in sorted(seats)],
        board=board,
        pot=max(pot, 0),
        street=STREET_AFTER_BOARD.get(len(board), "?"),
    )
    return out
