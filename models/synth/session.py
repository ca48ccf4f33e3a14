"""The demo table's session: seeded hands played one after the other on the rendered table, with
irregularities of every family the cameras see injected into hands the seed picks, and the
timeline every part of the simulation shares (the cameras render it, the simulated shoe reads
its cards on it).

    session = DemoSession(seed=7, hands=12)
    for hand in session.hands:           # hand.steps, hand.start, hand.draws, hand.injected
        ...
    session.shoe_plan()                  # (seconds from the start, load/draw, cards)

One hand of each three carries an irregularity (``injection_plan``: every kind of ``DEMO_KINDS``
once in twelve hands, never the first hand): an exposed hole card, a boxed card, a mucked
winner, a short payout, written at a point and a seat the mutation picks; the hands, like the
points, follow from the seed. ``injected`` says which
alert each must raise (family, hand, seat): what the end-to-end test expects, nothing more.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from engine.events import Award, Event, HandStart, TableConfig
from engine.hand import Hand
from engine.mutate import MUTATIONS, Expected, play
from engine.rules.registry import RuleSet
from engine.simulate import demo_table, simulate_hand
from models.synth.from_log import script_for_hand
from models.synth.video import FPS, Frame, HandVideo, Layout, Step, step_frames

DEMO_KINDS = ("exposed", "boxed", "mucked_winner", "short_award")
"""The irregularities the demo injects (``engine.mutations``): one of each family the cameras
see (a card turned in the deal, a card face up in the deck, a winner killed, chips pushed)."""


def injection_plan(seed: int, hands: int) -> dict[int, str]:
    """Hand number -> the kind of irregularity written into it: one hand of each three (1-3,
    4-6, ...; never the first hand, while the cameras settle), the kinds in an order the seed
    shuffles, each once before any comes again. A shorter session of the same seed is the
    longer one cut short."""
    rng = random.Random(f"{seed}:injections")
    kinds = list(DEMO_KINDS)
    rng.shuffle(kinds)
    plan: dict[int, str] = {}
    for block in range((hands + 2) // 3):
        number = rng.choice([n for n in range(3 * block + 1, 3 * block + 4) if n > 1])
        if number <= hands:
            plan[number] = kinds[block % len(kinds)]
    return plan


STACK_START = 3000
STACK_RANGE = (1500, 6000)
"""A stack outside this range is brought back to ``STACK_START`` between hands (the player
tops up or colours up), so no zone holds more chips than the camera can count."""


@dataclass(frozen=True, slots=True)
class ScriptedHand:
    number: int
    events: tuple[Event, ...]
    """The hand as the table event log tells it (what the engine should rebuild)."""
    steps: tuple[Step, ...]
    start: dict[str, dict[int, int]]
    draws: dict[int, str]
    """Step index -> the card the shoe reads when that step begins."""
    injected: Expected | None
    first_frame: int
    """Where the hand begins on the session's timeline (frames at ``FPS``)."""
    frames: int


def _final_stacks(events: Sequence[Event]) -> dict[int, int]:
    start = next(e for e in events if isinstance(e, HandStart))
    table = next(e for e in events if isinstance(e, TableConfig))
    shadow = Hand(table, start, RuleSet([]))
    for event in events:
        if not isinstance(event, TableConfig | HandStart) and event.TYPE != "hand_end":
            shadow.apply(event)
    stacks = dict(shadow.stacks)
    for event in events:
        if isinstance(event, Award):
            stacks[event.seat] = stacks.get(event.seat, 0) + event.amount
    return stacks


def _next_stacks(stacks: dict[int, int]) -> dict[int, int]:
    low, high = STACK_RANGE
    out = {}
    for seat, amount in stacks.items():
        amount -= amount % 25
        out[seat] = amount if low <= amount <= high else STACK_START
    return out


class DemoSession:
    def __init__(self, *, seed: int, hands: int, seats: int = 6) -> None:
        self.seed = seed
        self.table = demo_table(seats)
        self.layout = Layout(seats=seats)
        self.plan = injection_plan(seed, hands)
        """Hand number -> the kind of irregularity written into it."""
        rng = random.Random(seed)
        stacks = dict.fromkeys(range(1, seats + 1), STACK_START)
        button = 1
        out: list[ScriptedHand] = []
        frame = 0
        for number in range(1, hands + 1):
            events, injected = self._hand(number, button, stacks, rng)
            steps, start, draws = script_for_hand(events[1:])
            length = step_frames(steps)[1]
            out.append(
                ScriptedHand(
                    number=number,
                    events=tuple(events),
                    steps=tuple(steps),
                    start=start,
                    draws=draws,
                    injected=injected,
                    first_frame=frame,
                    frames=length,
                )
            )
            frame += length
            stacks = _next_stacks(_final_stacks(events))
            button = button % seats + 1
        self.hands = tuple(out)

    def _hand(
        self, number: int, button: int, stacks: dict[int, int], rng: random.Random
    ) -> tuple[list[Event], Expected | None]:
        kind = self.plan.get(number)
        for _ in range(
            200
        ):  # until a hand allows the irregularity (a showdown for a mucked winner)
            hand_rng = random.Random(rng.randrange(2**31))
            events = simulate_hand(
                self.table, hand=str(number), button=button, stacks=dict(stacks), rng=hand_rng
            )
            if kind is None:
                return events, None
            done = MUTATIONS[kind](list(events), play(events), hand_rng)
            if done is not None:
                mutated, expected = done
                return [replace(e, seq=i + 1) for i, e in enumerate(mutated)], expected
        raise RuntimeError(f"no hand of seed {self.seed} allows {kind}")

    @property
    def frames(self) -> int:
        return sum(hand.frames for hand in self.hands)

    @cached_property
    def expected(self) -> tuple[Expected, ...]:
        return tuple(h.injected for h in self.hands if h.injected is not None)

    def shoe_plan(self) -> list[tuple[float, str, tuple[str, ...]]]:
        """What the shoe does, in order, in seconds from the session's start: ``load`` (the
        hand's cards, in the order they will be drawn) when each hand begins, ``draw`` (one
        card) as the dealer draws it."""
        out: list[tuple[float, str, tuple[str, ...]]] = []
        for hand in self.hands:
            starts, _ = step_frames(list(hand.steps))
            drawn = sorted(hand.draws.items())
            out.append((hand.first_frame / FPS, "load", tuple(card for _, card in drawn)))
            for step, card in drawn:
                out.append(((hand.first_frame + starts[step]) / FPS, "draw", (card,)))
        return out

    def video(self, hand: ScriptedHand, *, images: bool = True) -> HandVideo:
        return HandVideo(
            self.layout,
            list(hand.steps),
            seed=self.seed * 1000 + hand.number,
            start=hand.start,
            images=images,
        )

    def frames_of(
        self, *, images: bool = True, draw: Callable[[int], bool] | None = None
    ) -> Iterator[Frame]:
        """Every frame of the session; ``index`` and ``ts_ns`` run on from hand to hand (from
        0); ``draw(index)`` False skips a frame (see ``HandVideo.frames``)."""
        for hand in self.hands:
            offset = hand.first_frame

            def draw_here(index: int, offset: int = offset) -> bool:
                return draw is None or draw(offset + index)

            for frame in self.video(hand, images=images).frames(draw_here):
                index = offset + frame.index
                yield replace(frame, index=index, ts_ns=index * 1_000_000_000 // FPS)
