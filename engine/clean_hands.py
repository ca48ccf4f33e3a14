"""Clean hands dealt in every order the seed rulebooks allow, for checking that the rules raise
nothing on legal play (``feltwatch gen clean``, and hypothesis in the tests).

A ``Chooser`` makes every decision (a seeded ``random.Random`` for the command line, hypothesis's
data for the tests, which then shrinks a failing hand to a short one). The table varies (game,
2 to 10 seats, blinds, antes or a big-blind ante, a straddle, rake with or without a cap,
no-flop-no-drop, tournament or cash, the chip unit), and so do the stacks (short ones, several
all-ins), the betting (every legal action and size of no limit, pot limit and fixed limit) and,
above all, the way the hand ends: the winner of an uncontested pot throws his cards in before
or after the push, shows one card or all; an uncalled bet goes back as soon as the action ends
or with the pot, labelled or not; all-in hands are tabled as soon as the betting is over
(tournaments) or at the showdown (cash); the losing hands are shown or thrown away and killed
in any order before the pots are pushed, side pots first; a called hand is shown on request;
split pots and their odd chips. Each hand says which of these it took (``Dealt.kinds``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from math import gcd
from typing import Protocol, TypeVar

from engine.cards import DECK
from engine.events import (
    Action,
    ActionKind,
    Ante,
    Award,
    Blind,
    CardSeen,
    Event,
    Face,
    Game,
    HandEnd,
    HandStart,
    HouseRules,
    Muck,
    MuckedBy,
    Rake,
    ShoeDraw,
    Show,
    StackCount,
    TableConfig,
    TrayCount,
)
from engine.hand import Hand, Street
from engine.pots import UNCALLED_POT, uncalled_return
from engine.rules.registry import RuleSet
from engine.session import play_hand
from engine.settlement import Settlement

T = TypeVar("T")

LEVELS = ((1, 2), (5, 10), (25, 50), (50, 100), (100, 200), (500, 1000))
"""Small and big blinds."""


class Chooser(Protocol):
    def pick(self, options: Sequence[T]) -> T: ...
    def chance(self, p: float) -> bool: ...
    def number(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``, both included."""
        ...


@dataclass(slots=True)
class RandomChooser:
    rng: random.Random

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def shuffled(choose: Chooser, items: Sequence[T]) -> list[T]:
    """``items`` in an order the chooser picks."""
    left, out = list(items), []
    while left:
        out.append(left.pop(choose.number(0, len(left) - 1)))
    return out


@dataclass(slots=True)
class Dealt:
    """Events of generated clean hands, and which legal variations they took."""

    events: list[Event] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    hands: int = 0


def table_config(choose: Chooser, name: str) -> TableConfig:
    game = choose.pick(list(Game))
    sb, bb = choose.pick(LEVELS)
    tournament = choose.chance(0.25)
    ante = bb_ante = 0
    forced = choose.pick(("none", "none", "ante", "bb_ante"))
    if forced == "ante":
        ante = max(1, bb // choose.pick((10, 5, 4)))
    elif forced == "bb_ante":
        bb_ante = bb
    rake_pct, rake_cap = Decimal(0), 0
    if not tournament and choose.chance(0.7):
        rake_pct = Decimal(choose.pick(("2.5", "5", "10")))
        rake_cap = choose.pick((0, 3 * bb, 5 * bb))
    rules = HouseRules(
        no_flop_no_drop=choose.chance(0.8),
        tournament=tournament,
        fl_cap_heads_up=choose.chance(0.3),
        chip_unit=gcd(sb, bb, ante, bb_ante) if choose.chance(0.2) else 1,
        pl_small_blind_as_big=game.is_pot_limit and choose.chance(0.3),
    )
    return TableConfig(
        seq=0,
        ts_ms=0,
        table=name,
        game=game,
        seats=choose.number(2, 10),
        sb=sb,
        bb=bb,
        ante=ante,
        bb_ante=bb_ante,
        rake_pct=rake_pct,
        rake_cap=rake_cap,
        house_rules=rules,
    )


def stacks_for(choose: Chooser, table: TableConfig, seats: Sequence[int]) -> dict[int, int]:
    unit = table.house_rules.chip_unit
    stacks = {}
    for seat in seats:
        short = choose.chance(0.2)
        big_blinds = choose.number(1, 12) if short else choose.number(20, 250)
        stack = big_blinds * table.bb + choose.number(0, table.bb // unit) * unit
        if choose.chance(0.05):
            stack = max(unit, choose.number(1, table.bb) // unit * unit)  # less than a big blind
        stacks[seat] = stack
    return stacks


def session(choose: Chooser, dealt: Dealt, *, name: str, hands: int) -> None:
    """One table: its configuration, then ``hands`` hands with the button moving on."""
    table = table_config(choose, name)
    seats = sorted(shuffled(choose, range(1, table.seats + 1))[: choose.number(2, table.seats)])
    dealt.events.append(table)
    kinds = [f"game {table.game}", f"{len(seats)} seats in the hand"]
    for kind, present in (
        ("antes", table.ante > 0),
        ("big-blind ante", table.bb_ante > 0),
        ("tournament", table.house_rules.tournament),
        ("cash", not table.house_rules.tournament),
        ("rake with a cap", table.rake_pct > 0 and table.rake_cap > 0),
        ("rake without a cap", table.rake_pct > 0 and table.rake_cap == 0),
        ("no rake", table.rake_pct == 0),
        ("chip unit above 1", table.house_rules.chip_unit > 1),
    ):
        if present:
            kinds.append(kind)
    button = choose.pick(seats)
    for number in range(hands):
        stacks = stacks_for(choose, table, seats)
        HandDealer(choose, table, dealt, hand=f"{name}-{number + 1}", button=button).play(stacks)
        dealt.hands += 1
        dealt.kinds.update(kinds)
        button = next(s for s in seats[seats.index(button) + 1 :] + seats if s != button)


def clean_hands(choose: Chooser, count: int, *, prefix: str = "g") -> Dealt:
    """``count`` clean hands in sessions of one to eight hands, numbered from seq 1."""
    dealt = Dealt()
    tables = 0
    while dealt.hands < count:
        tables += 1
        hands = min(count - dealt.hands, choose.number(1, 8))
        session(choose, dealt, name=f"{prefix}{tables}", hands=hands)
    dealt.events = [replace(e, seq=i + 1) for i, e in enumerate(dealt.events)]
    return dealt


class HandDealer:
    """Deals one clean hand into ``dealt``, deciding everything through ``choose``."""

    def __init__(
        self, choose: Chooser, table: TableConfig, dealt: Dealt, *, hand: str, button: int
    ) -> None:
        self.choose = choose
        self.table = table
        self.dealt = dealt
        self.hand = hand
        self.button = button
        self.events: list[Event] = []
        self.ts_ms = dealt.events[-1].ts_ms if dealt.events else 0
        self.deck = shuffled(choose, DECK)
        self.shoe_seq = 0
        self.holes: dict[int, list[str]] = {}
        self.shadow: Hand | None = None
        self.tray: dict[int, int] | None = None
        """The tray's count at the hand's start (it does not change during a clean hand)."""
        self.returned = False
        """The uncalled bet went back already."""

    # --- output ----------------------------------------------------------------------------

    def kind(self, name: str) -> None:
        self.dealt.kinds[name] += 1

    def emit(self, event: Event) -> None:
        self.ts_ms += self.choose.pick((0, 40, 250, 900, 2500))
        event = replace(event, ts_ms=self.ts_ms)
        self.events.append(event)
        self.dealt.events.append(event)
        if self.shadow is not None and not isinstance(event, HandEnd | HandStart):
            self.shadow.apply(event)

    def draw(self, to: str, face: Face) -> str:
        card = self.deck.pop()
        self.shoe_seq += 1
        self.emit(ShoeDraw(seq=0, ts_ms=0, card=card, shoe_seq=self.shoe_seq))
        seen = card if face is Face.UP else None
        self.emit(CardSeen(seq=0, ts_ms=0, to=to, face=face, card=seen))
        return card

    @property
    def h(self) -> Hand:
        assert self.shadow is not None
        return self.shadow

    # --- the hand --------------------------------------------------------------------------

    def play(self, stacks: dict[int, int]) -> None:
        start = HandStart(seq=0, ts_ms=0, hand=self.hand, button=self.button, stacks=stacks)
        if self.choose.chance(0.3):  # the tray counted between hands (it may change there)
            bb = self.table.bb
            self.tray = {bb // 2 or 1: self.choose.number(20, 100), bb: 100, 5 * bb: 40}
            self.emit(TrayCount(seq=0, ts_ms=0, counts=self.tray))
        self.emit(start)
        self.shadow = Hand(self.table, start)
        self.holes = {seat: [] for seat in self.h.seats}
        self.forced_bets()
        self.deal()
        for cards in (0, 3, 1, 1):
            if cards:
                if len(self.h.live()) < 2:
                    break
                self.board(cards)
            self.betting()
            if len(self.h.live()) < 2:
                break
        if len(self.h.live()) < 2:
            self.uncontested()
        else:
            self.showdown()
        self.emit(HandEnd(seq=0, ts_ms=0, hand=self.hand))

    def forced_bets(self) -> None:
        table, h = self.table, self.h
        order = h.clockwise_from(self.button)
        if len(order) == 2:  # heads up: the button posts the small blind
            order = [self.button, *[s for s in order if s != self.button]]
        small, big = order[0], order[1]
        antes = [s for s in h.clockwise_from(self.button)] if table.ante else []
        posts: list[tuple[str, int, int]] = []
        straddle = (
            len(order) >= 4
            and not table.game.is_fixed_limit
            and not table.house_rules.tournament
            and self.choose.chance(0.15)
        )
        blinds = [("blind", small, table.sb), ("blind", big, table.bb)]
        if straddle:
            blinds.append(("blind", order[2], 2 * table.bb))
        if table.bb_ante:
            # The big blind first when its stack cannot cover both (TDA), otherwise either.
            bb_ante = ("ante", big, table.bb_ante)
            first = self.choose.chance(0.5) and h.stacks[big] > table.bb + table.bb_ante
            blinds.insert(1 if first else 2, bb_ante)
            self.kind("big-blind ante before the blind" if first else "big-blind ante after")
        ante_posts = [("ante", seat, table.ante) for seat in antes]
        if ante_posts and self.choose.chance(0.5):
            posts = [*ante_posts, *blinds]
            self.kind("antes before the blinds")
        else:
            posts = [*blinds, *ante_posts]
            if ante_posts:
                self.kind("antes after the blinds")
        for what, seat, amount in posts:
            left = h.stacks[seat]
            if left == 0:
                continue
            paid = min(amount, left)
            if paid < amount:
                self.kind("short forced bet")
            if what == "ante":
                self.emit(Ante(seq=0, ts_ms=0, seat=seat, amount=paid))
            else:
                if amount == 2 * table.bb:
                    if left < amount:
                        continue  # no straddle from a short stack
                    self.kind("straddle")
                self.emit(Blind(seq=0, ts_ms=0, seat=seat, amount=paid))

    def deal(self) -> None:
        order = self.h.clockwise_from(self.button)
        for _ in range(self.table.game.hole_card_count):
            for seat in order:
                self.holes[seat].append(self.draw(f"seat:{seat}", Face.DOWN))

    def board(self, cards: int) -> None:
        self.emit_all_in_shows_before_the_board()
        if self.choose.chance(0.5):
            self.draw("burn", Face.DOWN)
        else:  # a burn the shoe does not report (it reads only the cards dealt to play)
            self.deck.pop()
            self.emit(CardSeen(seq=0, ts_ms=0, to="burn", face=Face.DOWN, card=None))
        if cards > 1 and self.choose.chance(0.3):  # the shoe's reads arrive before the camera's
            drawn = [self.deck.pop() for _ in range(cards)]
            for card in drawn:
                self.shoe_seq += 1
                self.emit(ShoeDraw(seq=0, ts_ms=0, card=card, shoe_seq=self.shoe_seq))
            for card in drawn:
                self.emit(CardSeen(seq=0, ts_ms=0, to="board", face=Face.UP, card=card))
            self.kind("flop read by the shoe before the camera sees it")
        else:
            for _ in range(cards):
                self.draw("board", Face.UP)
        self.counts()

    # --- betting ---------------------------------------------------------------------------

    def betting(self) -> None:
        h = self.h
        for _ in range(500):
            seat = h.next_actor()
            if seat is None or len(h.live()) < 2:
                break
            action = self.action(seat)
            self.emit(action)
            if action.action is ActionKind.FOLD:
                self.folded_cards(seat)
            if h.record.decided_seq is not None or h.record.betting_over_seq is not None:
                break
        self.after_betting()

    def folded_cards(self, seat: int) -> None:
        """The camera may see a folded hand land in the muck, or the fold as a muck."""
        how = self.choose.pick(("unseen", "unseen", "cards seen in the muck", "muck event"))
        if how == "cards seen in the muck":
            for _ in self.holes[seat]:
                self.emit(CardSeen(seq=0, ts_ms=0, to="muck", face=Face.DOWN, card=None))
        elif how == "muck event":
            self.emit(Muck(seq=0, ts_ms=0, seat=seat, by=MuckedBy.PLAYER))
        if how != "unseen":
            self.kind(f"folded hand: {how}")

    def after_betting(self) -> None:
        """What dealers do as soon as the action ends: hand back a bet nobody called, throw
        the folded hands into the muck."""
        h = self.h
        if not self.returned and self.choose.chance(0.5) and not h.round_open:
            owner, amount = uncalled_return(h.committed)
            if owner is not None and (h.record.decided_seq or len(h.active()) <= 1):
                label = self.choose.pick((UNCALLED_POT, "main"))
                self.emit(Award(seq=0, ts_ms=0, seat=owner, amount=amount, pot=label))
                self.returned = True
                self.kind(f"uncalled bet handed back at once ({label})")

    def action(self, seat: int) -> Action:
        h, table, choose = self.h, self.table, self.choose
        unit = table.house_rules.chip_unit
        my_bet, stack = h.street_bets[seat], h.stacks[seat]
        all_in_to = my_bet + stack
        facing = h.current_bet - my_bet

        def act(kind: ActionKind, to: int | None = None) -> Action:
            return Action(seq=0, ts_ms=0, seat=seat, action=kind, to=to)

        probe = act(ActionKind.RAISE, all_in_to)
        context = h.action_context(probe)
        options: list[str] = []
        if facing > 0:
            options += ["fold", "call", "call"]
        else:
            options += ["check", "check", "check", "check", "check", "check", "fold"]
        least, most = self._raise_range(seat, context.pot_limit_to, all_in_to)
        if most > h.current_bet and self._may_raise(seat) and (least <= most or most == all_in_to):
            options += ["raise"]
        choice = choose.pick(options)
        if choice == "fold":
            if facing == 0:
                self.kind("fold where a check was free")
            return act(ActionKind.FOLD)
        if choice == "check":
            return act(ActionKind.CHECK)
        if choice == "call":
            if all_in_to <= h.current_bet:
                self.kind("call all-in")
                return choose.pick((act(ActionKind.ALLIN), act(ActionKind.CALL, all_in_to)))
            return choose.pick((act(ActionKind.CALL, h.current_bet), act(ActionKind.CALL)))
        if least > most:  # only an all-in short of a full raise is left
            to = all_in_to
        elif table.game.is_fixed_limit:
            to = least
        else:
            to = choose.pick((least, most, choose.number(least, most)))
            if to != all_in_to:
                to = max(least, to // unit * unit)
        kind = ActionKind.BET if h.current_bet == 0 else ActionKind.RAISE
        if to >= all_in_to:
            self.kind("all-in bet or raise")
            return choose.pick(
                (act(ActionKind.ALLIN), act(ActionKind.ALLIN, all_in_to), act(kind, all_in_to))
            )
        return act(kind, to)

    def _raise_range(self, seat: int, pot_limit_to: int, all_in_to: int) -> tuple[int, int]:
        """The smallest and the largest total bet of a bet or raise (all-in caps both)."""
        h, table = self.h, self.table
        if table.game.is_fixed_limit:
            size = table.bb if h.street <= Street.FLOP else 2 * table.bb
            to = h.current_bet + size
            return min(to, all_in_to), min(to, all_in_to)
        least = h.current_bet + h.min_raise if h.current_bet else table.bb
        least = -(-least // table.house_rules.chip_unit) * table.house_rules.chip_unit
        most = all_in_to
        if table.game.is_pot_limit:
            most = min(
                most, pot_limit_to // table.house_rules.chip_unit * table.house_rules.chip_unit
            )
        return min(least, all_in_to), most

    def _may_raise(self, seat: int) -> bool:
        """The betting is open to the seat (a full raise since it acted) and, in fixed limit,
        the cap is not reached."""
        h, table = self.h, self.table
        acted = h.acted_at[seat]
        if acted is not None:
            size = table.bb if h.street <= Street.FLOP else 2 * table.bb
            threshold = (size + 1) // 2 if table.game.is_fixed_limit else h.min_raise
            if h.current_bet - acted < threshold:
                return False
        if table.game.is_fixed_limit:
            live = len(h.seats) - len(h.folded)
            uncapped = live == 2 and not table.house_rules.fl_cap_heads_up
            return uncapped or h.limit_bets < table.house_rules.fl_max_bets
        return True

    # --- the end ---------------------------------------------------------------------------

    def settlement(self, extra: Sequence[Event] = ()) -> Settlement:
        """What the engine computes for the hand so far, with ``extra`` events after it."""
        end = HandEnd(seq=0, ts_ms=0, hand=self.hand)
        events = [self.table, *self.events, *extra, end]
        numbered = [replace(e, seq=i + 1) for i, e in enumerate(events)]
        return play_hand(numbered, RuleSet([])).settlement

    def emit_all_in_shows_before_the_board(self) -> None:
        """Tournaments: every live hand face up once an all-in is called and the betting is over
        (before the next card)."""
        h = self.h
        if not self.table.house_rules.tournament or h.record.betting_over_seq is None:
            return
        if not any(seat in h.all_in for seat in h.live()):
            return
        for seat in shuffled(self.choose, [s for s in h.live() if s not in h.shown]):
            self.table_hand(seat)
            self.kind("all-in hands tabled before the board (tournament)")

    def table_hand(self, seat: int) -> None:
        """The seat tables its hand: all at once, or one card after another."""
        cards = tuple(self.holes[seat])
        if self.choose.chance(0.2):
            for i in range(1, len(cards) + 1):
                self.emit(
                    Show(
                        seq=0,
                        ts_ms=0,
                        seat=seat,
                        cards=cards[:i] if self.choose.chance(0.5) else cards[i - 1 : i],
                    )
                )
            self.kind("hand tabled one card at a time")
        else:
            self.emit(Show(seq=0, ts_ms=0, seat=seat, cards=cards))

    def counts(self) -> None:
        """Vision may count a seat's chips, the tray its own, at any quiet moment."""
        h = self.h
        if self.choose.chance(0.2) and not h.record.awards:
            seat = self.choose.pick(h.seats)
            self.emit(StackCount(seq=0, ts_ms=0, seat=seat, amount=h.stacks[seat]))
            self.kind("a stack counted")
        if self.tray is not None and self.choose.chance(0.1):
            self.emit(TrayCount(seq=0, ts_ms=0, counts=self.tray))
            self.kind("the tray counted")

    def uncontested(self) -> None:
        h, choose = self.h, self.choose
        winner = h.live()[0]
        s = self.settlement()
        owner, back = next(iter(s.returned.items()), (None, 0))
        if self.returned:
            back = 0
        pot = sum(s.awards.values())
        ending = choose.pick(("keeps", "mucks before", "mucks after", "shows one", "shows all"))
        self.kind(f"uncontested: winner {ending}")
        cards = self.holes[winner]
        if ending == "mucks before":
            self.emit(Muck(seq=0, ts_ms=0, seat=winner, by=choose.pick((None, MuckedBy.PLAYER))))
        elif ending == "shows one":
            self.emit(Show(seq=0, ts_ms=0, seat=winner, cards=(choose.pick(cards),)))
        elif ending == "shows all":
            self.emit(Show(seq=0, ts_ms=0, seat=winner, cards=tuple(cards)))
        self.rake_and_push(s, {winner: pot} if pot else {}, owner if back else None, back)
        if ending == "mucks after":
            self.emit(Muck(seq=0, ts_ms=0, seat=winner))

    def showdown(self) -> None:
        h, choose = self.h, self.choose
        self.emit_all_in_shows_before_the_board()
        live = h.live()
        everyone = self.settlement(
            [
                Show(seq=0, ts_ms=0, seat=s, cards=tuple(self.holes[s]))
                for s in live
                if s not in h.shown
            ]
        )
        winners = {seat for shares in everyone.shares.values() for seat in shares}
        all_in = any(seat in h.all_in for seat in live)
        tournament = self.table.house_rules.tournament
        if all_in:
            self.kind("all-in showdown")
        first = h.record.aggressor.get(Street.RIVER)
        if first is None or first not in live:
            first = next(s for s in h.clockwise_from(self.button) if s in live)
        order = [first, *(s for s in h.clockwise_from(first) if s in live and s != first)]
        volunteer = None
        if not all_in and len(order) > 1 and choose.chance(0.25):
            volunteer = choose.pick(order[1:])  # a player may table before the one due first
            order = [volunteer, *(s for s in order if s != volunteer)]
            self.kind("a hand tabled before the one due first, of the player's own will")
        shown_or_mucked: list[int] = []
        for seat in order:
            if seat in h.shown:
                continue
            must_show = seat in winners or (all_in and tournament) or seat == volunteer
            if must_show or choose.chance(0.4):
                self.table_hand(seat)
                if seat not in winners and self.choose.chance(0.3):
                    self.emit(Muck(seq=0, ts_ms=0, seat=seat, by=MuckedBy.DEALER))
                    self.kind("losing hand killed as soon as it is shown")
                if seat not in winners and seat == h.record.aggressor.get(Street.RIVER):
                    self.kind("called hand shown on request")
            else:
                self.emit(Muck(seq=0, ts_ms=0, seat=seat, by=choose.pick((None, MuckedBy.PLAYER))))
                self.kind("loser mucks without showing")
            shown_or_mucked.append(seat)
        losers = [s for s in live if s not in winners and s not in h.mucked]
        for seat in shuffled(choose, losers):
            self.emit(Muck(seq=0, ts_ms=0, seat=seat, by=choose.pick((None, MuckedBy.DEALER))))
        if len(losers) > 1:
            self.kind("several losing hands killed, in any order")
        s = self.settlement()
        owner, back = next(iter(s.returned.items()), (None, 0))
        if self.returned:
            back = 0
        if any(len(shares) > 1 for shares in s.shares.values()):
            self.kind("split pot")
            if any(len(set(shares.values())) > 1 for shares in s.shares.values()):
                self.kind("odd chip")
        if len(s.pots) > 1:
            self.kind("side pots")
        self.rake_and_push(s, None, owner if back else None, back)

    def rake_and_push(
        self, s: Settlement, lump: dict[int, int] | None, owner: int | None, back: int
    ) -> None:
        """The rake dropped (before or after the push) and the pots pushed, side pots first;
        the uncalled bet handed back on its own or with the owner's chips."""
        choose, h = self.choose, self.h
        pushes: list[tuple[int, int, str, bool]] = []
        """(seat, chips, pot, whether it is the uncalled bet handed back on its own)"""
        if lump is not None:
            pushes = [(seat, amount, "main", False) for seat, amount in lump.items()]
        else:
            for pot in reversed(s.pots):
                shares = s.shares.get(pot.name, {})
                for seat in shuffled(choose, list(shares)):
                    pushes.append((seat, shares[seat], pot.name, False))
        if owner is not None and back:
            merge = [i for i, push in enumerate(pushes) if push[0] == owner]
            how = choose.pick(("apart, first", "apart, last", "with the pot"))
            if how == "with the pot" and merge:
                seat, amount, name, _ = pushes[merge[0]]
                pushes[merge[0]] = (seat, amount + back, name, False)
            elif how == "apart, last":
                pushes.append((owner, back, UNCALLED_POT, True))
            else:
                pushes.insert(0, (owner, back, choose.pick((UNCALLED_POT, "main")), True))
            self.kind(f"uncalled bet handed back {how}")
        rake_first = choose.chance(0.5)
        if s.rake and rake_first:
            self.emit(Rake(seq=0, ts_ms=0, amount=s.rake))
        unlabelled = choose.chance(0.15)
        if unlabelled:
            self.kind("pots pushed without their names")
        for seat, amount, name, handed_back in pushes:
            if unlabelled and name != UNCALLED_POT:
                name = "main"
            if amount > 1 and choose.chance(0.1) and not handed_back:
                part = choose.number(1, amount - 1)
                self.emit(Award(seq=0, ts_ms=0, seat=seat, amount=part, pot=name))
                amount -= part
                self.kind("a pot pushed in two stacks")
            if amount:
                self.emit(Award(seq=0, ts_ms=0, seat=seat, amount=amount, pot=name))
        if self.choose.chance(0.3):  # the counts after the push
            for seat in h.seats:
                if seat in h.all_in and seat not in {p[0] for p in pushes}:
                    self.emit(StackCount(seq=0, ts_ms=0, seat=seat, amount=0))
                    self.kind("an all-in loser counted after the push")
        if s.rake and not rake_first:
            self.emit(Rake(seq=0, ts_ms=0, amount=s.rake))
        if s.rake:
            self.kind("rake taken")
