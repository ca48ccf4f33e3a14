"""The hand state machine: one hold'em (or Omaha) hand from ``hand_start`` to ``hand_end``.

It follows the events of one hand as they happened, keeps the betting state (whose turn, amount
to call, minimum and maximum raise, who may still raise), the chip ledger and the cards, and
raises an alert for every impossible step instead of stopping: the chips that moved are always
booked, so pots and payouts stay right even after an irregular action. Input that cannot be
applied at all (a seat not in the hand, a card dealt twice) raises ``EventError``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum

from engine.alerts import Alert, Family, Severity
from engine.errors import EventError
from engine.events import (
    Action,
    ActionKind,
    Ante,
    Award,
    Blind,
    CardSeen,
    Event,
    Face,
    HandStart,
    Muck,
    Rake,
    ShoeDraw,
    Show,
    TableConfig,
    TrayCount,
)
from engine.settlement import Settlement, settle


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


BOARD_SIZE_AT = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}


@dataclass(frozen=True, slots=True, kw_only=True)
class HandReport:
    table: str
    hand: str
    complete: bool
    """The log had the ``hand_end`` of this hand."""
    starting_stacks: Mapping[int, int]
    board: tuple[str, ...]
    shown: Mapping[int, tuple[str, ...]]
    settlement: Settlement
    observed_awards: Mapping[int, int] | None
    """Sum of ``award`` events by seat; None when the log has none."""
    observed_rake: int | None
    alerts: tuple[Alert, ...]


class Hand:
    """Mutable state of the hand being played; ``finish`` turns it into a ``HandReport``."""

    def __init__(self, table: TableConfig, start: HandStart) -> None:
        for seat in start.stacks:
            if seat > table.seats:
                raise EventError(
                    f"stacks.{seat}", f"seat {seat} does not exist at a {table.seats}-seat table"
                )
        if start.button > table.seats:
            raise EventError(
                "button", f"seat {start.button} does not exist at a {table.seats}-seat table"
            )
        if len(start.stacks) < 2:
            raise EventError("stacks", "a hand needs at least two seats")
        self.table = table
        self.hand = start.hand
        self.button = start.button
        self.seats: tuple[int, ...] = tuple(sorted(start.stacks))
        self._clockwise: dict[int, list[int]] = {}
        self.starting_stacks = dict(start.stacks)
        self.stacks = dict(start.stacks)
        self.committed = dict.fromkeys(self.seats, 0)
        self.dead_main = 0
        self.folded: set[int] = set()
        self.mucked: set[int] = set()
        self.all_in: set[int] = set()
        self.street = Street.PREFLOP
        self.street_bets = dict.fromkeys(self.seats, 0)
        self.acted_at: dict[int, int | None] = dict.fromkeys(self.seats)
        self.current_bet = 0
        self.min_raise = table.bb
        self.limit_bets = 0
        self.round_open = True
        self.actions_started = False
        self.to_act: int | None = None
        self.flow_next: int | None = None
        self.blinds: list[tuple[int, int]] = []
        self.board: list[str] = []
        self.hole: dict[int, list[str | None]] = {seat: [] for seat in self.seats}
        self.shown: dict[int, tuple[str, ...]] = {}
        self.pending_draws: deque[tuple[str, int]] = deque()
        self.card_at: dict[str, str] = {}
        self.awards: list[Award] = []
        self.observed_rake: int | None = None
        self.alerts: list[Alert] = []
        self._handlers: dict[type[Event], Callable[[Event], None]] = {
            Ante: self._on_ante,  # type: ignore[dict-item]
            Blind: self._on_blind,  # type: ignore[dict-item]
            Action: self._on_action,  # type: ignore[dict-item]
            ShoeDraw: self._on_shoe_draw,  # type: ignore[dict-item]
            CardSeen: self._on_card,  # type: ignore[dict-item]
            Show: self._on_show,  # type: ignore[dict-item]
            Muck: self._on_muck,  # type: ignore[dict-item]
            Award: self.awards.append,  # type: ignore[dict-item]
            Rake: self._on_rake,  # type: ignore[dict-item]
            TrayCount: lambda event: None,
        }

    # --- entry points ----------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        handler = self._handlers.get(type(event))
        if handler is None:
            raise EventError("type", f"a {event.TYPE} event cannot appear inside a hand")
        handler(event)

    def next_actor(self) -> int | None:
        """The seat whose turn it is, or None while no betting round is open."""
        self._open_round()
        return self.to_act if self.round_open else None

    def finish(self, *, complete: bool, seq: int) -> HandReport:
        settlement = self._settle()
        observed: dict[int, int] | None = None
        if self.awards:
            observed = {}
            for award in self.awards:
                observed[award.seat] = observed.get(award.seat, 0) + award.amount
            self._check_awards(settlement, observed, seq)
        rake = self.observed_rake
        if rake is not None and not settlement.undecided and rake != settlement.rake:
            self._alert(
                seq,
                "R-RAKE-1",
                Family.CHIP_MISCOUNT,
                None,
                f"rake taken {rake}, computed {settlement.rake} "
                f"({self.table.rake_pct}% capped at {self.table.rake_cap or 'no cap'})",
            )
        return HandReport(
            table=self.table.table,
            hand=self.hand,
            complete=complete,
            starting_stacks=self.starting_stacks,
            board=tuple(self.board),
            shown=dict(self.shown),
            settlement=settlement,
            observed_awards=observed,
            observed_rake=self.observed_rake,
            alerts=tuple(self.alerts),
        )

    # --- helpers ---------------------------------------------------------------------------

    def _alert(
        self,
        seq: int,
        rule: str,
        family: Family,
        seat: int | None,
        message: str,
        severity: Severity = Severity.WARNING,
    ) -> None:
        self.alerts.append(
            Alert(
                hand=self.hand,
                seq=seq,
                rule=rule,
                family=family,
                severity=severity,
                seat=seat,
                message=message,
            )
        )

    def _require_seat(self, seat: int, field: str = "seat") -> None:
        if seat not in self.committed:
            raise EventError(field, f"seat {seat} is not in hand {self.hand}")

    def _commit(self, seat: int, amount: int, seq: int) -> int:
        """Move ``amount`` from the seat's stack into the pot; never more than the stack."""
        stack = self.stacks[seat]
        if amount > stack:
            self._alert(
                seq,
                "R-BET-23",
                Family.CHIP_MISCOUNT,
                seat,
                f"seat {seat} put in {amount} but had only {stack} behind (table stakes)",
            )
            amount = stack
        self.stacks[seat] = stack - amount
        self.committed[seat] += amount
        if self.stacks[seat] == 0:
            self.all_in.add(seat)
        return amount

    def clockwise_from(self, seat: int) -> list[int]:
        """Seats in the hand in clockwise order, starting with the first one after ``seat``."""
        order = self._clockwise.get(seat)
        if order is None:
            order = sorted(self.seats, key=lambda s: (s - seat - 1) % self.table.seats)
            self._clockwise[seat] = order
        return order

    def _live(self) -> list[int]:
        return [s for s in self.seats if s not in self.folded]

    def _active(self) -> list[int]:
        return [s for s in self.seats if s not in self.folded and s not in self.all_in]

    # --- forced bets -----------------------------------------------------------------------

    def _forced_amount_alert(
        self, seat: int, amount: int, expected: tuple[int, ...], what: str, seq: int
    ) -> None:
        if amount not in expected and amount != self.stacks[seat]:
            wanted = " or ".join(str(e) for e in expected)
            self._alert(
                seq,
                "R-BLIND-2",
                Family.CHIP_MISCOUNT,
                seat,
                f"seat {seat} posted a {what} of {amount}; the level says {wanted}",
            )

    def _on_ante(self, event: Ante) -> None:
        self._require_seat(event.seat)
        if self.table.bb_ante:
            self._forced_amount_alert(
                event.seat, event.amount, (self.table.bb_ante,), "ante", event.seq
            )
            # A big-blind ante is dead money in the main pot, not a bet anyone matches.
            paid = min(event.amount, self.stacks[event.seat])
            self.stacks[event.seat] -= paid
            self.dead_main += paid
            if self.stacks[event.seat] == 0:
                self.all_in.add(event.seat)
        else:
            self._forced_amount_alert(
                event.seat, event.amount, (self.table.ante,), "ante", event.seq
            )
            self._commit(event.seat, event.amount, event.seq)

    def _on_blind(self, event: Blind) -> None:
        self._require_seat(event.seat)
        if self.actions_started or self.street is not Street.PREFLOP:
            self._alert(
                event.seq,
                "R-BLIND-1",
                Family.BLINDS,
                event.seat,
                f"seat {event.seat} posted a blind after the betting started",
            )
        self._forced_amount_alert(
            event.seat, event.amount, (self.table.sb, self.table.bb), "blind", event.seq
        )
        paid = self._commit(event.seat, event.amount, event.seq)
        self.street_bets[event.seat] += paid
        self.blinds.append((event.seat, self.street_bets[event.seat]))
        # Blinds are live bets; the level's big blind is the bet to call even when it is short.
        self.current_bet = max(self.current_bet, self.street_bets[event.seat], self.table.bb)
        self.limit_bets = 1

    # --- betting ---------------------------------------------------------------------------

    def _bb_seat(self) -> int:
        if not self.blinds:
            return self.button
        top = max(amount for _, amount in self.blinds)
        posters = {seat for seat, amount in self.blinds if amount == top}
        return [s for s in self.clockwise_from(self.button) if s in posters][-1]

    def _needs_action(self, seat: int, active_count: int) -> bool:
        if seat in self.folded or seat in self.all_in:
            return False
        behind = self.street_bets[seat] < self.current_bet
        if active_count <= 1:
            return behind
        return behind or self.acted_at[seat] is None

    def _next_to_act(self, after: int, *, first: int | None = None) -> int | None:
        """The next seat that must act after ``after`` (``first``, if given, is asked first)."""
        if len(self._live()) <= 1:
            return None
        active_count = len(self._active())
        order = self.clockwise_from(after)
        if first is not None:
            order = [first, *(s for s in order if s != first)]
        for seat in order:
            if self._needs_action(seat, active_count):
                return seat
        return None

    def _open_round(self) -> None:
        if not self.actions_started and self.street is Street.PREFLOP:
            self.to_act = self.flow_next = self._next_to_act(self._bb_seat())
        self.actions_started = True

    def _close_round_if_done(self, after: int, *, skipped: int | None = None) -> None:
        self.to_act = self._next_to_act(after, first=skipped)
        # After an action out of turn the skipped seat still owes its action, but the seats that
        # follow the out-of-turn actor in clockwise order are not out of turn once more.
        self.flow_next = self._next_to_act(after) if skipped is not None else self.to_act
        if self.to_act is None:
            self.round_open = False

    def _bet_size(self) -> int:
        """Fixed limit: small bet pre-flop and on the flop, big bet on the turn and river."""
        return self.table.bb if self.street <= Street.FLOP else 2 * self.table.bb

    def _on_action(self, event: Action) -> None:
        seat = event.seat
        self._require_seat(seat)
        if seat in self.folded:
            self._alert(
                event.seq,
                "R-BET-17",
                Family.SEQUENCE,
                seat,
                f"seat {seat} acted ({event.action}) after folding",
            )
            return
        if seat in self.all_in:
            self._alert(
                event.seq,
                "R-BET-17",
                Family.SEQUENCE,
                seat,
                f"seat {seat} acted ({event.action}) while all-in",
            )
            return
        self._open_round()
        if not self.round_open:
            self._alert(
                event.seq,
                "R-BET-17",
                Family.SEQUENCE,
                seat,
                f"seat {seat} acted ({event.action}) after the {self.street.name.lower()} "
                "betting was over",
            )
        skipped = None
        if self.round_open and self.to_act != seat:
            skipped = self.to_act  # still owes its action: the turn stays with it
        if skipped is not None and self.flow_next != seat:
            self._alert(
                event.seq,
                "R-BET-17",
                Family.OUT_OF_TURN,
                seat,
                f"seat {seat} acted ({event.action}) out of turn: seat {self.to_act} was to act",
            )
        my_bet = self.street_bets[seat]
        all_in_to = my_bet + self.stacks[seat]
        kind = event.action
        to = event.to
        if kind is ActionKind.FOLD:
            self.folded.add(seat)
        elif kind is ActionKind.CHECK:
            if self.current_bet > my_bet:
                self._alert(
                    event.seq,
                    "R-BET-5",
                    Family.CHIP_MISCOUNT,
                    seat,
                    f"seat {seat} checked facing a bet of {self.current_bet}",
                )
        else:
            if kind is ActionKind.ALLIN:
                if to is not None and to != all_in_to:
                    self._alert(
                        event.seq,
                        "R-BET-23",
                        Family.CHIP_MISCOUNT,
                        seat,
                        f"seat {seat} went all-in to {to} but had {all_in_to} in total",
                    )
                to = all_in_to if to is None else min(to, all_in_to)
            elif to is None:  # a call with the amount implied
                to = min(self.current_bet, all_in_to)
            if to > all_in_to:
                self._commit(seat, to - my_bet, event.seq)  # alerts and caps at the stack
                to = all_in_to
            elif to > self.current_bet:
                self._raise(event, to, all_in=to == all_in_to)
            else:
                self._call(event, to, all_in=to == all_in_to)
        self.acted_at[seat] = self.current_bet
        if self.round_open:
            self._close_round_if_done(seat, skipped=skipped)

    def _call(self, event: Action, to: int, *, all_in: bool) -> None:
        seat = event.seat
        my_bet = self.street_bets[seat]
        if to < self.current_bet and not all_in:
            self._alert(
                event.seq,
                "R-BET-5",
                Family.CHIP_MISCOUNT,
                seat,
                f"seat {seat} {event.action} to {to} but the bet to call is {self.current_bet}",
            )
        elif to == my_bet and self.current_bet > my_bet:
            self._alert(
                event.seq,
                "R-BET-5",
                Family.CHIP_MISCOUNT,
                seat,
                f"seat {seat} called without putting chips in (bet to call {self.current_bet})",
            )
        if to > my_bet:
            self.street_bets[seat] += self._commit(seat, to - my_bet, event.seq)

    def _raise(self, event: Action, to: int, *, all_in: bool) -> None:
        seat = event.seat
        table = self.table
        increment = to - self.current_bet
        opening = self.current_bet == 0
        what = "bet" if opening else "raise"
        if table.game.is_fixed_limit:
            size = self._bet_size()
            full = 2 * increment >= size
            if to != self.current_bet + size and not (all_in and to < self.current_bet + size):
                self._alert(
                    event.seq,
                    "R-BET-19",
                    Family.BET_SIZING,
                    seat,
                    f"seat {seat} made a fixed-limit {what} to {to}; "
                    f"the limit is {self.current_bet + size}",
                )
            heads_up = len(self._live()) == 2 and not table.house_rules.fl_cap_heads_up
            if full and self.limit_bets >= table.house_rules.fl_max_bets and not heads_up:
                self._alert(
                    event.seq,
                    "R-BET-19",
                    Family.BET_SIZING,
                    seat,
                    f"seat {seat} raised after the cap of {table.house_rules.fl_max_bets} bets",
                )
            reopen_threshold = (size + 1) // 2
        else:
            full = increment >= self.min_raise
            if not full and not all_in:
                rule, minimum = ("R-BET-1", table.bb) if opening else ("R-BET-2", None)
                least = self.current_bet + self.min_raise if minimum is None else minimum
                self._alert(
                    event.seq,
                    rule,
                    Family.BET_SIZING,
                    seat,
                    f"seat {seat} made a {what} to {to}, below the minimum of {least}",
                )
            if table.game.is_pot_limit:
                pot = sum(self.committed.values()) + self.dead_main
                my_bet = self.street_bets[seat]
                maximum = self.current_bet + pot + (self.current_bet - my_bet)
                if to > maximum:
                    self._alert(
                        event.seq,
                        "R-BET-7",
                        Family.BET_SIZING,
                        seat,
                        f"seat {seat} made a pot-limit {what} to {to}, above the pot limit of "
                        f"{maximum}",
                    )
            reopen_threshold = self.min_raise
        acted_at = self.acted_at[seat]
        if acted_at is not None and self.current_bet - acted_at < reopen_threshold:
            self._alert(
                event.seq,
                "R-BET-6",
                Family.BET_SIZING,
                seat,
                f"seat {seat} raised, but the betting was not reopened to it (it faced "
                f"{self.current_bet - acted_at} more since it acted, less than a full raise)",
            )
        if full:
            self.limit_bets += 1
            if not table.game.is_fixed_limit:
                self.min_raise = increment
        self.street_bets[seat] += self._commit(seat, to - self.street_bets[seat], event.seq)
        self.current_bet = max(self.current_bet, self.street_bets[seat])

    # --- cards -----------------------------------------------------------------------------

    def _place(self, card: str, where: str, field: str, seq: int) -> None:
        """Record where a card is; the same card in two places of one hand is impossible."""
        seen = self.card_at.get(card)
        if seen is not None and seen != where:
            raise EventError(field, f"duplicate card {card}: already at {seen} in this hand")
        self.card_at[card] = where

    def _on_shoe_draw(self, event: ShoeDraw) -> None:
        if any(card == event.card for card, _ in self.pending_draws) or (
            event.card in self.card_at
        ):
            raise EventError("card", f"duplicate card {event.card}: the shoe already dealt it")
        self.pending_draws.append((event.card, event.seq))

    def _next_draw(self) -> str | None:
        return self.pending_draws.popleft()[0] if self.pending_draws else None

    def _on_card(self, event: CardSeen) -> None:
        seat = event.to_seat
        if seat is not None:
            self._require_seat(seat, "to")
            identity = self._next_draw()
            if event.face is Face.UP and event.card is not None:
                identity = event.card
            if identity is not None:
                self._place(identity, event.to, "card", event.seq)
            self.hole[seat].append(identity)
        elif event.to == "board":
            identity = self._next_draw()
            if event.card is not None:
                identity = event.card
            if identity is None:
                raise EventError(
                    "card", "a board card needs its identity (face up or from the shoe)"
                )
            self._place(identity, "board", "card", event.seq)
            self._deal_board(identity, event.seq)
        elif event.to == "burn":
            identity = self._next_draw()
            if identity is not None:
                self._place(identity, "burn", "card", event.seq)
        # muck / off_table / shoe: a card moving there is for the rules; no betting effect.

    def _deal_board(self, card: str, seq: int) -> None:
        if self.round_open and len(self._live()) > 1 and len(self.board) in (0, 3, 4):
            self._open_round()
            if self.to_act is not None:
                self._alert(
                    seq,
                    "R-PREM-1",
                    Family.PREMATURE_CARD,
                    None,
                    f"board card {card} dealt before the {self.street.name.lower()} betting "
                    f"was complete (seat {self.to_act} still to act)",
                )
        self.board.append(card)
        for street, size in BOARD_SIZE_AT.items():
            if len(self.board) == size:
                self._start_street(street)

    def _start_street(self, street: Street) -> None:
        self.street = street
        self.street_bets = dict.fromkeys(self.seats, 0)
        self.acted_at = dict.fromkeys(self.seats)
        self.current_bet = 0
        self.min_raise = self.table.bb
        self.limit_bets = 0
        self.actions_started = True
        self.round_open = True
        self._close_round_if_done(self.button)

    def _on_show(self, event: Show) -> None:
        self._require_seat(event.seat)
        where = f"seat:{event.seat}"
        for card in event.cards:
            self._place(card, where, "cards", event.seq)
        self.shown[event.seat] = event.cards

    def _on_muck(self, event: Muck) -> None:
        self._require_seat(event.seat)
        self.mucked.add(event.seat)
        if event.seat not in self.folded and self.round_open:
            self.folded.add(event.seat)
            self.acted_at[event.seat] = self.current_bet
            self._close_round_if_done(event.seat)

    def _on_rake(self, event: Rake) -> None:
        self.observed_rake = (self.observed_rake or 0) + event.amount

    # --- settlement ------------------------------------------------------------------------

    def _settle(self) -> Settlement:
        flop_seen = len(self.board) >= 3
        return settle(
            table=self.table,
            button=self.button,
            committed=self.committed,
            behind=self.stacks,
            dead_main=self.dead_main,
            live=self._live(),
            mucked=self.mucked,
            board=self.board,
            shown=self.shown,
            rake_taken=flop_seen or not self.table.house_rules.no_flop_no_drop,
        )

    def _check_awards(self, settlement: Settlement, observed: Mapping[int, int], seq: int) -> None:
        if settlement.undecided:
            return
        last_seq = {award.seat: award.seq for award in self.awards}
        for seat in sorted(set(observed) | set(settlement.awards)):
            got = observed.get(seat, 0)
            due = settlement.awards.get(seat, 0)
            if got == due or got == due + settlement.returned.get(seat, 0):
                continue
            pots = ", ".join(
                f"{name} {shares[seat]}"
                for name, shares in settlement.shares.items()
                if seat in shares
            )
            self._alert(
                last_seq.get(seat, seq),
                "R-POT-5",
                Family.CHIP_MISCOUNT,
                seat,
                f"seat {seat} was pushed {got}, computed {due}" + (f" ({pots})" if pots else ""),
                Severity.CRITICAL,
            )
