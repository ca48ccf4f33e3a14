"""Fusion: camera observations and shoe reads of a hand become the event log, and the rules
judge it: a clean hand raises nothing; an exposed card, a short push or a card the camera names
differently from the shoe each raise their alert."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

import pytest

import engine.fusion as fusion_module
from engine.events import (
    Action,
    ActionKind,
    Award,
    Blind,
    CardSeen,
    Event,
    Game,
    HandEnd,
    Muck,
    Rake,
    ShoeDraw,
    Show,
    TableConfig,
)
from engine.fusion import Fusion
from engine.inputs import CardDrawn
from engine.observations import (
    CardAppeared,
    CardGone,
    CardMoved,
    CardTurned,
    ChipsInZone,
    EngineInput,
    Face,
    Observation,
)
from engine.session import check

TABLE = TableConfig(
    seq=0, ts_ms=0, table="T", game=Game.NLHE, seats=3, sb=50, bb=100, rake_pct=Decimal(0)
)


@dataclass
class Script:
    """Builds the inputs of a hand as the camera and the shoe would report them."""

    items: list[EngineInput] = field(default_factory=list)
    ts_ns: int = 0
    track: int = 0
    shoe_seq: int = 0
    tracks: dict[str, int] = field(default_factory=dict)

    def _ts(self) -> int:
        self.ts_ns += 100_000_000
        return self.ts_ns

    def chips(self, zone: str, amount: int, *, full: bool = False) -> None:
        self.items.append(
            ChipsInZone(
                ts_ns=self._ts(),
                camera="c",
                zone=zone,
                counts={1: amount} if amount else {},
                full=full,
            )
        )

    def deal(self, card: str, zone: str, face: Face = Face.DOWN, seen: str | None = None) -> None:
        self.draw(card)
        self.lands(card, zone, face, seen)

    def draw(self, card: str) -> None:
        self.shoe_seq += 1
        self.items.append(
            CardDrawn(
                ts_ns=self._ts(),
                device="shoe",
                card=card,
                tag_id=0,
                shoe_seq=self.shoe_seq,
                deck_id=1,
            )
        )

    def lands(self, card: str, zone: str, face: Face = Face.DOWN, seen: str | None = None) -> None:
        """The camera sees the card come to rest (a new track)."""
        self.track += 1
        self.tracks[card] = self.track
        name = (seen or card) if face is Face.UP else None
        self.items.append(
            CardAppeared(
                ts_ns=self._ts(),
                camera="c",
                track=self.track,
                zone=zone,
                face=face,
                card=name,
                conf=0.9,
            )
        )

    def turn(self, card: str, zone: str) -> None:
        self.items.append(
            CardTurned(
                ts_ns=self._ts(),
                camera="c",
                track=self.tracks[card],
                zone=zone,
                face=Face.UP,
                card=card,
                conf=0.9,
            )
        )

    def muck(self, card: str, seat: int) -> None:
        self.items.append(
            CardMoved(
                ts_ns=self._ts(),
                camera="c",
                track=self.tracks[card],
                source=f"seat:{seat}",
                zone="muck",
                face=Face.DOWN,
                card=None,
                conf=0.9,
            )
        )

    def gone(self, card: str, zone: str) -> None:
        self.items.append(
            CardGone(ts_ns=self._ts(), camera="c", track=self.tracks.pop(card), zone=zone)
        )

    def clear(self) -> None:
        for track in self.tracks.values():
            self.items.append(CardGone(ts_ns=self._ts(), camera="c", track=track, zone="muck"))


HOLES = {2: ["As", "Ad"], 3: ["7c", "2d"], 1: ["Kh", "Qh"]}


def dealt(*, exposed: bool = False) -> tuple[Script, dict[int, list[str]]]:
    """Three seats of 1000, the blinds posted (button 1, small blind 2, big blind 3) and the
    hole cards dealt (``exposed``: seat 1's first one lands face up); the cards by seat."""
    s = Script()
    for seat in (1, 2, 3):
        s.chips(f"stack:{seat}", 1000)
    s.chips("bet:2", 50)
    s.chips("stack:2", 950)
    s.chips("bet:3", 100)
    s.chips("stack:3", 900)
    for round_ in (0, 1):
        for seat in (2, 3, 1):
            face = Face.UP if exposed and seat == 1 and round_ == 0 else Face.DOWN
            s.deal(HOLES[seat][round_], f"seat:{seat}", face)
    return s, HOLES


def a_hand(
    *,
    exposed: bool = False,
    push: int = 900,
    board_seen: str | None = None,
    late: bool = False,
) -> Script:
    """``late``: the camera sees the flop's burn after the flop's first card, seat 3's fold on
    the turn after seat 1's call that follows it, loses the river's burn from view and finds it
    again, sees the river card after the bet that follows it, the push's stack before the pot
    it left, and the losing hand's kill after the push."""
    s, holes = dealt(exposed=exposed)
    s.chips("bet:1", 100)  # seat 1 calls
    s.chips("stack:1", 900)
    s.chips("bet:2", 100)  # seat 2 completes; seat 3 checks (unseen)
    s.chips("stack:2", 900)
    for seat in (1, 2, 3):
        s.chips(f"bet:{seat}", 0)
    s.chips("pot", 300)
    if late:
        s.draw("3h")
        s.deal("9s", "board", Face.UP)
        s.lands("3h", "burn")
    else:
        s.deal("3h", "burn")
        s.deal("9s", "board", Face.UP)
    for card in ("8s", "4c"):
        s.deal(card, "board", Face.UP, board_seen if card == "8s" else None)
    # Everyone checks the flop (unseen). Turn: seat 2 bets 200, seat 3 folds, seat 1 calls.
    s.deal("5d", "burn")
    s.deal("Jd", "board", Face.UP)
    s.chips("bet:2", 200)
    s.chips("stack:2", 700)
    if late:  # seat 1's call comes to rest before seat 3's cards on the muck
        s.chips("bet:1", 200)
        s.chips("stack:1", 700)
    s.muck("7c", 3)
    s.muck("2d", 3)
    if not late:
        s.chips("bet:1", 200)
        s.chips("stack:1", 700)
    for seat in (1, 2):
        s.chips(f"bet:{seat}", 0)
    s.chips("pot", 700)
    s.deal("6h", "burn")
    if late:
        s.gone("6h", "burn")
        s.lands("6h", "burn")
        s.draw("2s")
        s.chips("bet:2", 100)
        s.lands("2s", "board", Face.UP)
    else:
        s.deal("2s", "board", Face.UP)
        s.chips("bet:2", 100)
    # River: seat 2 bets 100, seat 1 calls; showdown: seat 2 (aces) then seat 1, whose hand
    # the dealer kills.
    s.chips("stack:2", 600)
    s.chips("bet:1", 100)
    s.chips("stack:1", 600)
    for seat in (1, 2):
        s.chips(f"bet:{seat}", 0)
    s.chips("pot", 900)
    for seat, cards in ((2, holes[2]), (1, holes[1])):
        for card in cards:
            s.turn(card, f"seat:{seat}")
    if late:  # the stack seen growing before the pot seen empty (the pusher's hand over it),
        # and seat 1's killed hand found on the muck pile after the push
        s.chips("stack:2", 600 + push)
        s.chips("pot", 0)
        s.muck("Kh", 1)
        s.muck("Qh", 1)
    else:
        s.muck("Kh", 1)
        s.muck("Qh", 1)
        s.chips("pot", 0)
        s.chips("stack:2", 600 + push)
    s.clear()
    return s


def continued(script: Script, at: int, pause_ns: int = 0) -> Script:
    """A script of inputs to splice into ``script`` at ``at``: it goes on from the input
    before (``pause_ns`` later), with the same cards."""
    before: int = script.items[at - 1].ts_ns
    return Script(ts_ns=before + pause_ns, tracks=script.tracks)


def fuse(script: Script) -> list[Event]:
    fusion = Fusion(TABLE, button=1)
    out: list[Event] = []
    for item in script.items:
        out.extend(fusion.feed(item))
    return out


def alerts(events: list[Event]) -> list[tuple[str, str, int | None]]:
    result = check(((e.seq, e) for e in events), "fused")
    assert not result.errors, result.errors
    return [(a.family, a.rule, a.seat) for a in result.alerts]


def test_a_clean_hand_becomes_the_log_it_was_and_raises_nothing() -> None:
    events = fuse(a_hand())
    blinds = [(e.seat, e.amount) for e in events if isinstance(e, Blind)]
    assert blinds == [(2, 50), (3, 100)]
    actions = [(e.seat, e.action, e.to) for e in events if isinstance(e, Action)]
    assert actions == [
        (1, ActionKind.CALL, 100),
        (2, ActionKind.CALL, 100),
        (3, ActionKind.CHECK, None),  # the big blind's option: seen as nothing, inferred
        (2, ActionKind.CHECK, None),  # the flop checked around
        (3, ActionKind.CHECK, None),
        (1, ActionKind.CHECK, None),
        (2, ActionKind.BET, 200),
        (1, ActionKind.CALL, 200),
        (2, ActionKind.BET, 100),
        (1, ActionKind.CALL, 100),
    ]
    assert [(e.seat, e.cards) for e in events if isinstance(e, Show)] == [
        (2, ("As", "Ad")),
        (1, ("Kh", "Qh")),
    ]
    assert [(e.seat, e.amount) for e in events if isinstance(e, Award)] == [(2, 900)]
    assert isinstance(events[-1], HandEnd)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert alerts(events) == []


def test_a_hole_card_that_lands_face_up_is_an_exposed_card() -> None:
    events = fuse(a_hand(exposed=True))
    assert any(
        isinstance(e, CardSeen) and e.face.value == "up" and e.to == "seat:1" for e in events
    )
    found = alerts(events)
    # The card is exposed; and the dealer (in this script) did not burn it before the flop.
    assert [(family, rule, seat) for family, rule, seat in found] == [
        ("exposed_card", "R-EXPOSE-4", 1),
        ("exposed_card", "R-EXPOSE-4", None),
    ]


def test_a_short_push_is_a_chip_miscount() -> None:
    found = alerts(fuse(a_hand(push=800)))
    assert [(family, seat) for family, _, seat in found] == [("chip_miscount", 2)], found


def test_a_card_the_camera_names_differently_from_the_shoe_is_caught() -> None:
    found = alerts(fuse(a_hand(board_seen="8c")))
    assert [rule for _, rule, _ in found] == ["R-DECK-12"], found


def test_observations_that_are_not_cards_or_chips_are_ignored() -> None:
    fusion = Fusion(TABLE, button=1)
    obs: Observation = CardGone(ts_ns=1, camera="c", track=9, zone="muck")
    assert fusion.feed(obs) == []


def test_what_the_camera_sees_late_or_twice_is_put_in_its_place() -> None:
    """A burn the camera tells from the pile after the board card (placed from the shoe's
    reads), a call seen before the fold of the seat before it (it waits for the fold), a bet
    seen before its street's card (it waits for the card), a burn lost from view and found
    again (not a second burn), a stack growing before the pot is seen to shrink (the award),
    and a losing hand's kill seen after the push (the push waits for it): the same log, no
    alert."""
    clean, late = fuse(a_hand()), fuse(a_hand(late=True))

    def log(events: list[Event]) -> list[tuple[object, ...]]:
        return [
            (e.TYPE, getattr(e, "to", None), getattr(e, "seat", None), getattr(e, "action", None))
            for e in events
            if not isinstance(e, ShoeDraw)  # the shoe reads are in the order they came
        ]

    assert log(late) == log(clean)
    assert alerts(late) == []


def test_a_hole_card_seen_in_the_pot_and_back_in_its_seat_is_not_a_card_thrown_in() -> None:
    """Before the showdown the camera sees one of seat 1's cards move to the pot (its box read
    across the line, or the card pushed forward) and come back: reported as a move back, or
    (found again as it lay) as the same track appearing there. Nothing new reached the seat:
    the same log as the clean hand, no alert (not R-MUCK-5: a card thrown into another hand)."""
    clean = fuse(a_hand())
    for back in (CardMoved, CardAppeared):
        script = a_hand()
        at = next(i for i, item in enumerate(script.items) if isinstance(item, CardTurned))
        detour = continued(script, at)
        track = script.tracks["Kh"]
        out = CardMoved(ts_ns=detour._ts(), camera="c", track=track, source="seat:1", zone="pot",
                        face=Face.DOWN, card=None, conf=0.5)  # fmt: skip
        ts = detour._ts()
        back_in: CardMoved | CardAppeared = (
            replace(out, ts_ns=ts, source="pot", zone="seat:1")
            if back is CardMoved
            else CardAppeared(ts_ns=ts, camera="c", track=track, zone="seat:1", face=Face.DOWN,
                              card=None, conf=0.5)
        )  # fmt: skip
        detour.items += [out, back_in]
        script.items[at:at] = detour.items
        events = fuse(script)
        assert [(e.TYPE, getattr(e, "to", None)) for e in events] == [
            (e.TYPE, getattr(e, "to", None)) for e in clean
        ], back
        assert alerts(events) == [], back


def test_a_push_while_the_losing_hand_lies_on_the_table_is_judged_when_no_kill_comes() -> None:
    """The push waits a while for a kill seen after it; none comes (the dealer collects the
    hand with the rest): the pot was pushed with the losing hand still on the table."""
    script = a_hand()
    script.items = [
        item
        for item in script.items
        if not (isinstance(item, CardMoved) and item.source == "seat:1")
    ]
    events = fuse(script)
    assert [type(e).__name__ for e in events if isinstance(e, Award | HandEnd)] == [
        "Award",
        "HandEnd",
    ]
    assert alerts(events) == [("mucked_winner", "R-MUCK-8", 1)]


def test_a_shown_card_misread_as_a_card_lying_elsewhere_takes_the_shoes_read() -> None:
    """At the showdown the camera reads seat 2's ace of spades as the nine of spades that lies
    on the board: that is the camera misreading it, not a second nine: the shoe's read names
    it."""
    script = a_hand()
    at = next(
        i
        for i, item in enumerate(script.items)
        if isinstance(item, CardTurned) and item.card == "As"
    )
    turned = script.items[at]
    assert isinstance(turned, CardTurned)
    script.items[at] = replace(turned, card="9s", conf=0.95)
    events = fuse(script)
    assert next(e.cards for e in events if isinstance(e, Show)) == ("As", "Ad")
    assert alerts(events) == []


def test_the_winners_cards_collected_to_the_muck_after_the_push_are_not_a_kill() -> None:
    """After the push the dealer collects the winner's cards, and the camera sees them go to
    the muck: the hand was paid, so they were not killed (no mucked-winner alert)."""
    script = a_hand()
    at = next(i for i, item in enumerate(script.items) if isinstance(item, CardGone))
    collected = continued(script, at)
    for card in ("As", "Ad"):
        collected.muck(card, 2)
    script.items[at:at] = collected.items
    events = fuse(script)
    assert [e.seat for e in events if isinstance(e, Muck)] == [3, 1]  # the fold, the kill
    assert alerts(events) == []


def _pot_emptied(script: Script) -> int:
    """Where the camera sees the pot emptied by the push."""
    return next(
        i
        for i, item in enumerate(script.items)
        if isinstance(item, ChipsInZone) and item.zone == "pot" and item.amount == 0
    )


def test_chips_a_folded_seats_stack_seems_to_gain_at_the_push_are_not_its_award() -> None:
    """As the pot is pushed to seat 2, the camera reads one chip more in seat 3's stack (it
    folded on the turn): a folded seat wins nothing, so the whole pot is seat 2's."""
    script = a_hand()
    at = _pot_emptied(script)
    flicker = continued(script, at)
    flicker.chips("stack:3", 925)
    script.items[at:at] = flicker.items
    events = fuse(script)
    assert [(e.seat, e.amount) for e in events if isinstance(e, Award)] == [(2, 900)]
    assert alerts(events) == []


def test_chips_a_stack_shows_again_after_the_camera_missed_them_are_not_won() -> None:
    """Before the kill, the camera misses a chip of seat 1's stack (it did not bet it) and sees
    it again as the pot is pushed to seat 2: those chips were there all along, not an award."""
    script = a_hand()
    at = next(
        i
        for i, item in enumerate(script.items)
        if isinstance(item, CardMoved) and item.source == "seat:1"
    )
    pause_ns = 5_000_000_000  # the showdown, long after seat 1's call
    flicker = continued(script, at, pause_ns)
    flicker.chips("stack:1", 575)
    flicker.chips("stack:1", 600)
    later = [replace(item, ts_ns=item.ts_ns + pause_ns + 300_000_000) for item in script.items[at:]]
    script.items[at:] = flicker.items + later
    events = fuse(script)
    assert [(e.seat, e.amount) for e in events if isinstance(e, Award)] == [(2, 900)]
    assert alerts(events) == []


def _log(events: list[Event]) -> list[tuple[object, ...]]:
    """The log without the shoe's reads (they are in the order they came)."""
    return [
        (e.TYPE, getattr(e, "to", None), getattr(e, "card", None), getattr(e, "seat", None))
        for e in events
        if not isinstance(e, ShoeDraw)
    ]


def _reads_late(script: Script, cards: tuple[str, ...]) -> Script:
    """``script`` with the shoe's reads of ``cards`` reaching the engine after the camera's
    sight of each card and the inputs after it, up to the shoe's next read (the reads keep
    their order and the time the shoe took them): the device process stalled (the 12-hand demo
    under load)."""
    items = list(script.items)
    for card in cards:
        read = next(
            i for i, it in enumerate(items) if isinstance(it, CardDrawn) and it.card == card
        )
        item = items.pop(read)
        seen = next(
            i
            for i, it in enumerate(items)
            if i >= read and isinstance(it, CardAppeared) and it.track == script.tracks[card]
        )
        next_read = next(
            (i for i, it in enumerate(items) if i > seen and isinstance(it, CardDrawn)),
            len(items),
        )
        items.insert(next_read, item)
    script.items = items
    return script


def test_shoe_reads_that_reach_the_engine_after_the_cards_are_seen_are_paired_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hole card and two flop cards are seen before the engine has the shoe's reads of them:
    they wait for the reads and are placed as they were seen: the clean hand's log, no alert.
    Without the wait the rules judged the flop card in arrival order (R-DECK-12, a card the
    shoe never dealt) and the hole card as a card thrown into a hand."""
    late = ("Qh", "8s", "4c")
    clean = fuse(a_hand())
    events = fuse(_reads_late(a_hand(), late))
    assert _log(events) == _log(clean)
    assert [e.card for e in events if isinstance(e, ShoeDraw)] == [
        e.card for e in clean if isinstance(e, ShoeDraw)
    ]
    assert alerts(events) == []

    monkeypatch.setattr(fusion_module, "SHOE_WAIT_NS", -1)  # no wait: arrival order
    found = alerts(fuse(_reads_late(a_hand(), late)))
    assert "R-DECK-12" in [rule for _, rule, _ in found], found


def _foreign_river(pause_ns: int) -> tuple[Script, int]:
    """The river card lands with no shoe read (a card from outside the deck); seat 2's bet
    comes ``pause_ns`` after it. Returns the script and the bet's index."""
    script = a_hand()
    at = next(
        i for i, it in enumerate(script.items) if isinstance(it, CardDrawn) and it.card == "2s"
    )
    assert isinstance(script.items[at + 1], CardAppeared)
    script.items[at : at + 2] = []
    river = continued(script, at)
    river.lands("Qc", "board", Face.UP)
    bet = len(river.items)
    river.ts_ns += pause_ns
    river.chips("bet:2", 100)
    later = [replace(it, ts_ns=it.ts_ns + pause_ns + 200_000_000) for it in script.items[at + 1 :]]
    script.items[at:] = river.items + later
    return script, at + bet


def test_a_card_no_shoe_read_accounts_for_is_judged_where_it_was_seen() -> None:
    """The read never comes: once the wait is over (or the card leaves the table) the card is
    placed where and when it was seen, and the rules judge it: R-DECK-12."""
    for pause_ns in (100_000_000, fusion_module.SHOE_WAIT_NS + 1):
        script, bet = _foreign_river(pause_ns)
        fusion = Fusion(TABLE, button=1)
        events: list[Event] = []
        for i, item in enumerate(script.items):
            step = fusion.feed(item)
            if i == bet and pause_ns > fusion_module.SHOE_WAIT_NS:
                # the bet comes after the wait: the river is placed first, then the bet
                assert [e.TYPE for e in step][:2] == ["card", "action"], step
            events += step
        clean = _log(fuse(a_hand()))
        assert _log(events) == [
            (kind, to, "Qc" if card == "2s" else card, seat) for kind, to, card, seat in clean
        ], pause_ns
        assert [rule for _, rule, _ in alerts(events)] == ["R-DECK-12"], pause_ns


def test_a_bet_nobody_called_back_in_its_stack_is_not_taken_from_the_pot() -> None:
    """Seat 2 bets 200 on the river and seat 1 folds: the 200 go back to seat 2's stack from
    its bet zone, then the pot (700 less 5 % rake) is pushed to it. The bet back is the uncalled
    bet, not the pot's chips (taking them would give the rake's chips to the winner: a false
    R-POT-5)."""
    script = a_hand()
    river = next(
        i
        for i, item in enumerate(script.items)
        if isinstance(item, CardAppeared) and item.card == "2s"
    )
    end = continued(script, river + 1)
    end.chips("bet:2", 200)
    end.chips("stack:2", 500)
    end.muck("Kh", 1)
    end.muck("Qh", 1)
    end.chips("bet:2", 0)
    end.chips("stack:2", 700)  # the bet nobody called, back
    end.chips("pot", 0)
    end.chips("stack:2", 700 + 665)  # the pot less the rake
    end.clear()
    script.items[river + 1 :] = end.items
    raked = replace(TABLE, rake_pct=Decimal(5), rake_cap=100)
    fusion = Fusion(raked, button=1)
    events = [e for item in script.items for e in fusion.feed(item)]
    awards = [(e.seat, e.amount, e.pot) for e in events if isinstance(e, Award)]
    assert awards == [(2, 200, "uncalled"), (2, 665, "main")]
    result = check(((e.seq, e) for e in events), "fused")
    assert not result.errors and result.alerts == ()


def _raked_push(seen: int, *, full: bool, tray: bool = True) -> list[Event]:
    """The clean hand at a 5 % table: the pot of 900 less its rake of 45 pushed to seat 2,
    whose stack the camera sees gain ``seen`` (``full``: the stack's zone holds as many chips
    as lie side by side), and the rake dropped in the tray (``tray``: the camera watches it)."""
    script = a_hand()
    at = _pot_emptied(script)
    end = continued(script, at)
    end.chips("pot", 45)
    end.chips("stack:2", 600 + seen, full=full)
    end.chips("pot", 0)
    if tray:
        end.chips("tray", 45)
    end.clear()
    script.items[at:] = end.items
    fusion = Fusion(replace(TABLE, rake_pct=Decimal(5), rake_cap=100), button=1)
    return [e for item in script.items for e in fusion.feed(item)]


def test_chips_a_full_stack_hides_are_the_rest_of_its_push_not_rake() -> None:
    """A stack whose zone is full hides the chips stacked on the ones the camera counts: the
    pot's chips that reached neither a seat nor the tray are the rest of the push to it, and
    the rake is what the tray gained (not every chip the camera lost: a false R-RAKE-1)."""
    events = _raked_push(850, full=True)
    assert [(e.seat, e.amount) for e in events if isinstance(e, Award)] == [(2, 850), (2, 5)]
    assert [e.amount for e in events if isinstance(e, Rake)] == [45]
    assert alerts(events) == []


@pytest.mark.parametrize("full, tray", [(False, True), (True, False)])
def test_chips_lost_off_a_stack_the_camera_counts_whole_are_still_a_short_push(
    full: bool, tray: bool
) -> None:
    """The same push seen 5 short, where the camera counts the whole stack (its zone is not
    full) or does not watch the tray: the chips went somewhere the rake does not account for."""
    found = alerts(_raked_push(850, full=full, tray=tray))
    assert found and all(family == "chip_miscount" for family, _, _ in found), found


def test_chips_read_out_of_turn_are_placed_in_turn_as_soon_as_the_seats_before_have_acted() -> None:
    """Pre-flop seat 1 raises to 300, seat 2 calls, seat 3 re-raises to 900, seats 1 and 2
    call. The camera reads seat 2's call before seat 1's raise, and seat 2's chips stay unread
    while seats 3 and 1 act again. Each action is placed as soon as the seats before it have
    acted: nothing out of turn (seat 2's second call does not take the place of its first,
    behind the re-raise it answers)."""
    s, holes = dealt()
    s.chips("bet:2", 300)  # seat 2's call, read before the raise it calls
    s.chips("bet:1", 300)
    s.chips("bet:3", 900)
    s.chips("bet:1", 900)
    s.chips("bet:2", 900)
    for seat in (1, 2, 3):
        s.chips(f"stack:{seat}", 100)
        s.chips(f"bet:{seat}", 0)
    s.chips("pot", 2700)
    for burn, cards in (("3h", ("9s", "8s", "4c")), ("5d", ("Jd",)), ("6h", ("2s",))):
        s.deal(burn, "burn")  # checked through (unseen)
        for card in cards:
            s.deal(card, "board", Face.UP)
    for seat in (2, 3, 1):
        for card in holes[seat]:
            s.turn(card, f"seat:{seat}")
    for seat in (3, 1):
        for card in holes[seat]:
            s.muck(card, seat)
    s.chips("pot", 0)
    s.chips("stack:2", 100 + 2700)
    s.clear()
    events = fuse(s)
    raised = [(e.seat, e.action, e.to) for e in events if isinstance(e, Action) and e.to]
    assert raised == [
        (1, ActionKind.RAISE, 300),
        (2, ActionKind.CALL, 300),
        (3, ActionKind.RAISE, 900),
        (1, ActionKind.CALL, 900),
        (2, ActionKind.CALL, 900),
    ]
    assert alerts(events) == []


@pytest.mark.parametrize("stamped_after", [False, True])
def test_the_stacks_the_camera_reads_after_the_first_card_came_out_are_in_the_hand(
    stamped_after: bool,
) -> None:
    """A busy camera process: its sight of seat 3's stack and big blind (before the deal)
    reaches the engine after the shoe's read of the first card, stamped before the read (the
    camera process late) or after it (the camera confirms what it sees over several frames, and
    read too few of them in time). The read waits for the camera to see the deal begin, so seat
    3 is in the hand (a card dealt to it is not a card dealt to a seat not in the hand, a false
    R-MISDEAL-7)."""
    clean = fuse(a_hand())
    script = a_hand()
    first = next(i for i, item in enumerate(script.items) if isinstance(item, CardDrawn))
    before = script.items[:first]
    seat_3 = [item for item in before if str(getattr(item, "zone", "")).endswith(":3")]
    read_ns: int = script.items[first].ts_ns
    late = seat_3
    if stamped_after:
        late = [replace(item, ts_ns=read_ns + 10 + k) for k, item in enumerate(seat_3)]
    script.items = [
        *(item for item in before if item not in seat_3),
        script.items[first],
        *late,
        *script.items[first + 1 :],
    ]
    events = fuse(script)
    assert _log(events) == _log(clean)
    assert alerts(events) == []


def test_a_read_from_the_next_deck_waits_for_the_open_hand_to_end() -> None:
    """After an engine restart the shoe's first read of the next deck is journalled before the
    camera has resent the end of the last hand (its showdown, push and clear). A read from
    another deck than the open hand's is the next hand's: it waits for the open hand to end, which
    ends as it would have without the restart (the read placed inside it made a duplicate card,
    a card of another deck and a void hand)."""
    clean = fuse(a_hand())
    script = a_hand()
    showdown = next(i for i, item in enumerate(script.items) if isinstance(item, CardTurned))
    before: int = script.items[showdown - 1].ts_ns
    next_deck = CardDrawn(
        ts_ns=before + 50, device="shoe", card="2c", tag_id=0, shoe_seq=1, deck_id=2
    )
    script.items.insert(showdown, next_deck)
    events = fuse(script)
    end = next(i for i, e in enumerate(events) if isinstance(e, HandEnd))
    assert _log(events[: end + 1]) == _log(clean)
    assert alerts(events[: end + 1]) == []
    draws = [e.card for e in events[:end] if isinstance(e, ShoeDraw)]
    assert draws == [e.card for e in clean if isinstance(e, ShoeDraw)]


def _next_hand(first: Script) -> Script:
    """``a_hand`` again after ``first``: later, new tracks, the shoe's next deck."""
    second = a_hand()
    last_ns: int = first.items[-1].ts_ns
    shifted: list[EngineInput] = []
    for item in second.items:
        moved = replace(item, ts_ns=item.ts_ns + last_ns + 1_000_000_000)
        if isinstance(moved, CardDrawn):
            moved = replace(moved, deck_id=2, shoe_seq=moved.shoe_seq + first.shoe_seq)
        elif isinstance(moved, CardAppeared | CardMoved | CardTurned | CardGone):
            moved = replace(moved, track=moved.track + first.track)
        shifted.append(moved)
    second.items = shifted
    return second


def test_a_hands_first_card_seen_before_the_shoes_reads_waits_for_them() -> None:
    """After an engine restart mid-deal, the camera resent its sight of the first hole card
    before the shoe resent its reads, stamped when they were resent (after the camera's
    sightings): the first card of a hand at a table dealt from the shoe waits for its read as
    every other card does. Placed unread, every read after it went to the next card: each
    player held his neighbour's cards (a false R-MUCK-7 at the showdown)."""
    first = a_hand()
    second = _next_hand(first)
    items = second.items
    reads = [i for i, it in enumerate(items) if isinstance(it, CardDrawn)][:6]  # the hole cards
    seen = next(i for i, it in enumerate(items) if isinstance(it, CardAppeared))
    resent_ns: int = items[seen].ts_ns + 1_000_000
    late = [replace(items[i], ts_ns=resent_ns) for i in reads]
    rest = [it for i, it in enumerate(items) if i not in reads]
    at = rest.index(items[seen]) + 1
    second.items = rest[:at] + late + rest[at:]
    fusion = Fusion(TABLE, button=3)  # the button moves to seat 1 for the second hand
    events = [e for item in first.items + second.items for e in fusion.feed(item)]
    ended = next(i for i, e in enumerate(events) if isinstance(e, HandEnd))
    shows = {e.seat: e.cards for e in events[ended:] if isinstance(e, Show)}
    assert shows == {2: tuple(HOLES[2]), 1: tuple(HOLES[1])}
    judged = check(((e.seq, e) for e in events), "fused")
    assert [a.rule for a in judged.alerts if a.hand == "2"] == []


@pytest.mark.parametrize("camera", [True, False])
def test_reads_resent_before_the_camera_was_ever_heard_wait_for_it(camera: bool) -> None:
    """The engine was killed a moment after it started, before it journalled anything the
    camera saw: restarted, it hears the shoe resend the hole cards' reads (stamped when resent,
    after the deal) before the camera resends its sight of the stacks, the blinds and the deal.
    At a table a camera watches, the opening read waits for the camera although it was never
    heard from, so the hand starts with its stacks and its cards are the shoe's. Without a camera
    configured nothing tells the fusion to wait: the reads find no stacks and are refused, each
    named."""
    script = a_hand()
    items = script.items
    reads = [i for i, it in enumerate(items) if isinstance(it, CardDrawn)][:6]  # the hole cards
    dealt = next(i for i in range(reads[-1], len(items)) if isinstance(items[i], CardAppeared))
    resent_ns: int = items[dealt].ts_ns + 1_000_000
    resent = [replace(items[i], ts_ns=resent_ns) for i in reads]
    script.items = resent + [it for i, it in enumerate(items) if i not in reads]
    fusion = Fusion(TABLE, button=1, camera=camera)
    events = [e for item in script.items for e in fusion.feed(item)]
    if camera:
        clean = fuse(a_hand())
        assert fusion.refused == []
        assert [e.card for e in events if isinstance(e, ShoeDraw)] == [
            e.card for e in clean if isinstance(e, ShoeDraw)
        ]
        assert alerts(events) == []
    else:
        assert len(fusion.refused) == 6
        assert all("no hand can start" in line for line in fusion.refused)


def test_cards_dealt_before_a_fold_is_seen_wait_for_it() -> None:
    """Seat 3 folds on the turn, then seat 1 calls and the dealer burns for the river; the
    camera tells seat 3's cards on the muck pile only after the burn landed (a pile is known
    once it has moved). The burn waits for the fold it followed: the same hand as the clean
    one, no premature card. A card no action follows within the wait is judged where it was."""
    clean = fuse(a_hand())
    script = a_hand()
    thrown = [
        i
        for i, item in enumerate(script.items)
        if isinstance(item, CardMoved) and item.source == "seat:3"
    ]
    burn = next(
        i
        for i, item in enumerate(script.items)
        if isinstance(item, CardAppeared)
        and item.zone == "burn"
        and item.track == script.tracks["6h"]
    )
    late = [script.items[i] for i in thrown]
    rest = [item for i, item in enumerate(script.items) if i not in thrown]
    at = rest.index(script.items[burn]) + 1
    shifted = [replace(item, ts_ns=script.items[burn].ts_ns + n + 1) for n, item in enumerate(late)]
    script.items = rest[:at] + shifted + rest[at:]
    events = fuse(script)
    assert _log(events) == _log(clean)
    assert alerts(events) == []
    never = a_hand()
    never.items = [item for i, item in enumerate(never.items) if i not in thrown]
    assert "R-PREM-4" in [rule for _, rule, _ in alerts(fuse(never))]  # no fold ever came
