"""Who gets what at the end of a hand: uncalled bet, pots, rake and the tabled hands' shares."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.events import TableConfig
from engine.pots import Pot, build_pots, rake_amount, split, take_rake, uncalled_return
from engine.ranking import hand_value


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    """What the hand's ledger and tabled cards say each seat should get."""

    pots: tuple[Pot, ...]
    """After rake."""
    shares: Mapping[str, Mapping[int, int]]
    """Pot name -> seat -> chips; a pot missing here could not be decided (see ``undecided``)."""
    undecided: Mapping[str, str]
    """Pot name -> why its winner cannot be computed from the log."""
    returned: Mapping[int, int]
    """Uncalled bet given back, by seat."""
    rake: int
    awards: Mapping[int, int]
    """Chips each seat wins (returned bets excluded)."""
    finishing_stacks: Mapping[int, int] | None
    """None while any pot is undecided."""


def settle(
    *,
    table: TableConfig,
    button: int,
    committed: Mapping[int, int],
    behind: Mapping[int, int],
    dead_main: int,
    live: Iterable[int],
    mucked: Collection[int],
    board: Sequence[str],
    shown: Mapping[int, tuple[str, ...]],
    rake_taken: bool,
) -> Settlement:
    """Settle a hand from its chip ledger (``committed`` into the pot, ``behind`` left in front
    of each seat) and the hands tabled; a pot nobody eligible tabled for stays undecided."""
    ledger = dict(committed)
    returned_seat, returned = uncalled_return(ledger)
    if returned_seat is not None:
        ledger[returned_seat] -= returned
    live = list(live)
    pots = build_pots(ledger, live, dead_main)
    rake = (
        rake_amount(sum(p.amount for p in pots), table.rake_pct, table.rake_cap)
        if rake_taken
        else 0
    )
    pots = take_rake(pots, rake)
    shares: dict[str, dict[int, int]] = {}
    undecided: dict[str, str] = {}
    for pot in pots:
        winners, why = pot_winners(table, pot, mucked, board, shown)
        if winners:
            shares[pot.name] = split(pot.amount, winners, button, table.seats)
        else:
            undecided[pot.name] = why
    awards: dict[int, int] = {}
    for pot_shares in shares.values():
        for seat, amount in pot_shares.items():
            awards[seat] = awards.get(seat, 0) + amount
    returned_by_seat = {returned_seat: returned} if returned_seat is not None else {}
    finishing = None
    if not undecided:
        finishing = {
            seat: behind[seat] + returned_by_seat.get(seat, 0) + awards.get(seat, 0)
            for seat in committed
        }
    return Settlement(
        pots=tuple(pots),
        shares=shares,
        undecided=undecided,
        returned=returned_by_seat,
        rake=rake,
        awards=awards,
        finishing_stacks=finishing,
    )


def pot_winners(
    table: TableConfig,
    pot: Pot,
    mucked: Collection[int],
    board: Sequence[str],
    shown: Mapping[int, tuple[str, ...]],
) -> tuple[list[int], str]:
    """The seats that win ``pot`` (several on a tie), or none and why it cannot be decided.

    The last live hand wins an uncontested pot whether or not it was thrown in before the push
    (everyone else folded to it). A lone contender wins without showing; otherwise only hands
    tabled in full can win (R-SHOW-1), ranked by eval7 (R-SHOW-3, R-SHOW-4).
    """
    if len(pot.eligible) == 1:
        return list(pot.eligible), ""
    contenders = [s for s in pot.eligible if s not in mucked]
    if len(contenders) == 1:
        return contenders, ""
    if not contenders:
        return [], "every eligible hand was mucked"
    if len(board) < 5:
        return [], f"the board has {len(board)} cards"
    needed = table.game.hole_card_count
    tabled = [s for s in contenders if len(shown.get(s, ())) == needed]
    if not tabled:
        return [], "no eligible hand was tabled"
    values = {s: hand_value(table.game, shown[s], board) for s in tabled}
    best = max(values.values())
    return [s for s in tabled if values[s] == best], ""
