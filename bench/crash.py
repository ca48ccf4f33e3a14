"""The engine killed at random moments: a demo session whose engine process is SIGKILLed again
and again (the supervisor restarts it, the new engine rebuilds the open hand from the journal)
must judge exactly as the same session uninterrupted (the peer, run first in the same run).

Each run is ``feltwatch demo --vision truth --speed 4`` (the renderer's ground truth stands in for
the detector: this measures the appliance, not the models); the engine is killed at moments drawn
from ``--seed`` (0 to twice ``--every`` seconds after the restarted engine is up, its first second
included; no more than the supervisor restarts in a minute). Per run: kills, alerts the
uninterrupted run raised and this one did not (missing), alerts this one raised that the
uninterrupted did not (extra), shoe reads never journalled (lost) or in the event log twice
(doubled), the copies a device resent and the engine dropped, bad journal lines, whether the events
written equal the journal's replay, and the demo's exit status.

    .venv/bin/python bench/crash.py [--kills 100] [--hands 12] [--demo-seed 7] [--seed 1]
        [--every 16] [--dir build/bench-crash]

Exit status 1 when any run differs from the uninterrupted one.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.demo_process import kill_at_random, truth_demo  # noqa: E402

Judged = tuple[str, str, str, object]


@dataclass(frozen=True, slots=True)
class Outcome:
    kills_after_up_s: tuple[float, ...]
    """For each kill, how long after its engine was up it came."""
    judged: frozenset[Judged]
    exit_status: int
    wall_s: float
    lost_reads: int
    """Shoe reads never journalled."""
    doubled_reads: int
    """Shoe reads that reached the event log twice."""
    copies_journalled: int
    """Shoe reads the device resent after the engine took them but before it could acknowledge
    them: journalled again, dropped by the engine (not a fault)."""
    bad_lines: int
    replay_equal: bool


def outcome(
    folder: Path, process: subprocess.Popen[bytes], kills: list[float], started: float
) -> Outcome:
    from engine.inputs import CardDrawn
    from feltwatch.appliance.journal import BadLine, read

    status = process.wait()
    wall_s = time.monotonic() - started
    journal = folder / "journal"
    alerts_path = journal / "demo.alerts.jsonl"
    rows = (
        [json.loads(line) for line in alerts_path.read_text().splitlines()]
        if alerts_path.exists()
        else []
    )
    judged = frozenset((str(r["hand"]), r["rule"], r["family"], r["seat"]) for r in rows)
    items = list(read(journal / "demo.jsonl")) if (journal / "demo.jsonl").exists() else []
    bad = sum(isinstance(i, BadLine) for i in items)
    reads = Counter(i.shoe_seq for i in items if isinstance(i, CardDrawn))
    highest = max(reads, default=0)
    lost = sum(1 for seq in range(1, highest + 1) if seq not in reads)
    copies = sum(n - 1 for n in reads.values() if n > 1)
    event_rows = (
        [json.loads(line) for line in (journal / "demo.events.jsonl").read_text().splitlines()]
        if (journal / "demo.events.jsonl").exists()
        else []
    )
    drawn = Counter(r["shoe_seq"] for r in event_rows if r.get("type") == "shoe_draw")
    doubled = sum(n - 1 for n in drawn.values() if n > 1)
    replayed = folder / "replayed.events.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "feltwatch",
            "replay",
            str(journal / "demo.jsonl"),
            "--events",
            str(replayed),
        ],
        capture_output=True,
        check=False,
    )
    events = journal / "demo.events.jsonl"
    equal = replayed.exists() and events.exists() and replayed.read_bytes() == events.read_bytes()
    return Outcome(tuple(kills), judged, status, wall_s, lost, doubled, copies, bad, equal)


def run(
    folder: Path, hands: int, demo_seed: int, rng: random.Random | None, every_s: float, budget: int
) -> Outcome:
    started = time.monotonic()
    with truth_demo(folder, hands, demo_seed) as process:
        kills = kill_at_random(process, folder, rng, every_s, budget) if rng is not None else []
        return outcome(folder, process, kills, started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100, help="kills in all, over as many runs")
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--demo-seed", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1, help="draws the moments of the kills")
    parser.add_argument("--every", type=float, default=16.0, help="seconds between kills, mean")
    parser.add_argument("--dir", type=Path, default=Path("build/bench-crash"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    peer = run(args.dir / "uninterrupted", args.hands, args.demo_seed, None, args.every, 0)
    print(
        f"uninterrupted: {len(peer.judged)} alerts, exit {peer.exit_status}, "
        f"{peer.wall_s:.0f} s, replay equal {peer.replay_equal}",
        flush=True,
    )
    killed, runs, differing, early = 0, 0, 0, 0
    while killed < args.kills:
        runs += 1
        got = run(
            args.dir / f"run-{runs}",
            args.hands,
            args.demo_seed,
            rng,
            args.every,
            args.kills - killed,
        )
        killed += len(got.kills_after_up_s)
        early += sum(s < 1.0 for s in got.kills_after_up_s)
        missing = sorted(peer.judged - got.judged, key=str)
        extra = sorted(got.judged - peer.judged, key=str)
        same = (
            not missing
            and not extra
            and got.exit_status == 0
            and not (got.lost_reads or got.doubled_reads or got.bad_lines)
            and got.replay_equal
        )
        differing += not same
        print(
            f"run {runs}: {len(got.kills_after_up_s)} kills, {len(got.judged)} alerts, "
            f"missing {len(missing)}, "
            f"extra {len(extra)}, reads lost {got.lost_reads} doubled {got.doubled_reads} "
            f"(copies journalled and dropped {got.copies_journalled}), "
            f"bad journal lines {got.bad_lines}, replay equal {got.replay_equal}, "
            f"exit {got.exit_status}, {got.wall_s:.0f} s ({got.wall_s / peer.wall_s:.2f}x the "
            f"uninterrupted run)",
            flush=True,
        )
        for hand, rule, family, seat in missing:
            print(f"    missing: hand {hand} {rule} ({family}) seat {seat}")
        for hand, rule, family, seat in extra:
            print(f"    extra:   hand {hand} {rule} ({family}) seat {seat}")
        if not got.kills_after_up_s:
            print("    the demo ended before a kill: stopping", flush=True)
            break
    print(
        f"\n{killed} kills over {runs} runs ({early} in the engine's first second): "
        f"{runs - differing} judged as the uninterrupted run, {differing} differ"
    )
    return 1 if differing or peer.exit_status else 0


if __name__ == "__main__":
    sys.exit(main())
