"""``feltwatch demo``: a simulated table played by the real appliance, no hardware needed.

The demo table (``models.synth.session``) plays seeded hands, with an exposed hole card, a boxed
card, a mucked winner and a short payout injected between clean hands. Its shoe, tray and
light are simulators on pseudo-terminals speaking the real protocols; its camera renders the
table on the shared timeline. ``feltwatch run`` then does the rest, as on a real table: the
vision worker reads the frames, the drivers read the ptys, the engine fuses and judges, alerts
print as they fire and the light simulator shows its state.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_demo(args: argparse.Namespace) -> int:
    from feltwatch.demo.play import play

    return play(args)


def add_demo_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("demo", help="a simulated table played by the real appliance")
    p.add_argument("--hands", type=int, default=12, help="stop after this many hands")
    p.add_argument("--seed", type=int, default=1, help="the same seed plays the same hands")
    p.add_argument("--speed", type=float, default=1.0, help="play faster than real time")
    p.add_argument(
        "--vision",
        choices=("models", "truth"),
        default="models",
        help="models: the ONNX models read the frames; truth: the renderer's ground truth",
    )
    p.add_argument(
        "--cameras",
        type=int,
        choices=(1, 2),
        default=1,
        help="2: a second camera (recorded and journalled; the fusion reads the first)",
    )
    p.add_argument(
        "--prerender",
        action="store_true",
        help="render the session to a video first; the cameras play it (no drawing as they go)",
    )
    p.add_argument(
        "--port", type=int, default=8000, help="the dashboard's port on 127.0.0.1 (0: none)"
    )
    p.add_argument(
        "--stay", action="store_true", help="keep the dashboard up after the hands (Ctrl-C ends)"
    )
    p.add_argument("--table", help="the table's name (default: demo)")
    p.add_argument(
        "--central",
        metavar="HOST:PORT",
        help="publish to the central service's MQTT broker there (anonymous; see deploy/)",
    )
    p.add_argument("--dir", type=Path, default=Path("build/demo"), help="working folder")
    p.add_argument("--keep", action="store_true", help="keep the journal of the last run")
    p.set_defaults(run=cmd_demo)
