"""Fusion: what the cameras saw and what the shoe and tray read, in the order it happened,
becomes the table event log (v1) that the hand engine and the rules check.

- Cards: every read of the shoe is a ``shoe_draw``; every card a camera sees come to rest is a
  ``card`` event where it landed (``seat:N``, ``burn``, ``board``, ``muck``), face up with its
  name or face down. The engine pairs draws and cards in order, so a camera's name that
  disagrees with the shoe, or a card no draw accounts for, reaches the deck rules. The name is
  the camera's when it is sure of it (``TRUST_CAMERA``), else the shoe's read of that card.
- Chips: chips coming to rest in ``bet:N`` are the seat's blind (before the deal) or its bet
  on the street (``to`` = all its chips there); the kind (bet, call, raise, all-in) follows
  from the bet it faces. Checks cannot be seen: a seat whose turn passes without chips, while it
  faces no bet, is recorded as checking (in its turn, before the next seat's chips or card).
- Folds and mucks: a seat's card carried to the muck is its ``muck`` (during the betting the
  engine counts it as a fold), unless the seat was paid already (the dealer collects the
  winner's cards after the push). Cards turned face up in a seat at the showdown are a ``show``.
- Pushes: a bet nobody called, seen back in its owner's stack once the betting is over, is an
  ``award`` of the ``uncalled`` pot; chips leaving the pot and coming to rest in ``stack:N`` of
  a seat still in the hand are an ``award`` (in either order, within a few seconds; chips a
  stack lost without betting them and then shows again were missed by the camera, not won);
  what left the pot and reached no seat when the hand ends is the ``rake``. A stack that holds
  as many chips as lie side by side in its zone (``full``) hides the chips stacked on them: at a
  table whose camera watches the tray, the chips that left the pot and reached neither a seat
  nor the tray are the rest of the push to a full stack (its own ``award``), and only what
  reached the tray is the rake.
- A card that comes to rest face up in the ``shoe`` zone was found face up in the deck (boxed):
  a ``card`` to ``shoe``, face up (once the camera names it).
- What the camera sees late or twice: a street's first board card seen while two shoe reads
  wait for the table places the first as the street's burn (the camera tells a burn from the
  burn pile later), and the burn seen afterwards is that one; chips put out after a street's
  betting was over wait for the next street's card; a card lost from view in a zone and found
  there again while no shoe read waits is not a new card; a seat's chips seen while an earlier
  seat facing a bet has not acted wait a few seconds for that seat's fold (cards thrown on the
  muck come to rest in view later than the next player's chips, and the camera may read the
  chips of that seat's call later than the next player's): each is placed as soon as the seats
  before it have acted, in the order they came; likewise a burn or board card seen while the
  seat to act faces a bet it has not been seen to answer waits, up to ``FOLD_WAIT_NS``, for its
  action (its cards thrown on the muck pile are told from the pile after the dealer's next card
  has landed); with no action by then, the rules judge the card where it was.
- What the shoe reads late: the shoe reads a card as it leaves, before it lands, but its read
  can reach the engine after the camera's sight of the card (the device process stalled under
  load). While the shoe is in use, a card the camera sees arrive where cards are dealt while no
  read waits to pair it with waits for its read, up to ``SHOE_WAIT_NS`` of input time, and the
  inputs after it wait with it (the order seen is kept; the shoe's reads pass them); a read that
  never comes leaves the card to the rules where it was seen (a card that does not belong). The
  wait is measured in the inputs' own timestamps, so a replay of the journal places it the same
  way. Once the shoe has read a card at the table, the first card of each hand waits too (after
  an engine restart the camera can resend its sight of it before the shoe resends its reads,
  stamped when they were resent).
- A read from another deck than the open hand's is the next hand's (after an engine restart,
  the shoe's first read of the next deck can be journalled before the camera has resent the end
  of the last hand): it waits for the open hand to end, up to ``NEXT_DECK_WAIT_NS`` of input
  time, after which the hand is ended where it is.
- A hand starts with its first card (a shoe read or a card dealt) after the table was cleared:
  each seat's stack is then the chips in its ``stack`` and ``bet`` zones, and the chips already
  in the bet zones are its blinds, in the order they came. It ends when no card is left on the
  table. A busy camera reads the table late (its sight of the stacks and blinds can come after the
  shoe's read of the first card, in the camera's own time too: it confirms what it sees over
  several frames), and an engine restarted before it journalled anything the camera saw hears
  the shoe resend its reads first: at a table a camera watches (configured, or heard from), the
  read that opens a hand waits until the camera sees a card arrive on the table, up to
  ``OPENING_WAIT_NS`` of input time, and what the camera saw meanwhile is taken first: the
  stacks and blinds on the table when the deal began.

A shadow ``Hand`` (no rules) follows the events emitted, to know whose turn it is.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import EventError
from engine.events import (
    Action,
    ActionKind,
    Award,
    Blind,
    CardSeen,
    Event,
    Face,
    HandEnd,
    HandStart,
    Muck,
    Rake,
    ShoeDraw,
    Show,
    TableConfig,
    TrayCount,
)
from engine.hand import Hand
from engine.inputs import CardDrawn, TrayCounted
from engine.observations import (
    CardAppeared,
    CardGone,
    CardMoved,
    CardTurned,
    ChipsInZone,
    EngineInput,
    Observation,
)
from engine.observations import Face as SeenFace
from engine.pots import UNCALLED_POT, uncalled_return
from engine.zones import CARD_PLACES, Place, zone_of

AWARD_WAIT_NS = 3_000_000_000
"""How long chips that reached a stack wait for the pot's loss to be an award."""
FOLD_WAIT_NS = 3_000_000_000
"""How long an action seen before an earlier seat's turn waits for that seat's fold."""
KILL_WAIT_NS = 2_500_000_000
"""How long a showdown's first award waits for the hands still on the table to be killed."""
SHOE_WAIT_NS = 2_000_000_000
"""How long a card seen arriving waits for the shoe's read of it (the read is taken before the
card lands, so a longer wait is not a late read but a card the shoe never dealt)."""
NEXT_DECK_WAIT_NS = 10_000_000_000
"""How long a new deck's reads wait for the last deck's hand to end before it is ended."""
OPENING_WAIT_NS = 3_000_000_000
"""How long the shoe's read that opens a hand waits for the camera to see the deal begin."""
TRUST_CAMERA = 0.9
"""A camera's name for a card is believed over the shoe's read only at this confidence (the
share of the identity votes): below it, the shoe names the card and the camera only says where
it is and which face is up."""


@dataclass(slots=True)
class _HandState:
    number: int
    shadow: Hand
    bets: dict[int, int] = field(default_factory=dict)
    """Chips resting in each seat's bet zone now."""
    cards: dict[int, str] = field(default_factory=dict)
    """Camera track -> where the card lies."""
    seat_cards: dict[int, dict[int, str | None]] = field(default_factory=dict)
    """Seat -> its cards on the table (track -> name when seen face up)."""
    shoe_cards: dict[int, str] = field(default_factory=dict)
    """Camera track -> the shoe's read of that card (the draw it was paired with)."""
    mucked: set[int] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)
    face_up: set[int] = field(default_factory=set)
    """Camera tracks of the cards seen face up in a seat (an exposure is reported once)."""
    boxed_unnamed: set[int] = field(default_factory=set)
    """Camera tracks of cards found face up in the shoe that the camera has not named yet."""
    pot: int = 0
    handed_back: int = 0
    """Chips of the uncalled bet seen back in its owner's stack."""
    left_pot: int = 0
    """Chips that left the pot and have not reached a seat."""
    paying: bool = False
    """The pot has begun to lose chips."""
    to_tray: int | None = 0
    """Chips the tray gained since the pot began to lose chips (the rake dropped there); None
    once the tray was seen full (it may hide some)."""
    full_push: int | None = None
    """The last seat whose stack held as many chips as lie side by side when a push reached
    it (chips of that push may lie hidden in it)."""
    dealt: bool = False
    burns_unseen: int = 0
    """Burns placed from the shoe's reads that the camera has not reported yet."""
    lost: dict[str, int] = field(default_factory=dict)
    """Zone -> cards the camera lost from view there (it may find them again)."""
    missed: dict[int, int] = field(default_factory=dict)
    """Seat -> its stack before it was seen to lose chips that it did not bet (the camera
    missed them, or a hand lies over them): seen again, they are not a gain."""
    bet_at: dict[int, int] = field(default_factory=dict)
    """Seat -> when its bet zone last gained chips."""
    gains: list[tuple[int, int, int]] = field(default_factory=list)
    """Chips that reached a stack before the pot was seen to lose them (seat, chips, when)."""
    held: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Seat -> (chips, since when): actions seen while an earlier seat facing a bet had not
    acted, waiting for its fold (in the order they came)."""
    pushes: list[tuple[int, int, int]] = field(default_factory=list)
    """Awards formed at a showdown while a hand not awarded was still on the table (seat,
    chips, when): the camera tells a killed hand thrown on the muck pile from the pile later
    than the push that followed it, so they wait for the kill."""
    early_bets: list[tuple[int, int, int]] = field(default_factory=list)
    """Bets seen after a street's betting was over and before the next street's card (seat,
    chips, when): applied once the card is seen."""
    dealt_early: list[CardAppeared | CardMoved] = field(default_factory=list)
    """Burn and board cards seen while the seat to act, facing a bet, had not been seen to act:
    they wait for its action (its cards thrown on the muck come to rest in view later than the
    dealer's next card), in the order they came."""
    unread: list[EngineInput] = field(default_factory=list)
    """A card seen arriving that waits for the shoe's read of it, then the inputs that came
    after it (they wait with it, in the order they came)."""
    deck: int | None = None
    """The deck the shoe dealt this hand from (its first read's)."""


class Fusion:
    def __init__(
        self, table: TableConfig, *, button: int, start_seq: int = 1, camera: bool = False
    ) -> None:
        """``button``: the seat of the dealer button for the first hand (then it moves to the
        next seat with chips each hand). ``camera``: a camera watches the table, so the shoe's
        read that opens a hand waits for it even before it is first heard from (an engine
        restarted before it journalled any of the camera's sight hears the shoe resend its
        reads first)."""
        self.table = table
        self.button = button
        self.seq = start_seq
        self.stacks: dict[int, int] = {}
        """Chips resting in each ``stack:N`` zone now."""
        self.full: set[int] = set()
        """Seats whose ``stack:N`` zone is full now (it may hide more chips than it shows)."""
        self.tray: int | None = None
        """Chips the camera sees in the tray now (None: the camera does not watch it)."""
        self.peaks: dict[int, int] = {}
        """The most chips seen in each ``stack:N`` zone since the last hand ended: the stack
        before the blinds left it (the shoe may read the first card before the camera has seen
        the blinds come to rest)."""
        self.hand: _HandState | None = None
        self.hands = 0
        self.posted: dict[int, int] = {}
        """Chips in the bet zones before the hand starts (the blinds), in the order they came."""
        self._table_sent = False
        self._camera = camera
        """Whether a camera watches the table (configured, or heard from)."""
        self._shoe_used = False
        """Whether the table's shoe has read a card (its cards wait for their reads)."""
        self._opening: list[EngineInput] = []
        """The shoe's read that opens a hand, waiting for the camera, and the inputs from other
        sources queued behind it."""
        self.refused: list[str] = []
        """The cards refused because no hand could start, each named (the caller takes them)."""
        self._next_deck: list[CardDrawn] = []
        """Reads from a new deck while a hand of the last one is still open (its end not seen
        yet: a camera resending what it saw before the engine restarted), waiting for it."""

    # -- output --

    def _event(self, cls: type[Event], ts_ns: int, **fields: Any) -> Event:
        event = cls(seq=self.seq, ts_ms=ts_ns // 1_000_000, **fields)
        self.seq += 1
        if self.hand is not None and cls not in (HandStart, TableConfig, TrayCount, HandEnd):
            # The engine reports what cannot be applied; the log keeps what was seen.
            with contextlib.suppress(EventError):
                self.hand.shadow.apply(event)
        return event

    # -- input --

    def feed(self, item: EngineInput) -> list[Event]:
        """The log events an input completes (often none)."""
        out: list[Event] = []
        if isinstance(item, Observation):
            self._camera = True
        if self._next_deck or self._of_next_deck(item):
            self._while_next_deck(item, out)
            return out
        self._dispatch(item, out)
        return out

    def _dispatch(self, item: EngineInput, out: list[Event]) -> None:
        if self._opening:
            self._while_opening(item, out)
        elif self.hand is None and self._camera and isinstance(item, CardDrawn):
            self._opening = [item]
        else:
            self._take(item, out)

    def _of_next_deck(self, item: EngineInput) -> bool:
        """A read from another deck than the open hand's: the next hand's."""
        hand = self.hand
        return (
            isinstance(item, CardDrawn)
            and hand is not None
            and hand.deck is not None
            and item.deck_id != hand.deck
        )

    def _while_next_deck(self, item: EngineInput, out: list[Event]) -> None:
        """The next deck's reads wait for the open hand to end (the camera sees its table
        cleared), up to ``NEXT_DECK_WAIT_NS`` of input time; then the hand is ended where it
        is and they open the next."""
        if isinstance(item, CardDrawn):
            self._next_deck.append(item)
        else:
            self._dispatch(item, out)
        first = self._next_deck[0]
        ts_ns = item.ts_ns
        if self.hand is not None:
            if ts_ns - first.ts_ns <= NEXT_DECK_WAIT_NS:
                return
            self._end(ts_ns, out)  # the camera never saw the table cleared
        if self.hand is None:
            waiting, self._next_deck = self._next_deck, []
            for read in waiting:
                out.extend(self.feed(read))

    def _while_opening(self, item: EngineInput, out: list[Event]) -> None:
        read = self._opening[0]
        assert isinstance(read, CardDrawn)
        ts_ns = item.ts_ns
        late = ts_ns - read.ts_ns > OPENING_WAIT_NS
        dealt = isinstance(item, CardAppeared | CardMoved | CardTurned)
        if not late and not dealt:
            if isinstance(item, Observation):
                self._take(item, out)  # the table as the deal begins
            else:
                self._opening.append(item)
            return
        queued, self._opening = self._opening, []  # the camera sees the deal, or waited enough
        for waiting in (*queued, item):
            self._take(waiting, out)

    def _take(self, item: EngineInput, out: list[Event]) -> None:
        """An input, or, while a card waits for the shoe's read of it, the read (which places
        the card), the end of the wait (the card is placed unread) or an input queued behind
        the card (the order seen is kept)."""
        hand = self.hand
        if hand is None or not hand.unread:
            self._input(item, out)
            return
        first = hand.unread[0]
        assert isinstance(first, CardAppeared)
        ts_ns = item.ts_ns
        if isinstance(item, CardDrawn):
            self._input(item, out)
            self._resume(out, wait=True)
        elif (
            ts_ns - first.ts_ns > SHOE_WAIT_NS or getattr(item, "track", None) == first.track
        ):  # no read came in time, or the card moved on before it came
            self._resume(out, wait=False)
            self._take(item, out)
        else:
            hand.unread.append(item)

    def _resume(self, out: list[Event], *, wait: bool) -> None:
        """The card that waited for its read, placed (``wait``: unless its read has still not
        come), then the inputs queued behind it, in the order they came."""
        hand = self.hand
        assert hand is not None
        queued, hand.unread = hand.unread, []
        card = queued[0]
        assert isinstance(card, CardAppeared)
        self._input(card, out, wait=wait)
        for item in queued[1:]:
            self._take(item, out)

    def _input(self, item: EngineInput, out: list[Event], *, wait: bool = True) -> None:
        """``wait``: a card seen arriving before the shoe's read of it waits for the read."""
        hand = self.hand
        ts_ns = item.ts_ns
        waited = (
            ts_ns - min(ts for _, ts in hand.held.values()) if hand is not None and hand.held else 0
        )
        if waited > FOLD_WAIT_NS:
            self._release(out)  # no fold came: the rules judge the action where it was
        if (
            hand is not None
            and hand.dealt_early
            and ts_ns - hand.dealt_early[0].ts_ns > FOLD_WAIT_NS
        ):
            self._deal_early(out)  # no action came: the rules judge the card where it was
        if hand is not None and hand.pushes and ts_ns - hand.pushes[0][2] > KILL_WAIT_NS:
            self._push(out, wait=False)  # no kill came: the rules judge the push where it was
        if isinstance(item, CardDrawn):
            self._shoe_used = True
            if not self._begin(item, out):
                return
            if self.hand is not None and self.hand.deck is None:
                self.hand.deck = item.deck_id
            out.append(self._event(ShoeDraw, item.ts_ns, card=item.card, shoe_seq=item.shoe_seq))
        elif isinstance(item, TrayCounted):
            counts = dict(sorted(item.counts.items()))
            out.append(self._event(TrayCount, item.ts_ns, counts=counts))
        elif isinstance(item, ChipsInZone):
            self._chips(item, out)
        elif isinstance(item, CardAppeared | CardMoved | CardTurned):
            self._card(item, out, wait=wait)
        elif isinstance(item, CardGone):
            self._card_gone(item, out)
        hand = self.hand
        if hand is not None and hand.dealt_early and not self._facing_unseen(hand):
            self._deal_early(out)

    def _begin(self, item: CardDrawn | CardAppeared | CardMoved, out: list[Event]) -> bool:
        """Start a hand with the card ``item`` (unless one is open); False when none can start:
        the card is refused, named in ``refused``."""
        if self.hand is not None:
            return True
        ts_ns = item.ts_ns
        chips = dict(self.stacks)
        for seat, amount in self.posted.items():
            chips[seat] = chips.get(seat, 0) + amount
        for seat, peak in self.peaks.items():
            chips[seat] = max(chips.get(seat, 0), peak)
        seated = {seat: amount for seat, amount in sorted(chips.items()) if amount > 0}
        if len(seated) < 2:  # nothing changes: the next card tries again
            what = (
                f"shoe read {item.card} (shoe seq {item.shoe_seq})"
                if isinstance(item, CardDrawn)
                else f"card seen at {item.zone}"
            )
            self.refused.append(
                f"{what} at {ts_ns}: stacks: a card came out, but the camera sees chips at "
                f"{len(seated)} seat(s): no hand can start (are the stack zones calibrated?)"
            )
            return False
        if not self._table_sent:
            out.append(replace(self.table, seq=self.seq, ts_ms=ts_ns // 1_000_000))
            self.seq += 1
            self._table_sent = True
        self.hands += 1
        if self.hands > 1:
            self.button = self._next_seat(self.button, seated)
        start = HandStart(
            seq=self.seq,
            ts_ms=ts_ns // 1_000_000,
            hand=str(self.hands),
            button=self.button,
            stacks=seated,
        )
        self.seq += 1
        out.append(start)
        self.hand = _HandState(self.hands, Hand(self.table, start))
        for seat, amount in self.posted.items():
            self.hand.bets[seat] = amount
            out.append(self._event(Blind, ts_ns, seat=seat, amount=amount))
        self.posted = {}
        return True

    def _next_seat(self, after: int, seated: dict[int, int]) -> int:
        for step in range(1, self.table.seats + 1):
            seat = (after - 1 + step) % self.table.seats + 1
            if seat in seated:
                return seat
        return after

    # -- chips --

    def _chips(self, item: ChipsInZone, out: list[Event]) -> None:
        amount = item.amount
        where = zone_of(item.zone)
        stack_seat = where.seat_of(Place.STACK)
        bet_seat = where.seat_of(Place.BET)
        if stack_seat is not None:
            before = self.stacks.get(stack_seat, 0)
            self.stacks[stack_seat] = amount
            if item.full:
                self.full.add(stack_seat)
            else:
                self.full.discard(stack_seat)
            if self.hand is None:
                self.peaks[stack_seat] = max(self.peaks.get(stack_seat, 0), amount)
            hand = self.hand
            if hand is None:
                return
            bet_at = hand.bet_at.get(stack_seat)
            if amount < before:
                if bet_at is None or item.ts_ns - bet_at > AWARD_WAIT_NS:
                    hand.missed.setdefault(stack_seat, before)  # not bet: a miss, or hidden
                return
            earlier = hand.missed.pop(stack_seat, None)
            gain = amount - max(before, earlier or 0)  # chips missed and seen again: no gain
            if gain > 0 and stack_seat in hand.shadow.live():
                gain -= self._handed_back(stack_seat, gain, item.ts_ns, out)
            if gain > 0 and stack_seat in hand.shadow.live():
                # (a folded seat wins nothing: chips its stack gains are a misread, or its own)
                hand.gains.append((stack_seat, gain, item.ts_ns))
                self._awards(item.ts_ns, out)
            return
        if bet_seat is not None:
            self._bet(bet_seat, amount, item.ts_ns, out)
            return
        if item.zone == "pot" and self.hand is not None:
            if amount < self.hand.pot:
                self.hand.paying = True
                self.hand.left_pot += self.hand.pot - amount
                self._awards(item.ts_ns, out)
            self.hand.pot = amount
        if item.zone == "tray":
            before, self.tray = self.tray or 0, amount
            hand = self.hand
            if hand is not None and hand.paying and hand.to_tray is not None:
                hand.to_tray = None if item.full else hand.to_tray + max(amount - before, 0)

    def _handed_back(self, seat: int, gain: int, ts_ns: int, out: list[Event]) -> int:
        """The part of a stack's gain that is the seat's own bet nobody called, back from its
        bet zone once the betting is over: an award of the uncalled bet, not chips from the pot
        (else it would take the pot's chips, and the rake's, for its own)."""
        hand = self.hand
        assert hand is not None
        if hand.shadow.next_actor() is not None:
            return 0
        owner, excess = uncalled_return(hand.shadow.committed)
        due = excess - hand.handed_back
        if owner != seat or due <= 0:
            return 0
        back = min(gain, due)
        hand.handed_back += back
        out.append(self._event(Award, ts_ns, seat=seat, amount=back, pot=UNCALLED_POT))
        return back

    def _awards(self, ts_ns: int, out: list[Event]) -> None:
        """Chips that left the pot and chips that reached a stack, matched in the order they
        came: an award. The camera may see the stack grow before it sees the pot shrink (the
        pusher's hand lies over the pot longer), so a stack's gain waits a few seconds for the
        pot's loss."""
        hand = self.hand
        assert hand is not None
        hand.gains = [g for g in hand.gains if ts_ns - g[2] <= AWARD_WAIT_NS]
        while hand.gains and hand.left_pot > 0:
            seat, gain, since = hand.gains[0]
            won = min(gain, hand.left_pot)
            hand.left_pot -= won
            hand.pushes.append((seat, won, ts_ns))
            if seat in self.full:
                hand.full_push = seat
            if won < gain:
                hand.gains[0] = (seat, gain - won, since)
            else:
                hand.gains.pop(0)
        self._push(out)

    def _push(self, out: list[Event], *, wait: bool = True) -> None:
        """The awards formed, once no hand that got none is still on the table at the
        showdown (``wait``: else they wait on, up to ``KILL_WAIT_NS``)."""
        hand = self.hand
        assert hand is not None
        if wait and hand.pushes and len(hand.shadow.board) == 5:
            paid = {a.seat for a in hand.shadow.record.awards} | {p[0] for p in hand.pushes}
            if any(seat not in paid and seat not in hand.mucked for seat in hand.shadow.live()):
                return
        pushes, hand.pushes = hand.pushes, []
        for seat, won, ts_ns in pushes:
            out.append(self._event(Award, ts_ns, seat=seat, amount=won))

    def _bet(self, seat: int, amount: int, ts_ns: int, out: list[Event]) -> None:
        hand = self.hand
        if hand is None:  # a blind before the deal
            if amount > 0:
                self.posted[seat] = amount
            else:
                self.posted.pop(seat, None)
            return
        before = hand.bets.get(seat, 0)
        hand.bets[seat] = amount
        if amount > before:  # the chips the stack lost (or is about to be seen losing) are bet
            hand.bet_at[seat] = ts_ns
            hand.missed.pop(seat, None)
        if amount <= before:
            return  # collected into the pot (or some taken back: the engine's rules judge)
        if not hand.dealt:
            out.append(self._event(Blind, ts_ns, seat=seat, amount=amount))  # a late blind
            return
        shadow = hand.shadow
        if shadow.next_actor() is None and len(shadow.board) < 5 and len(shadow.active()) > 1:
            # The street's betting is over: chips put out now are the next street's (the camera
            # sees a card dealt under a moving hand later than the chips that follow it). The
            # shoe's reads cannot tell: the dealer draws as the last call comes to rest.
            hand.early_bets.append((seat, amount, ts_ns))
            return
        self._action(seat, amount, ts_ns, out)

    def _action(
        self, seat: int, amount: int, ts_ns: int, out: list[Event], *, hold: bool = True
    ) -> None:
        """The seat's chips in its bet zone reached ``amount``: its bet, call, raise or all-in.
        ``hold``: a seat acting while an earlier one that faces a bet has not acted waits (up to
        ``FOLD_WAIT_NS``) for that one's fold: the camera sees cards thrown on the muck come to
        rest later than the chips of the next player."""
        hand = self.hand
        shadow = hand.shadow if hand is not None else None
        if hand is not None and shadow is not None and seat in shadow.street_bets:
            self._checks_before(seat, ts_ns, out)
            if hold and (seat in hand.held or shadow.next_actor() not in (None, seat)):
                earlier = hand.held.get(seat)  # (a seat held again keeps its place)
                hand.held[seat] = (amount, earlier[1] if earlier else ts_ns)
                return
            to = amount
            stack_left = shadow.stacks.get(seat, 0) - (to - shadow.street_bets[seat])
            if stack_left <= 0:
                kind = ActionKind.ALLIN
            elif to <= shadow.current_bet:
                kind = ActionKind.CALL
            elif shadow.current_bet == 0:
                kind = ActionKind.BET
            else:
                kind = ActionKind.RAISE
            out.append(self._event(Action, ts_ns, seat=seat, action=kind, to=to))
            if hold and hand.held:
                self._release(out, hold=True)  # the seats after it may be in turn now

    def _checks_before(self, seat: int | None, ts_ns: int, out: list[Event]) -> None:
        """Checks for the seats whose turn comes before ``seat`` (None: all whose turn is
        left in the round) and who face no bet: nobody sees a check, but the turn passed."""
        shadow = self.hand.shadow if self.hand is not None else None
        while shadow is not None:
            actor = shadow.next_actor()
            if actor is None or actor == seat:
                return
            if shadow.street_bets.get(actor, 0) < shadow.current_bet:
                return  # it faces a bet: its call, raise or fold is still to come
            out.append(self._event(Action, ts_ns, seat=actor, action=ActionKind.CHECK))

    # -- cards --

    def _card(
        self, item: CardAppeared | CardMoved | CardTurned, out: list[Event], *, wait: bool = True
    ) -> None:
        """``wait``: a card the shoe has not read yet waits for the read, and a burn or board card
        for the action of the seat to act (else it is placed)."""
        zone = item.zone
        if isinstance(item, CardTurned):
            self._turned(item, out)
            return
        boxed = zone == "shoe" and item.face is SeenFace.UP and not isinstance(item, CardMoved)
        place = zone_of(zone).place
        if place not in CARD_PLACES and place is not Place.OFF_TABLE and not boxed:
            return
        if not self._begin(item, out):
            return
        hand = self.hand
        assert hand is not None
        source = item.source if isinstance(item, CardMoved) else None
        where = hand.cards.get(item.track)
        known = where == zone
        if known and (item.face is SeenFace.DOWN or item.track in hand.face_up):
            # Back where the hand has it, as it lay, by way of a zone where cards are not played
            # (a card pushed toward the pot, or its box misread across the line): nothing new.
            return
        hand.cards[item.track] = zone
        face = Face.UP if item.face is SeenFace.UP else Face.DOWN
        from_seat = zone_of(source).seat_of(Place.SEAT) if source else None
        if from_seat is not None:
            hand.seat_cards.get(from_seat, {}).pop(item.track, None)
            paid = {a.seat for a in hand.shadow.record.awards} | {p[0] for p in hand.pushes}
            if zone == "muck" and from_seat not in hand.mucked and from_seat not in paid:
                # (a paid seat's cards go to the muck as the dealer collects them: no kill)
                hand.mucked.add(from_seat)
                self._checks_before(from_seat, item.ts_ns, out)
                out.append(self._event(Muck, item.ts_ns, seat=from_seat))
                if hand.held:
                    self._release(out, hold=True)
                if hand.pushes:
                    self._push(out)
            return
        if not isinstance(item, CardMoved) and self._seen_again(hand, zone):
            return
        if isinstance(item, CardAppeared) and wait and self._unread(hand, item):
            if where is None:
                hand.cards.pop(item.track)
            else:
                hand.cards[item.track] = where
            hand.unread = [item]
            return
        if zone in ("burn", "board") and wait and (hand.dealt_early or self._facing_unseen(hand)):
            if where is None:
                hand.cards.pop(item.track)
            else:
                hand.cards[item.track] = where
            hand.dealt_early.append(item)
            return
        if zone == "board":
            if hand.held:
                self._release(out)
            self._unseen_burn(hand, item, out)
            self._checks_before(None, item.ts_ns, out)
        to_seat = zone_of(zone).seat_of(Place.SEAT)
        pending = hand.shadow.pending_draws[0][0] if hand.shadow.pending_draws else None
        name = self._believed(item.card, item.conf, pending, zone)
        if to_seat is not None:
            hand.seat_cards.setdefault(to_seat, {})[item.track] = name
        if boxed:  # found face up in the deck and set down by the shoe: the shoe never read it
            if item.card is None:  # the camera names it later (a CardTurned in the shoe zone)
                hand.boxed_unnamed.add(item.track)
            else:
                out.append(
                    self._event(CardSeen, item.ts_ns, to="shoe", face=Face.UP, card=item.card)
                )
            return
        if zone in ("burn", "board") or to_seat is not None:
            card = name if face is Face.UP else None
            out.append(self._event(CardSeen, item.ts_ns, to=zone, face=face, card=card))
            if face is Face.UP and to_seat is not None:
                hand.face_up.add(item.track)
            if pending is not None:
                hand.shoe_cards[item.track] = pending
        if hand.shadow.hole_cards_dealt() or zone in ("burn", "board"):
            hand.dealt = True
        street_open = hand.shadow.next_actor() is not None and not hand.shadow.pending_draws
        if zone == "board" and hand.early_bets and street_open:
            self._early_bets(out)

    @staticmethod
    def _facing_unseen(hand: _HandState) -> bool:
        """Whether the seat to act faces a bet it has not been seen to call, raise or fold
        (its action held out of turn aside)."""
        shadow = hand.shadow
        actor = shadow.next_actor()
        if actor is None or actor in hand.held:
            return False
        return shadow.street_bets.get(actor, 0) < shadow.current_bet

    def _deal_early(self, out: list[Event]) -> None:
        """The burn and board cards that waited for the seat to act, in the order they came."""
        assert self.hand is not None
        waiting, self.hand.dealt_early = self.hand.dealt_early, []
        for item in waiting:
            self._card(item, out, wait=False)

    def _unread(self, hand: _HandState, item: CardAppeared) -> bool:
        """Whether a card arriving where cards are dealt has no shoe read waiting to pair it
        with (while the shoe is in use at the table: in this hand or an earlier one, so the
        first card of a hand waits for its read too)."""
        zone = item.zone
        shadow = hand.shadow
        in_use = self._shoe_used or shadow.drawn
        if not in_use or zone_of(zone).place not in (Place.BURN, Place.BOARD, Place.SEAT):
            return False
        return not shadow.pending_draws

    @staticmethod
    def _seen_again(hand: _HandState, zone: str) -> bool:
        """Whether a card coming to rest in ``zone`` is one already counted there: a burn the
        shoe's reads accounted for before the camera saw it land, or a card lost from view
        there and found again (no shoe read waits for a new card)."""
        if zone == "burn" and hand.burns_unseen > 0:
            hand.burns_unseen -= 1
            return True
        if hand.lost.get(zone, 0) > 0 and not hand.shadow.pending_draws:
            hand.lost[zone] -= 1
            return True
        return False

    def _unseen_burn(
        self, hand: _HandState, item: CardAppeared | CardMoved, out: list[Event]
    ) -> None:
        """A street's first board card with two shoe reads waiting for the table: the first is
        the street's burn, not seen yet (it lands on the burn pile, where the camera tells it
        from the pile later than the board card); it is placed in the burn now."""
        shadow = hand.shadow
        street_burns = shadow.record.burns.get(len(shadow.board))
        if len(shadow.board) not in (0, 3, 4) or street_burns or len(shadow.pending_draws) < 2:
            return
        first = shadow.pending_draws[0][0]
        if item.card == first and item.conf >= TRUST_CAMERA:
            return  # the board card is the first card read: no burn (the rules judge it)
        out.append(self._event(CardSeen, item.ts_ns, to="burn", face=Face.DOWN, card=None))
        hand.burns_unseen += 1

    def _release(self, out: list[Event], *, hold: bool = False) -> None:
        """The held actions, in the order they came (``hold``: those still out of turn wait
        on)."""
        assert self.hand is not None
        held, self.hand.held = self.hand.held, {}
        for seat, (amount, ts_ns) in held.items():
            self._action(seat, amount, ts_ns, out, hold=hold)

    def _early_bets(self, out: list[Event]) -> None:
        assert self.hand is not None
        early, self.hand.early_bets = self.hand.early_bets, []
        for seat, amount, ts_ns in early:
            self._action(seat, amount, ts_ns, out)

    def _turned(self, item: CardTurned, out: list[Event]) -> None:
        hand = self.hand
        if hand is None or item.face is not SeenFace.UP:
            return
        if item.zone == "shoe" and item.track in hand.boxed_unnamed and item.card is not None:
            hand.boxed_unnamed.discard(item.track)
            out.append(self._event(CardSeen, item.ts_ns, to="shoe", face=Face.UP, card=item.card))
            return
        seat = zone_of(item.zone).seat_of(Place.SEAT)
        if seat is None:
            return
        cards = hand.seat_cards.setdefault(seat, {})
        # Unnamed by the camera (or unsure): the shoe's read of that card names it.
        name = self._believed(item.card, item.conf, hand.shoe_cards.get(item.track), item.zone)
        if name is None:
            name = cards.get(item.track)
        cards[item.track] = name
        known = [c for c in cards.values() if c is not None]
        if len(hand.shadow.board) == 5:
            self._checks_before(None, item.ts_ns, out)  # the river was checked down
        if hand.shadow.next_actor() is None and len(hand.shadow.board) == 5:
            if len(known) == self.table.game.hole_card_count and seat not in hand.shown:
                hand.shown.add(seat)
                out.append(self._event(Show, item.ts_ns, seat=seat, cards=tuple(known)))
        elif item.track not in hand.face_up and name is not None:
            # turned up while the hand is played: the card is exposed where it lies
            hand.face_up.add(item.track)
            out.append(self._event(CardSeen, item.ts_ns, to=item.zone, face=Face.UP, card=name))

    def _believed(self, seen: str | None, conf: float, shoe: str | None, zone: str) -> str | None:
        """The name of a card seen face up in ``zone``: the camera's when it is sure (a
        disagreement with the shoe is then the deck rules' to judge), else the shoe's read of
        that card. A camera's name that is a card lying elsewhere in the hand, against the
        shoe's read of this one, is the camera misreading it (a 3 read as a 6), not a second
        copy of that card."""
        if seen is None or (shoe is not None and conf < TRUST_CAMERA):
            return shoe
        where = self.hand.shadow.card_at.get(seen) if self.hand is not None else None
        if shoe is not None and seen != shoe and where not in (None, zone):
            return shoe
        return seen

    def _card_gone(self, item: CardGone, out: list[Event]) -> None:
        hand = self.hand
        if hand is None:
            return
        if hand.cards.pop(item.track, None) is not None and zone_of(item.zone).place in CARD_PLACES:
            hand.lost[item.zone] = hand.lost.get(item.zone, 0) + 1
        for cards in hand.seat_cards.values():
            cards.pop(item.track, None)
        if not hand.cards:
            self._end(item.ts_ns, out)

    def _end(self, ts_ns: int, out: list[Event]) -> None:
        hand = self.hand
        assert hand is not None
        # No card came after the early bets, no fold before the held ones: the rules judge
        # them where they are (an early bet out of turn is held first, then released).
        self._deal_early(out)
        self._early_bets(out)
        self._release(out)
        self._push(out, wait=False)
        hidden = hand.left_pot - (hand.to_tray or 0)
        watched = self.tray is not None and hand.to_tray is not None
        if watched and hand.full_push is not None and hidden > 0:
            out.append(self._event(Award, ts_ns, seat=hand.full_push, amount=hidden))
            hand.left_pot -= hidden
        if hand.left_pot > 0:
            out.append(self._event(Rake, ts_ns, amount=hand.left_pot))
        out.append(self._event(HandEnd, ts_ns, hand=str(hand.number)))
        self.hand = None
        self.peaks = dict(self.stacks)
