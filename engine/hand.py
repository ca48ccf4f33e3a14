"""The hand state machine: one hold'em (or Omaha) hand from ``hand_start`` to ``hand_end``.

It follows the events of one hand as they happened and keeps the betting state (whose turn, the
bet to call, the minimum and pot-limit raise, who may still raise), the chip ledger and where
every card is. It judges nothing: the rules (``engine.rules``) look at this state before and after
each event and at the end of the hand. Chips that moved are always booked, so pots and payouts stay
right after an irregular action. Input that cannot be applied at all (a seat that is not in the
hand) raises ``EventError``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple, Protocol

from engine.alerts import Alert
from engine.errors import EventError
from engine.events import (
    IN_HAND_TYPES,
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
    StackCount,
    TableConfig,
    TrayCount,
)
from engine.pots import UNCALLED_POT, uncalled_return
from engine.settlement import Settlement, settle
from engine.zones import Place, zone_of


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


BOARD_SIZE_AT = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}
STREET_OF_BOARD_SIZE = {0: Street.PREFLOP, 3: Street.FLOP, 4: Street.TURN, 5: Street.RIVER}


class RuleHooks(Protocol):
    """What the rules engine sees of a hand (``engine.rules.RuleSet``)."""

    def __len__(self) -> int: ...
    def apply(self, hand: Hand, event: Event, handler: Callable[[Event], None]) -> None:
        """Run the rules that look before ``event``, ``handler(event)``, then those after."""
        ...

    def end(self, hand: Hand, settlement: Settlement) -> None: ...


class ActionContext(NamedTuple):
    """The betting situation an action meets, computed before it is applied (immutable)."""

    event: Action
    table: TableConfig
    street: Street
    round_open: bool
    to_act: int | None
    flow_next: int | None
    """The seat next in clockwise order after the last actor (differs from ``to_act`` only after
    an action out of turn, when the skipped seat still owes its action)."""
    folded: bool
    all_in: bool
    my_bet: int
    stack: int
    current_bet: int
    min_raise: int
    """The last full bet or raise increment of the street (at least the big blind)."""
    limit_bets: int
    live_count: int
    pot_total: int
    acted_at: int | None
    """The bet level the seat last acted at on this street (None: it has not acted)."""
    to: int
    """The seat's total bet on the street that the action asks for."""

    @property
    def all_in_to(self) -> int:
        return self.my_bet + self.stack

    @property
    def goes_all_in(self) -> bool:
        return self.to >= self.all_in_to and self.event.action is not ActionKind.FOLD

    @property
    def raises(self) -> bool:
        return self.event.action not in (ActionKind.FOLD, ActionKind.CHECK) and (
            min(self.to, self.all_in_to) > self.current_bet
        )

    @property
    def bet_size(self) -> int:
        """Fixed limit: the small bet pre-flop and on the flop, the big bet later."""
        bb = self.table.bb
        return bb if self.street <= Street.FLOP else 2 * bb

    @property
    def pot_limit_to(self) -> int:
        """Pot limit: the pot after the seat's call, on top of the call (R-BET-7); where the
        house counts the small blind as a big blind, pre-flop before the big blind acts, the pot
        holds one more small blind's worth (R-BET-8)."""
        call = self.current_bet - self.my_bet
        pot = self.pot_total
        if self.table.house_rules.pl_small_blind_as_big and self.street is Street.PREFLOP:
            pot += self.table.bb - self.table.sb
        return self.current_bet + pot + call


@dataclass(slots=True)
class Placement:
    """A card that arrived somewhere, with what the shoe and the camera each said it was."""

    seq: int
    to: str
    face: Face
    shoe_card: str | None
    seen_card: str | None

    @property
    def card(self) -> str | None:
        return self.shoe_card or self.seen_card

    @property
    def to_seat(self) -> int | None:
        """The seat whose hand the card went to (``seat:N``), else None."""
        return zone_of(self.to).seat_of(Place.SEAT)


@dataclass(frozen=True, slots=True, kw_only=True)
class PreviousHand:
    """What a hand needs to know of the one dealt before it at the same table."""

    button: int
    seats: tuple[int, ...]
    rules_raised: frozenset[str]
    awarded: bool
    """Chips were pushed: the hand was played out (not a misdeal)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandReport:
    table: str
    hand: str
    complete: bool
    """The log had the ``hand_end`` of this hand."""
    cut: str | None = None
    """Why the hand was not judged past a point: a line of it was missing or could not be read
    (the alerts raised before stand; the rules after it and at its end did not run)."""
    starting_stacks: Mapping[int, int]
    board: tuple[str, ...]
    shown: Mapping[int, tuple[str, ...]]
    settlement: Settlement
    observed_awards: Mapping[int, int] | None
    """Sum of ``award`` events by seat; None when the log has none."""
    observed_rake: int | None
    alerts: tuple[Alert, ...]


@dataclass(slots=True)
class Record:
    """What happened in the hand, in order, for the rules that look back."""

    placements: list[Placement] = field(default_factory=list)
    boxed: list[CardSeen] = field(default_factory=list)
    """Cards seen face up in the deck (boxed)."""
    exposed: list[Placement] = field(default_factory=list)
    """Cards exposed in the deal: dealt face up to a seat (boxed cards excepted) or off the
    table, before the betting began."""
    burns: dict[int, list[Placement]] = field(default_factory=dict)
    """Burn cards by the board size they came before (0: flop, 3: turn, 4: river)."""
    actions: list[Action] = field(default_factory=list)
    shows: list[Show] = field(default_factory=list)
    mucks: list[Muck] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    """Every award: the pots pushed and the uncalled bets handed back."""
    pushes: list[Award] = field(default_factory=list)
    """The awards that push a pot."""
    returns: list[Award] = field(default_factory=list)
    """The awards that hand a bet nobody called back to its owner."""
    rakes: list[Rake] = field(default_factory=list)
    trays: list[TrayCount] = field(default_factory=list)
    stacks: list[StackCount] = field(default_factory=list)
    aggressor: dict[Street, int] = field(default_factory=dict)
    """The last seat that bet or raised on each street."""
    betting_over_seq: int | None = None
    """``seq`` of the action that ended all betting with two or more hands live."""
    decided_seq: int | None = None
    """``seq`` of the action that left a single live hand (the pot is uncontested)."""


class Hand:
    """Mutable state of the hand being played; ``finish`` turns it into a ``HandReport``."""

    def __init__(
        self,
        table: TableConfig,
        start: HandStart,
        rules: RuleHooks | None = None,
        tray_before: TrayCount | None = None,
    ) -> None:
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
        self.start = start
        self.hand = start.hand
        self.button = start.button
        self.rules = rules if rules else None
        self.tray_before = tray_before
        """The last tray count before the hand started, if any."""
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
        self.held_board: list[str] = []
        """Board cards dealt before the betting round was over, held until it is."""
        self.hole: dict[int, list[str | None]] = {seat: [] for seat in self.seats}
        self.shown: dict[int, tuple[str, ...]] = {}
        self.pending_draws: deque[tuple[str, int]] = deque()
        self.drawn: dict[str, int] = {}
        """Every card the shoe read in this hand, with the ``seq`` of its first read."""
        self.card_at: dict[str, str] = {}
        self.record = Record()
        self.observed_rake: int | None = None
        self.alerts: list[Alert] = []
        self.last_seq = start.seq
        self.previous: PreviousHand | None = None
        """The last hand at this table: its button and its seats (set by the session)."""
        self.cut: str | None = None
        """Why the rest of the hand is not judged (see ``HandReport.cut``)."""
        self.superseded_by: HandStart | None = None
        """The next hand's start, when it came before this hand's ``hand_end``."""
        self.memo: dict[str, object] = {}
        self._context: ActionContext | None = None
        self._hole_cards_dealt = False
        """Results the rules share within this hand."""

    # --- entry points ----------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        if not isinstance(event, IN_HAND_TYPES):
            raise EventError("type", f"a {event.TYPE} event cannot appear inside a hand")
        if isinstance(event, Blind | Ante | Action | Show | Muck | Award | StackCount):
            self._require_seat(event.seat)
        self.last_seq = event.seq
        if self.rules is None:
            self._handle(event)
        else:
            self.rules.apply(self, event, self._handle)

    def _handle(self, event: Event) -> None:
        """The hand's state after ``event`` (one of ``IN_HAND_TYPES``)."""
        if isinstance(event, CardSeen):
            self._on_card(event)
        elif isinstance(event, Action):
            self._on_action(event)
        elif isinstance(event, ShoeDraw):
            self._on_shoe_draw(event)
        elif isinstance(event, Blind):
            self._on_blind(event)
        elif isinstance(event, Ante):
            self._on_ante(event)
        elif isinstance(event, Show):
            self._on_show(event)
        elif isinstance(event, Muck):
            self._on_muck(event)
        elif isinstance(event, Award):
            self._on_award(event)
        elif isinstance(event, Rake):
            self._on_rake(event)
        elif isinstance(event, TrayCount):
            self.record.trays.append(event)
        elif isinstance(event, StackCount):
            self.record.stacks.append(event)

    def cut_here(self, reason: str) -> None:
        """A line of this hand is missing or unreadable: follow the rest, judge none of it (the
        state after a hole is a guess, and a guess must not become an alert)."""
        if self.cut is None:
            self.cut = reason
            self.rules = None

    def next_actor(self) -> int | None:
        """The seat whose turn it is, or None while no betting round is open."""
        self._open_round()
        return self.to_act if self.round_open else None

    def finish(self, *, complete: bool, seq: int) -> HandReport:
        settlement = self._settle()
        if self.rules is not None:
            self.rules.end(self, settlement)
        observed: dict[int, int] | None = None
        if self.record.awards:
            observed = {}
            for award in self.record.awards:
                observed[award.seat] = observed.get(award.seat, 0) + award.amount
        return HandReport(
            table=self.table.table,
            hand=self.hand,
            complete=complete,
            cut=self.cut,
            starting_stacks=self.starting_stacks,
            board=tuple(self.board),
            shown=dict(self.shown),
            settlement=settlement,
            observed_awards=observed,
            observed_rake=self.observed_rake,
            alerts=tuple(self.alerts),
        )

    # --- views for the rules ---------------------------------------------------------------

    def clockwise_from(self, seat: int) -> list[int]:
        """Seats in the hand in clockwise order, starting with the first one after ``seat``."""
        order = self._clockwise.get(seat)
        if order is None:
            order = sorted(self.seats, key=lambda s: (s - seat - 1) % self.table.seats)
            self._clockwise[seat] = order
        return order

    def big_blind_seat(self) -> int:
        """The seat due the big blind: the second after the button (heads up, the seat that is
        not the button), whatever it could post."""
        order = self.clockwise_from(self.button)
        return order[0] if len(order) == 2 else order[1]

    @property
    def hand_decided(self) -> bool:
        """A single hand is left: the pot is uncontested."""
        return len(self.seats) - len(self.folded) <= 1

    def live(self) -> list[int]:
        return [s for s in self.seats if s not in self.folded]

    def active(self) -> list[int]:
        return [s for s in self.seats if s not in self.folded and s not in self.all_in]

    def hole_cards_dealt(self) -> bool:
        """Every seat has its hole cards (once true, it stays true for the hand)."""
        if self._hole_cards_dealt:
            return True
        needed = self.table.game.hole_card_count
        self._hole_cards_dealt = all(len(self.hole[seat]) >= needed for seat in self.seats)
        return self._hole_cards_dealt

    def action_context(self, event: Action) -> ActionContext:
        """The situation ``event`` meets (computed once per event, before it is applied)."""
        cached = self._context
        if cached is not None and cached.event is event:
            return cached
        seat = event.seat
        self._open_round()
        my_bet = self.street_bets[seat]
        stack = self.stacks[seat]
        # Positional, in field order: this runs for every action.
        self._context = ActionContext(
            event,
            self.table,
            self.street,
            self.round_open,
            self.to_act,
            self.flow_next,
            seat in self.folded,
            seat in self.all_in,
            my_bet,
            stack,
            self.current_bet,
            self.min_raise,
            self.limit_bets,
            len(self.seats) - len(self.folded),
            sum(self.committed.values()) + self.dead_main,
            self.acted_at[seat],
            self._target(event),
        )
        return self._context

    def _target(self, event: Action) -> int:
        """The seat's total bet on the street that ``event`` asks for."""
        my_bet = self.street_bets[event.seat]
        if event.action is ActionKind.FOLD or event.action is ActionKind.CHECK:
            return my_bet
        if event.to is not None:
            return event.to
        all_in_to = my_bet + self.stacks[event.seat]
        if event.action is ActionKind.ALLIN:
            return all_in_to
        return min(self.current_bet, all_in_to)

    # --- chips -----------------------------------------------------------------------------

    def _require_seat(self, seat: int, field: str = "seat") -> None:
        if seat not in self.committed:
            raise EventError(field, f"seat {seat} is not in hand {self.hand}")

    def _commit(self, seat: int, amount: int) -> int:
        """Move ``amount`` from the seat's stack into the pot; never more than the stack."""
        amount = min(amount, self.stacks[seat])
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        if self.stacks[seat] == 0:
            self.all_in.add(seat)
        return amount

    def _on_ante(self, event: Ante) -> None:
        if self.table.bb_ante:
            # A big-blind ante is dead money in the main pot, not a bet anyone matches.
            paid = min(event.amount, self.stacks[event.seat])
            self.stacks[event.seat] -= paid
            self.dead_main += paid
            if self.stacks[event.seat] == 0:
                self.all_in.add(event.seat)
        else:
            self._commit(event.seat, event.amount)

    def _on_blind(self, event: Blind) -> None:
        paid = self._commit(event.seat, event.amount)
        self.street_bets[event.seat] += paid
        self.blinds.append((event.seat, self.street_bets[event.seat]))
        # Blinds are live bets; the level's big blind is the bet to call even when it is short.
        self.current_bet = max(self.current_bet, self.street_bets[event.seat], self.table.bb)
        # A straddle (a blind above the big blind) sets the new minimum raise (R-BLIND-7).
        self.min_raise = max(self.min_raise, self.street_bets[event.seat])
        self.limit_bets = 1

    def _on_award(self, event: Award) -> None:
        self.record.awards.append(event)
        if self._hands_back_uncalled(event):
            self.record.returns.append(event)
        else:
            self.record.pushes.append(event)

    def _hands_back_uncalled(self, event: Award) -> bool:
        """The award gives a bet nobody called back to its owner: labelled ``uncalled``, or the
        owner's first award, of exactly the bet's unmatched part (dealers hand it back as soon
        as the betting ends, before the hands are killed and the pots pushed)."""
        if event.pot == UNCALLED_POT:
            return True
        seat, amount = uncalled_return(self.committed)
        return (
            seat == event.seat
            and amount == event.amount
            and not any(award.seat == seat for award in self.record.awards[:-1])
        )

    def _on_rake(self, event: Rake) -> None:
        self.record.rakes.append(event)
        self.observed_rake = (self.observed_rake or 0) + event.amount

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
        if len(self.seats) - len(self.folded) <= 1:
            return None
        active_count = len(self.seats) - len(self.folded | self.all_in)
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

    def _close_round_if_done(self, after: int, seq: int, *, skipped: int | None = None) -> None:
        self.to_act = self._next_to_act(after, first=skipped)
        # After an action out of turn the skipped seat still owes its action, but the seats that
        # follow the out-of-turn actor in clockwise order are not out of turn once more.
        self.flow_next = self._next_to_act(after) if skipped is not None else self.to_act
        if self.to_act is None:
            self.round_open = False
            live = len(self.live())
            if live <= 1:
                if self.record.decided_seq is None:
                    self.record.decided_seq = seq
            elif self.record.betting_over_seq is None and (
                len(self.active()) <= 1 or self.street is Street.RIVER
            ):
                self.record.betting_over_seq = seq
            self._release_held()

    def _close_if_nobody_can_bet(self, seq: int) -> None:
        """The deal is over and no hand can bet any more (every other live hand went all-in
        on its blind or ante): the betting is over before anyone acts."""
        active = self.active()
        if len(self.live()) < 2 or len(active) > 1 or self.record.betting_over_seq is not None:
            return
        if all(self.street_bets[seat] >= self.current_bet for seat in active):
            self.record.betting_over_seq = seq
            self.round_open = False

    def _on_action(self, event: Action) -> None:
        seat = event.seat
        if seat in self.folded or seat in self.all_in:
            return
        self.record.actions.append(event)
        self._open_round()
        skipped = self.to_act if (self.round_open and self.to_act != seat) else None
        if event.action is ActionKind.FOLD:
            self.folded.add(seat)
        elif event.action is not ActionKind.CHECK:
            my_bet = self.street_bets[seat]
            to = min(self._target(event), my_bet + self.stacks[seat])
            if to > self.current_bet:
                self._raise(seat, to)
            elif to > my_bet:
                self.street_bets[seat] += self._commit(seat, to - my_bet)
        self.acted_at[seat] = self.current_bet
        if self.round_open:
            self._close_round_if_done(seat, event.seq, skipped=skipped)

    def _raise(self, seat: int, to: int) -> None:
        increment = to - self.current_bet
        if self.table.game.is_fixed_limit:
            bet_size = self.table.bb if self.street <= Street.FLOP else 2 * self.table.bb
            full = 2 * increment >= bet_size  # half a bet or more counts (R-BET-6)
        else:
            full = increment >= self.min_raise
        if full:
            self.limit_bets += 1
            self.record.aggressor[self.street] = seat
            if not self.table.game.is_fixed_limit:
                self.min_raise = increment
        self.street_bets[seat] += self._commit(seat, to - self.street_bets[seat])
        self.current_bet = max(self.current_bet, self.street_bets[seat])

    # --- cards -----------------------------------------------------------------------------

    def _on_shoe_draw(self, event: ShoeDraw) -> None:
        self.drawn.setdefault(event.card, event.seq)
        self.pending_draws.append((event.card, event.seq))

    def _place(self, event: CardSeen, shoe_card: str | None) -> Placement:
        placement = Placement(
            seq=event.seq,
            to=event.to,
            face=event.face,
            shoe_card=shoe_card,
            seen_card=event.card,
        )
        self.record.placements.append(placement)
        if placement.card is not None:
            self.card_at[placement.card] = event.to
        return placement

    def _on_card(self, event: CardSeen) -> None:
        seat = event.to_seat
        if seat is not None and seat not in self.hole:
            if seat > self.table.seats:
                raise EventError(
                    "to", f"seat {seat} does not exist at a {self.table.seats}-seat table"
                )
            self._place(event, self._next_draw())  # dealt to an empty seat (a misdeal)
        elif (
            seat is not None
            and event.card is not None
            and not self.pending_draws
            and event.card in self.hole[seat]
        ):
            self.card_at[event.card] = event.to  # a card of the seat's hand turned up in place
        elif seat is not None:
            placement = self._place(event, self._next_draw())
            self.hole[seat].append(placement.card)
            boxed = any(b.card == placement.card for b in self.record.boxed)
            if event.face is Face.UP and not self.actions_started and not boxed:
                self.record.exposed.append(placement)
            if not self.actions_started and self.hole_cards_dealt():
                self._close_if_nobody_can_bet(event.seq)
        elif event.to == "off_table" and self.pending_draws:
            placement = self._place(event, self._next_draw())  # dealt straight off the table
            if not self.actions_started:
                self.record.exposed.append(placement)
        elif event.to == "board":
            placement = self._place(event, self._next_draw())
            card = placement.card
            if card is None:
                raise EventError("card", "a board card needs its identity (face up or shoe)")
            if self.held_board or self._betting_pending():
                self.held_board.append(card)  # premature: it plays only once the round is over
            else:
                self._deal_board(card)
        elif event.to == "burn":
            placement = self._place(event, self._next_draw())
            self.record.burns.setdefault(len(self.board), []).append(placement)
        elif event.to == "shoe" and event.face is Face.UP:
            self.record.boxed.append(event)
        elif event.card is not None:
            self.card_at[event.card] = event.to  # a known card moved to the muck or off the table

    def _betting_pending(self) -> bool:
        """A board card now would be premature: the betting round before it is not over."""
        if len(self.board) not in (0, 3, 4) or not self.hole_cards_dealt():
            return False
        return self.next_actor() is not None and len(self.live()) > 1

    def _release_held(self) -> None:
        """Deal the premature board cards held back, up to the next street."""
        while self.held_board and not self.round_open:
            self._deal_board(self.held_board.pop(0))

    def _next_draw(self) -> str | None:
        return self.pending_draws.popleft()[0] if self.pending_draws else None

    def _deal_board(self, card: str) -> None:
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
        self.to_act = self.flow_next = self._next_to_act(self.button)
        if self.to_act is None:
            self.round_open = False

    def _on_show(self, event: Show) -> None:
        self.record.shows.append(event)
        # A hand is often turned one card at a time: what is tabled is every card shown.
        before = self.shown.get(event.seat, ())
        self.shown[event.seat] = before + tuple(c for c in event.cards if c not in before)
        for card in event.cards:
            self.card_at[card] = f"seat:{event.seat}"

    def _on_muck(self, event: Muck) -> None:
        self.record.mucks.append(event)
        self.mucked.add(event.seat)
        if event.seat not in self.folded and self.round_open:
            # A hand thrown away during the betting is a fold; the turn stays where it was.
            skipped = self.to_act if self.to_act != event.seat else None
            self.folded.add(event.seat)
            self.acted_at[event.seat] = self.current_bet
            self._close_round_if_done(event.seat, event.seq, skipped=skipped)

    # --- settlement ------------------------------------------------------------------------

    def _settle(self) -> Settlement:
        flop_seen = len(self.board) >= 3
        return settle(
            table=self.table,
            button=self.button,
            committed=self.committed,
            behind=self.stacks,
            dead_main=self.dead_main,
            live=self.live(),
            mucked=self.mucked,
            board=self.board,
            shown=self.shown,
            rake_taken=flop_seen or not self.table.house_rules.no_flop_no_drop,
        )
