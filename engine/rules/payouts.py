"""Pots pushed against the pots computed: amounts, winners, odd chips, rake, order.

One analysis per hand explains every seat's difference between chips pushed and chips due once:
an uncalled bet pushed to the wrong seat (R-POT-6), a pot pushed to a seat that does not win it
(R-SHOW-2, or R-SHOW-1 when that seat never tabled its cards), an odd chip to the wrong tied seat
(R-ODD-2), extra rake (R-RAKE-1); whatever is left is a plain miscount (R-POT-5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from engine.alerts import Severity
from engine.pots import split
from engine.rules.registry import Finding, Found, rule

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.settlement import Settlement


@dataclass(slots=True)
class PayoutAnalysis:
    uncalled: list[Finding] = field(default_factory=list)
    wrong_winner: list[Finding] = field(default_factory=list)
    untabled_winner: list[Finding] = field(default_factory=list)
    odd_chip: list[Finding] = field(default_factory=list)
    rake: list[Finding] = field(default_factory=list)
    miscount: list[Finding] = field(default_factory=list)


def analyse(hand: Hand, s: Settlement) -> PayoutAnalysis:
    """The analysis of this hand's payouts, made once and shared by the rules below."""
    cached = hand.memo.get("payouts")
    if not isinstance(cached, PayoutAnalysis):
        cached = hand.memo["payouts"] = _analyse(hand, s)
    return cached


def _award_seqs(hand: Hand, seat: int) -> tuple[int, ...]:
    return tuple(a.seq for a in hand.record.awards if a.seat == seat)


def _analyse(hand: Hand, s: Settlement) -> PayoutAnalysis:
    out = PayoutAnalysis()
    awards = hand.record.awards
    rake_taken = hand.observed_rake
    if rake_taken is not None and not s.undecided and rake_taken != s.rake:
        evidence = tuple(r.seq for r in hand.record.rakes)
        out.rake.append(
            Finding(
                message=f"rake taken {rake_taken}, computed {s.rake} ({hand.table.rake_pct}% "
                f"capped at {hand.table.rake_cap or 'no cap'})",
                amounts={"taken": rake_taken, "computed": s.rake},
                evidence=evidence,
            )
        )
    if not awards:
        return out
    got: dict[int, int] = {}
    for award in awards:
        got[award.seat] = got.get(award.seat, 0) + award.amount
    if s.undecided:
        _untabled_pushes(hand, s, got, out)
        return out
    handed_back: dict[int, int] = {}
    for award in hand.record.returns:
        handed_back[award.seat] = handed_back.get(award.seat, 0) + award.amount
    diff: dict[int, int] = {}
    for seat in sorted(set(got) | set(s.awards)):
        d = got.get(seat, 0) - s.awards.get(seat, 0)
        back = s.returned.get(seat, 0)
        if back and d in (0, back):
            d = 0  # the uncalled bet came back to its owner, or was left where it lay
        elif back and handed_back.get(seat) == back:
            d -= back  # it came back on its own: the rest is what the pots gave
        if d:
            diff[seat] = d
    # The uncalled bet pushed to another seat.
    for owner, amount in s.returned.items():
        for seat, d in list(diff.items()):
            if seat != owner and d == amount:
                out.uncalled.append(
                    Finding(
                        message=f"seat {owner}'s uncalled bet of {amount} was pushed to seat "
                        f"{seat} instead of going back to seat {owner}",
                        seats=(owner, seat),
                        amounts={"uncalled": amount},
                        evidence=_award_seqs(hand, seat),
                    )
                )
                del diff[seat]
                if diff.get(owner) == -amount:
                    del diff[owner]  # the owner is short by the same bet: one irregularity
                break
    # Extra rake taken out of the winners' chips.
    if rake_taken is not None and rake_taken > s.rake:
        short = {seat: -d for seat, d in diff.items() if d < 0}
        if sum(short.values()) == rake_taken - s.rake and out.rake:
            for seat in short:
                del diff[seat]
            out.rake[0] = Finding(
                message=out.rake[0].message + f"; the winners were paid {rake_taken - s.rake} less",
                seats=tuple(short),
                amounts=out.rake[0].amounts,
                evidence=out.rake[0].evidence,
            )
    _wrong_winners(hand, s, diff, out)
    _odd_chips(hand, s, diff, out)
    for seat, d in sorted(diff.items()):
        pots = ", ".join(
            f"{name} {shares[seat]}" for name, shares in s.shares.items() if seat in shares
        )
        due = s.awards.get(seat, 0)
        out.miscount.append(
            Finding(
                message=f"seat {seat} was pushed {due + d}, computed {due}"
                + (f" ({pots})" if pots else ""),
                seats=(seat,),
                amounts={"pushed": due + d, "computed": due, "difference": d},
                evidence=_award_seqs(hand, seat) or (hand.last_seq,),
                severity=Severity.CRITICAL,
            )
        )
    return out


def _tabled(hand: Hand, seat: int) -> bool:
    return len(hand.shown.get(seat, ())) == hand.table.game.hole_card_count


def _wrong_winners(hand: Hand, s: Settlement, diff: dict[int, int], out: PayoutAnalysis) -> None:
    """Chips pushed to a seat that wins nothing, while a winner is short the same amount."""
    takers = [seat for seat, d in diff.items() if d > 0 and not s.awards.get(seat)]
    for taker in takers:
        amount = diff[taker]
        short = [seat for seat, d in diff.items() if d < 0]
        if -sum(diff[seat] for seat in short) != amount:
            continue
        winners = ", ".join(str(seat) for seat in short)
        untabled = taker not in hand.folded and not _tabled(hand, taker)
        bucket = out.untabled_winner if untabled else out.wrong_winner
        why = "never tabled its cards" if untabled else "does not win it"
        bucket.append(
            Finding(
                message=f"{amount} pushed to seat {taker}, which {why}; seat {winners} wins it",
                seats=(taker, *short),
                cards=tuple(hand.shown.get(taker, ())),
                amounts={"pushed": amount},
                evidence=_award_seqs(hand, taker),
                severity=Severity.CRITICAL,
            )
        )
        for seat in (taker, *short):
            del diff[seat]


def _odd_chips(hand: Hand, s: Settlement, diff: dict[int, int], out: PayoutAnalysis) -> None:
    """A split pot paid right in total but with its odd chip(s) to the wrong tied seat."""
    for name, shares in s.shares.items():
        tied = list(shares)
        moved = {seat: diff.get(seat, 0) for seat in tied}
        changes = [d for d in moved.values() if d]
        balanced = len(changes) >= 2 and all(abs(d) == 1 for d in changes)
        if len(tied) < 2 or not balanced or changes.count(1) != changes.count(-1):
            continue
        right = split(sum(shares.values()), tied, hand.button, hand.table.seats)
        first = [seat for seat in right if right[seat] > min(right.values())]
        out.odd_chip.append(
            Finding(
                message=f"the odd chip of the split {name} pot went to seat "
                f"{', '.join(str(s_) for s_, d in moved.items() if d > 0)}; it belongs to seat "
                f"{', '.join(map(str, first))}, first left of the button",
                seats=tuple(seat for seat in tied if moved[seat]),
                evidence=tuple(a.seq for a in hand.record.awards if a.seat in tied),
            )
        )
        for seat in tied:
            diff.pop(seat, None)


def _untabled_pushes(hand: Hand, s: Settlement, got: dict[int, int], out: PayoutAnalysis) -> None:
    """Contested pots nobody tabled for: any push goes to a hand that was never shown."""
    for seat, amount in sorted(got.items()):
        if amount and not _tabled(hand, seat) and seat not in hand.folded:
            out.untabled_winner.append(
                Finding(
                    message=f"{amount} pushed to seat {seat}, which never tabled its cards "
                    f"(pot {', '.join(s.undecided)} contested)",
                    seats=(seat,),
                    amounts={"pushed": amount},
                    evidence=_award_seqs(hand, seat),
                    severity=Severity.CRITICAL,
                )
            )


@rule("R-POT-5", hook="end", severity=Severity.CRITICAL)
def award_amounts(hand: Hand, s: Settlement) -> Found:
    """Chips pushed to a seat that differ from its computed share of the pots."""
    return tuple(analyse(hand, s).miscount)


@rule("R-POT-6", hook="end", severity=Severity.CRITICAL)
def uncalled_bet(hand: Hand, s: Settlement) -> Found:
    """An uncalled bet that went into the pot instead of back to its owner."""
    return tuple(analyse(hand, s).uncalled)


@rule("R-SHOW-2", hook="end", severity=Severity.CRITICAL)
def wrong_winner(hand: Hand, s: Settlement) -> Found:
    """Cards speak: a pot pushed to a tabled hand that does not win it."""
    return tuple(analyse(hand, s).wrong_winner)


@rule("R-SHOW-1", hook="end", severity=Severity.CRITICAL)
def untabled_winner(hand: Hand, s: Settlement) -> Found:
    """A contested pot pushed to a seat that did not table all its cards."""
    return tuple(analyse(hand, s).untabled_winner)


@rule("R-ODD-2", hook="end")
def odd_chip(hand: Hand, s: Settlement) -> Found:
    """The odd chip of a split pot to another seat than the first tied seat left of the button."""
    return tuple(analyse(hand, s).odd_chip)


@rule("R-RAKE-1", hook="end", switches=("no_flop_no_drop",))
def rake(hand: Hand, s: Settlement) -> Found:
    """Rake taken that is not the table's percent of the pot, within its cap."""
    return tuple(analyse(hand, s).rake)


@rule("R-POT-2", hook="end")
def award_order(hand: Hand, s: Settlement) -> Found:
    """Side pots are awarded before the main pot, top side pot first."""
    order = {pot.name: i for i, pot in enumerate(s.pots)}
    labelled = [a for a in hand.record.pushes if a.pot in order]
    for earlier, later in pairwise(labelled):
        if order[later.pot] > order[earlier.pot]:
            return (
                Finding(
                    message=f"the {earlier.pot} pot was pushed before the {later.pot} pot; side "
                    "pots go first, the main pot last",
                    seats=(earlier.seat, later.seat),
                    evidence=(earlier.seq, later.seq),
                ),
            )
    return ()
