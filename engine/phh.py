"""PHH (Poker Hand History, phh-std) <-> table event log v1.

Files are read and written with pokerkit's ``HandHistory`` (the maintained PHH implementation).
PHH orders players by position: p1 is the first seat left of the button and the last player is
the button (heads-up, pokerkit's convention: p1 is the big blind and p2 the button).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any

from pokerkit import HandHistory

from engine.cards import CardError, parse_cards
from engine.errors import EventError
from engine.events import (
    Action,
    ActionKind,
    Ante,
    Blind,
    CardSeen,
    Event,
    Face,
    Game,
    HandEnd,
    HandStart,
    HouseRules,
    Muck,
    ShoeDraw,
    Show,
    TableConfig,
)
from engine.hand import BOARD_SIZE_AT, Hand
from engine.settlement import Settlement, settle

GAME_OF_VARIANT = {"NT": Game.NLHE, "FT": Game.FLHE, "PO": Game.PLO}
VARIANT_OF_GAME = {game: variant for variant, game in GAME_OF_VARIANT.items()}


class PhhError(ValueError):
    """A PHH hand that cannot be read or converted (with the reason)."""


def _per_seat(
    seats: list[int], values: object, field: str, chips: Callable[[object], int]
) -> dict[int, int]:
    """One amount of ``field`` per player, by seat."""
    amounts = list(values) if isinstance(values, list | tuple) else []
    if len(amounts) != len(seats):
        raise PhhError(f"{field}: {len(amounts)} amounts for {len(seats)} players")
    return dict(zip(seats, (chips(v) for v in amounts), strict=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class PhhHand:
    """One converted hand: its events and what the file says each seat finished with."""

    path: str
    hand: str
    events: tuple[Event, ...]
    finishing_stacks: dict[int, int] | None
    """In the events' chip units."""
    units_per_chip: int
    """The events count in the file's smallest unit: Pluribus files split odd chips in halves,
    so their hands are converted with 2 units per chip."""


AMOUNT = (int, float, Decimal, Fraction, str)
LIST_FIELDS: dict[str, tuple[type, ...]] = {
    "starting_stacks": AMOUNT,
    "antes": AMOUNT,
    "blinds_or_straddles": AMOUNT,
    "finishing_stacks": AMOUNT,
    "actions": (str,),
    "players": (str,),
    "seats": (int,),
}
"""The fields of a hand that are lists, and what their items may be (amounts may be written as
decimals or fractions)."""


def load(path: Path) -> HandHistory:
    """The hand of a ``.phh`` file."""
    try:
        with path.open("rb") as stream:
            hh = HandHistory.load(stream)
    except Exception as exc:  # pokerkit raises TOML, key and value errors alike
        raise PhhError(f"cannot read PHH: {exc}") from exc
    return _checked(hh)


def load_all(path: Path) -> list[HandHistory]:
    """The hands of a file: one for ``.phh``, every numbered section of a ``.phhs``."""
    if path.suffix != ".phhs":
        return [load(path)]
    try:
        hands = list(HandHistory.loads_all(path.read_text(encoding="utf-8")))
    except Exception as exc:  # as ``load``
        raise PhhError(f"cannot read PHHS: {exc}") from exc
    return [_checked(hh) for hh in hands]


def _checked(hh: HandHistory) -> HandHistory:
    for name, kinds in LIST_FIELDS.items():
        value = getattr(hh, name, None)
        if value is None:
            continue
        if not isinstance(value, list) or not all(
            isinstance(v, kinds) and not isinstance(v, bool) for v in value
        ):
            expected = "amounts" if kinds is AMOUNT else f"{kinds[0].__name__} values"
            raise PhhError(f"{name}: a list of {expected}, not {value!r:.60}")
    return hh


def iter_phh_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The ``.phh`` and ``.phhs`` files named, and those under the folders named, in sorted
    order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.phh*") if p.suffix in (".phh", ".phhs"))
        else:
            yield path


def _units_per_chip(hh: HandHistory) -> int:
    """The least multiplier that makes every amount of the file a whole number."""
    values: list[object] = [
        *hh.starting_stacks,
        *(hh.antes or []),
        *(hh.blinds_or_straddles or []),
        *(hh.finishing_stacks or []),
        hh.min_bet or 0,
        hh.small_bet or 0,
        hh.big_bet or 0,
    ]
    for raw in hh.actions:
        words = raw.split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "cbr":
            values.append(words[2])
    try:
        return lcm(1, *(_denominator(v) for v in values))
    except (ValueError, ZeroDivisionError) as exc:
        raise PhhError(f"bad amount: {exc}") from None


def _denominator(value: object) -> int:
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return 1
    return Fraction(str(value)).denominator


def _by_position(values: Sequence[int], count: int) -> list[int]:
    """pokerkit swaps the two positions' blinds and antes heads-up."""
    padded = [*values, *([0] * count)][:count]
    return [padded[1], padded[0]] if count == 2 else padded


class _Writer:
    """Numbers the events it writes and plays them on ``hand`` (once set) to know the state."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.shoe_seq = 0
        self.hand: Hand | None = None

    def add(self, cls: type[Event], **fields: Any) -> None:
        event = cls(seq=len(self.events) + 1, ts_ms=0, **fields)
        self.events.append(event)
        if self.hand is not None:
            try:
                self.hand.apply(event)
            except EventError as exc:
                raise PhhError(f"{event.TYPE}: {exc}") from None

    def deal(self, card: str | None, to: str, face: Face) -> None:
        if card is not None:
            self.shoe_seq += 1
            self.add(ShoeDraw, card=card, shoe_seq=self.shoe_seq)
        self.add(CardSeen, to=to, face=face, card=card if face is Face.UP else None)


def to_events(hh: HandHistory, *, path: str = "", table: str = "phh") -> PhhHand:
    """Convert a parsed PHH hand into the table event log."""
    game = GAME_OF_VARIANT.get(hh.variant)
    if game is None:
        raise PhhError(f"variant {hh.variant!r} is not a hold'em game the engine plays")
    unit = _units_per_chip(hh)

    def chips(value: object) -> int:
        if isinstance(value, int):
            return value * unit
        return int(Fraction(str(value)) * unit)

    count = len(hh.starting_stacks)
    if count < 2:
        raise PhhError(f"starting_stacks: {count} players; a hand needs at least 2")
    seats = list(hh.seats) if hh.seats else list(range(1, count + 1))
    if len(seats) != count:
        raise PhhError(f"seats: {len(seats)} seats for {count} players")
    seat_count = max(hh.seat_count or 0, max(seats))
    blinds = _by_position([chips(v) for v in hh.blinds_or_straddles or []], count)
    if count == 2 and any(blinds[2:]):
        raise PhhError("heads-up straddles are not supported")
    antes = _by_position([chips(v) for v in hh.antes or []], count)
    sb, bb = (blinds[0], blinds[1]) if count > 2 else (blinds[1], blinds[0])
    if game is Game.FLHE and (chips(hh.small_bet) != bb or chips(hh.big_bet) != 2 * bb):
        raise PhhError("fixed limit needs small bet = big blind and big bet = 2 big blinds")
    big_blind_seat_index = 1 if count > 2 else 0
    nonzero = [i for i, ante in enumerate(antes) if ante]
    bb_ante = antes[big_blind_seat_index] if nonzero == [big_blind_seat_index] else 0
    hand_id = str(hh.hand) if hh.hand is not None else Path(path).stem
    out = _Writer()
    out.add(
        TableConfig,
        table=str(hh.table) if hh.table is not None else table,
        game=game,
        seats=seat_count,
        sb=sb,
        bb=bb,
        ante=0 if bb_ante else max(antes),
        bb_ante=bb_ante,
        **_rake_terms(hh.user_defined_fields, chips),
    )
    stacks = _per_seat(seats, hh.starting_stacks, "starting_stacks", chips)
    out.add(HandStart, hand=hand_id, button=seats[-1], stacks=stacks)
    config, start = out.events
    assert isinstance(config, TableConfig) and isinstance(start, HandStart)
    try:
        hand = out.hand = Hand(config, start)
    except EventError as exc:
        raise PhhError(str(exc)) from None
    for i, ante in enumerate(antes):
        if ante:
            out.add(Ante, seat=seats[i], amount=min(ante, stacks[seats[i]]))
    for i in [1, 0] if count == 2 else range(count):
        if blinds[i]:
            out.add(Blind, seat=seats[i], amount=min(blinds[i], hand.stacks[seats[i]]))

    hole: dict[int, list[str | None]] = {}
    dealt = False
    for raw in hh.actions:
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if words[:2] == ["d", "dh"] and len(words) == 4:
            hole[_seat_of(words[2], seats)] = _cards_or_unknown(words[3])
            continue
        if not dealt:
            _deal_hole(out, hole, seats)
            dealt = True
        if words[:2] == ["d", "db"] and len(words) == 3:
            # pokerkit burns one unknown card ('??') before each board round.
            out.add(CardSeen, to="burn", face=Face.DOWN, card=None)
            for card in _known(words[2]):
                out.deal(card, "board", Face.UP)
            continue
        seat = _seat_of(words[0], seats)
        verb, rest = words[1] if len(words) > 1 else "", words[2:]
        if verb in ("f", "cc", "cbr"):
            _infer_skipped(out, hand, seat)
        my_bet = hand.street_bets[seat]
        if verb == "f":
            out.add(Action, seat=seat, action=ActionKind.FOLD)
        elif verb == "cc":
            to = min(hand.current_bet, my_bet + hand.stacks[seat])
            kind = ActionKind.CHECK if to == my_bet else ActionKind.CALL
            out.add(Action, seat=seat, action=kind, to=None if kind is ActionKind.CHECK else to)
        elif verb == "cbr" and len(rest) == 1:
            kind = ActionKind.RAISE if hand.current_bet else ActionKind.BET
            out.add(Action, seat=seat, action=kind, to=chips(rest[0]))
        elif verb == "sm" and (not rest or rest == ["????"]):
            out.add(Muck, seat=seat)
        elif verb == "sm" and len(rest) == 1:
            shown = rest[0] if rest[0] != "-" else "".join(c or "??" for c in hole.get(seat, []))
            out.add(Show, seat=seat, cards=_known(shown))
        else:
            raise PhhError(f"action {raw!r} is not supported")
    if not dealt:
        _deal_hole(out, hole, seats)
    out.hand = None
    out.add(HandEnd, hand=hand_id)
    finishing = None
    if hh.finishing_stacks is not None:
        finishing = _per_seat(seats, hh.finishing_stacks, "finishing_stacks", chips)
    return PhhHand(
        path=path,
        hand=hand_id,
        events=tuple(out.events),
        finishing_stacks=finishing,
        units_per_chip=unit,
    )


def _infer_skipped(out: _Writer, hand: Hand, seat: int) -> None:
    """PHH may leave out the actions of players skipped before ``seat``: like pokerkit, read
    them as a check where checking is free and as a fold otherwise (marked ``inferred``)."""
    skipped = hand.next_actor()
    while skipped is not None and skipped != seat:
        free = hand.street_bets[skipped] >= hand.current_bet
        kind = ActionKind.CHECK if free else ActionKind.FOLD
        out.add(Action, seat=skipped, action=kind, extra={"inferred": True})
        skipped = hand.next_actor()


def _seat_of(player: str, seats: Sequence[int]) -> int:
    if not (player.startswith("p") and player[1:].isdigit()) or not (
        1 <= int(player[1:]) <= len(seats)
    ):
        raise PhhError(f"unknown player {player!r}")
    return seats[int(player[1:]) - 1]


def _known(text: str) -> tuple[str, ...]:
    try:
        return parse_cards(text)
    except CardError as exc:
        raise PhhError(str(exc)) from None


def _cards_or_unknown(text: str) -> list[str | None]:
    pairs = [text[i : i + 2] for i in range(0, len(text), 2)]
    return [None if pair == "??" else _known(pair)[0] for pair in pairs]


def _deal_hole(out: _Writer, hole: dict[int, list[str | None]], seats: Sequence[int]) -> None:
    """One card at a time, clockwise from the first seat left of the button (R-DEAL-1)."""
    rounds = max((len(cards) for cards in hole.values()), default=0)
    for k in range(rounds):
        for seat in seats:
            cards = hole.get(seat, [])
            if k < len(cards):
                out.deal(cards[k], f"seat:{seat}", Face.DOWN)


# --- export --------------------------------------------------------------------------------


def split_hands(events: Iterable[Event]) -> Iterator[tuple[TableConfig, list[Event]]]:
    """The events of each hand (``hand_start`` .. ``hand_end``) with the table they were on."""
    config: TableConfig | None = None
    current: list[Event] | None = None
    for event in events:
        if isinstance(event, TableConfig):
            config = event
        elif isinstance(event, HandStart):
            if current and config is not None:
                yield config, current
            current = [event]
        elif current is not None:
            current.append(event)
            if isinstance(event, HandEnd):
                assert config is not None
                yield config, current
                current = None
    if current and config is not None:
        yield config, current


def from_events(config: TableConfig, events: Sequence[Event]) -> HandHistory:
    """Write one hand of the event log as a PHH ``HandHistory``."""
    start = events[0]
    assert isinstance(start, HandStart)
    variant = VARIANT_OF_GAME[config.game]
    hand = Hand(config, start)
    order = hand.clockwise_from(start.button)
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    count = len(order)
    antes = [0] * count
    blinds = [0] * count
    actions: list[str] = []
    shown_at: dict[int, int] = {}
    """Where each seat's tabled hand is in ``actions``."""
    killed: dict[str, str] = {}
    for event in events[1:]:
        if isinstance(event, Ante):
            antes[order.index(event.seat)] += event.amount
        elif isinstance(event, Blind):
            blinds[order.index(event.seat)] += event.amount
        elif isinstance(event, Action):
            actions.append(_phh_action(hand, event, player[event.seat]))
        elif isinstance(event, Show):
            shown_at[event.seat] = len(actions)
            actions.append(f"{player[event.seat]} sm {''.join(event.cards)}")
        elif isinstance(event, Muck) and event.seat not in hand.folded and hand.round_open:
            actions.append(f"{player[event.seat]} f")  # thrown away in the betting: a fold
        elif isinstance(event, Muck) and event.seat not in hand.shown:
            actions.append(f"{player[event.seat]} sm")
        if not isinstance(event, HandEnd):
            board_before = len(hand.board)
            hand.apply(event)
            if len(hand.board) != board_before and len(hand.board) in BOARD_SIZE_AT.values():
                first = max((n for n in (0, 3, 4) if n < len(hand.board)), default=0)
                actions.append(f"d db {''.join(hand.board[first:])}")
    dealing = [
        f"d dh {player[seat]} {''.join(card or '??' for card in hand.hole[seat])}" for seat in order
    ]
    report = hand.finish(complete=True, seq=events[-1].seq)
    finishing = report.settlement.finishing_stacks
    for seat in _killed_winners(hand, report.settlement, shown_at):
        # A winning hand tabled, then killed: PHH has no such step (a tabled hand stays in its
        # showdown), so it is written as mucked there, as the pot was settled, and what it
        # showed is kept beside.
        killed[player[seat]] = "".join(hand.shown[seat])
        actions[shown_at[seat]] = f"{player[seat]} sm"
    fields: dict[str, Any] = {
        "variant": variant,
        "ante_trimming_status": not config.bb_ante,
        "antes": _by_position(antes, count),
        "blinds_or_straddles": _by_position(blinds, count),
        "starting_stacks": [start.stacks[seat] for seat in order],
        "actions": dealing + actions,
        "hand": start.hand,
        "table": config.table,
        "seats": order,
        "seat_count": config.seats,
        "finishing_stacks": [finishing[s] for s in order] if finishing is not None else None,
    }
    extra: dict[str, Any] = {}
    if killed:
        extra["_tabled_then_killed"] = killed
    if config.rake_pct:  # the house's terms, so a replay takes the same rake (PHH has none)
        extra |= {
            "_rake": report.settlement.rake,
            "_rake_percentage": str(config.rake_pct),
            "_rake_cap": config.rake_cap,
            "_no_flop_no_drop": config.house_rules.no_flop_no_drop,
        }
    if extra:
        fields["user_defined_fields"] = extra
    if variant == "FT":
        fields.update(small_bet=config.bb, big_bet=2 * config.bb)
    else:
        fields["min_bet"] = config.bb
    return HandHistory(**fields)


def _killed_winners(hand: Hand, settled: Settlement, tabled: Iterable[int]) -> list[int]:
    """The seats whose hand was tabled, then killed, and would have won chips left in."""
    killed = [seat for seat in tabled if seat in hand.mucked]
    if not killed:
        return []
    kept = settle(
        table=hand.table,
        button=hand.button,
        committed=hand.committed,
        behind=hand.stacks,
        dead_main=hand.dead_main,
        live=[*hand.live(), *killed],
        mucked=hand.mucked - set(killed),
        board=hand.board,
        shown=hand.shown,
        rake_taken=len(hand.board) >= 3 or not hand.table.house_rules.no_flop_no_drop,
    )
    return [seat for seat in killed if kept.awards.get(seat, 0) > settled.awards.get(seat, 0)]


def _rake_terms(fields: dict[str, Any], chips: Callable[[object], int]) -> dict[str, Any]:
    """The house's rake terms a Feltwatch export writes as user-defined fields (``_rake_percentage``
    in percent, ``_rake_cap`` in chips, 0 for none, ``_no_flop_no_drop``); none: no rake."""
    if "_rake_percentage" not in fields:
        return {}
    try:
        pct = Decimal(str(fields["_rake_percentage"]))
        cap = chips(fields.get("_rake_cap", 0))
    except (ArithmeticError, ValueError, TypeError):
        raise PhhError("_rake_percentage, _rake_cap: a percentage and a number of chips") from None
    no_drop = fields.get("_no_flop_no_drop", True)
    if not pct.is_finite() or not 0 <= pct <= 100 or cap < 0 or not isinstance(no_drop, bool):
        raise PhhError("_rake_percentage 0 to 100, _rake_cap 0 or more, _no_flop_no_drop a boolean")
    return {"rake_pct": pct, "rake_cap": cap, "house_rules": HouseRules(no_flop_no_drop=no_drop)}


def _phh_action(hand: Hand, event: Action, who: str) -> str:
    if event.action is ActionKind.FOLD:
        return f"{who} f"
    my_bet = hand.street_bets[event.seat]
    to = event.to
    if event.action is ActionKind.ALLIN:
        to = my_bet + hand.stacks[event.seat]
    if event.action in (ActionKind.CHECK, ActionKind.CALL) or to is None or to <= hand.current_bet:
        return f"{who} cc"
    return f"{who} cbr {to}"


def dump_histories(histories: Sequence[HandHistory]) -> str:
    """One hand as ``.phh``; several as ``.phhs`` (numbered sections)."""
    if len(histories) == 1:
        return str(histories[0].dumps()) + "\n"
    return str(HandHistory.dumps_all(histories)) + "\n" if histories else ""
