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
import json
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from devices.messages import Message, SetLight
from devices.sim.device import DeviceSession
from devices.sim.devices import Light, Shoe, Tray
from devices.sim.runner import PtyDevice
from feltwatch import live_view
from feltwatch.camera_main import T0_FILE_ENV
from feltwatch.config import Config, load
from feltwatch.engine_main import paths
from feltwatch.prerender import prerender
from feltwatch.run_cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNUSABLE, read_jsonl, supervise
from feltwatch.supervisor import Supervisor

if TYPE_CHECKING:
    from models.synth.session import DemoSession

WAITING_NOTICE_S = 30.0
"""While the table waits for the engine and the cameras, it says which it waits for this often."""
LEAD_S = 1.0
"""From ready to the first frame of the table."""


class Timeline:
    """When the demo table starts: once the engine listens and every camera process is ready
    (a loaded machine may take many seconds to start them; a table that started without them
    would be half unseen). The time goes to the cameras in a file (``T0_FILE_ENV``)."""

    def __init__(self, path: Path, config: Config) -> None:
        self.path = path
        self.socket = paths(config)["socket"]
        views = live_view.folder(config.journal.dir, config.table.name)
        self.markers = [views / f"{camera.name}.ready" for camera in config.cameras]
        for stale in (path, *self.markers):
            stale.unlink(missing_ok=True)
        self.since = time.monotonic()
        self.noticed_s = 0.0
        self.t0_ns = 0

    def ready(self) -> bool:
        """Every camera reads and the engine listens (the table never deals unseen)."""
        missing = [m.stem for m in self.markers if not m.exists()]
        if not self.socket.exists():
            missing.insert(0, "the engine")
        waited_s = time.monotonic() - self.since
        if missing and waited_s > self.noticed_s + WAITING_NOTICE_S:
            self.noticed_s = waited_s
            print(
                f"[demo] {waited_s:.0f} s: the table waits for {', '.join(missing)} to be ready",
                flush=True,
            )
        return not missing

    def begun(self) -> bool:
        return self.t0_ns != 0

    def begin(self) -> int:
        self.t0_ns = time.monotonic_ns() + int(LEAD_S * 1e9)
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(str(self.t0_ns))
        part.replace(self.path)
        return self.t0_ns


class TimedLight:
    """The light simulator, noting when each command reaches it (``<dir>/light.jsonl``: the
    end-to-end bench measures alert -> light with it)."""

    def __init__(self, light: Light, log: Path) -> None:
        self.light = light
        self.kind = light.kind
        self._log = log.open("a", encoding="utf-8")

    def handle(self, command: Message, now_ns: int) -> list[Message]:
        out = self.light.handle(command, now_ns)
        if isinstance(command, SetLight):
            row = {
                "ts_ns": time.monotonic_ns(),
                "colour": command.colour,
                "pattern": command.pattern,
            }
            self._log.write(json.dumps(row) + "\n")
            self._log.flush()
        return out

    def tick(self, now_ns: int, host_heard_ns: int) -> list[Message]:
        return self.light.tick(now_ns, host_heard_ns)


class TableSimulator:
    """The demo table's devices: shoe, tray and light on ptys; the shoe reads each card at the
    moment the dealer draws it on the session's timeline."""

    def __init__(self, session: DemoSession, folder: Path, speed: float) -> None:
        self.session = session
        self.speed = speed
        self.shoe = Shoe(order=[])
        self.tray = Tray()
        self.light = Light()
        self.devices = {
            name: PtyDevice(
                device,
                DeviceSession(kind=device.kind, device_id=f"SIM-{name.upper()}-1"),
                link=folder / f"{name}.pty",
            )
            for name, device in (
                ("shoe", self.shoe),
                ("tray", self.tray),
                ("light", TimedLight(self.light, folder / "light.jsonl")),
            )
        }
        self.plan = session.shoe_plan()
        self._stop = threading.Event()

    def port(self, name: str) -> str:
        return self.devices[name].port

    def start(self) -> None:
        """The devices on their ptys (they answer the appliance's links from now on)."""
        for device in self.devices.values():
            device.start()
        threading.Thread(target=self._show_light, daemon=True).start()

    def play(self, t0_ns: int) -> None:
        """The shoe deals the session's cards on the timeline that starts at ``t0_ns``."""
        threading.Thread(target=self._play, args=(t0_ns,), daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        for device in self.devices.values():
            device.stop()

    def _play(self, t0_ns: int) -> None:
        shoe = self.shoe
        sim = self.devices["shoe"]
        for at_s, what, argument in self.plan:
            wait_s = (t0_ns + at_s / self.speed * 1e9 - time.monotonic_ns()) / 1e9
            if wait_s > 0 and self._stop.wait(wait_s):
                return
            if what == "load":
                order = list(argument)

                def load(now: int, order: list[str] = order) -> list[object]:
                    shoe.order = order
                    shoe.deck_id += 1
                    return [shoe.load()]

                sim.act(load)  # type: ignore[arg-type]
            else:
                sim.act(lambda now: [m for m in [shoe.draw()] if m is not None])

    def _show_light(self) -> None:
        printed = 0
        while not self._stop.wait(0.05):
            while printed < len(self.light.shown):
                print(f"[demo] light: {self.light.shown[printed]}", flush=True)
                printed += 1


def central_broker(address: str) -> dict[str, object]:
    host, _, port = address.rpartition(":")
    return {"host": host or "127.0.0.1", "port": int(port)}


def demo_config(folder: Path, table: TableSimulator, args: argparse.Namespace) -> Path:
    from engine.codec import event_to_json

    t = event_to_json(table.session.table)
    config = {
        "table": {
            "name": args.table or t["table"],
            "game": t["game"],
            "seats": t["seats"],
            "sb": t["sb"],
            "bb": t["bb"],
            "rake_pct": t["rake_pct"],
            "rake_cap": t["rake_cap"],
        },
        "cameras": [
            {"name": name, "source": f"demo:{args.seed}"}
            for name in ("overhead", "dealer")[: args.cameras]
        ],
        "devices": {name: {"port": table.port(name)} for name in ("shoe", "tray", "light")},
        "journal": {"dir": str(folder / "journal")},
        "recording": {"dir": str(folder / "recordings"), "budget_gb": 1},
        "dashboard": {
            "enabled": args.port > 0,
            "port": args.port or 8000,
            "store": str(folder / "dashboard.sqlite3"),
            "demo_account": True,
        },
        **({"central": {"broker": central_broker(args.central)}} if args.central else {}),
        "demo": {
            "seed": args.seed,
            "hands": args.hands,
            "speed": args.speed,
            "vision": args.vision,
            "video": str(args.video) if args.video else None,
        },
    }
    path = folder / "demo.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def cmd_demo(args: argparse.Namespace) -> int:
    from models.synth.session import DemoSession
    from models.synth.video import FPS

    folder: Path = args.dir
    if args.hands < 1 or not 0.25 <= args.speed <= 16:
        print("--hands: at least 1; --speed: from 0.25 to 16", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.central:
        try:
            central_broker(args.central)
        except ValueError:
            print(f"--central: HOST:PORT, not {args.central!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if not args.keep:  # a new session: a new journal, recording and light log (``--keep``: resume)
        for old in ("journal", "recordings"):
            shutil.rmtree(folder / old, ignore_errors=True)
        for name in (
            "light.jsonl",
            "dashboard.sqlite3",
            "dashboard.sqlite3-wal",
            "dashboard.sqlite3-shm",
        ):
            (folder / name).unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    session = DemoSession(seed=args.seed, hands=args.hands)
    args.video = prerender(session, folder) if args.prerender else None
    table = TableSimulator(session, folder, args.speed)
    table.start()
    config_path = demo_config(folder, table, args)
    config = load(config_path)
    length_s = session.frames / FPS / args.speed
    print(
        f"[demo] {args.hands} hands, seed {args.seed}, {length_s:.0f} s at {args.speed}x, vision: "
        f"{args.vision}; injected: "
        + (", ".join(f"hand {e.hand} {e.family}" for e in session.expected) or "none"),
        flush=True,
    )
    if config.dashboard.enabled:
        print(
            f"[demo] dashboard: http://127.0.0.1:{config.dashboard.port} (name demo, password "
            "demo: this account exists in the demo only)",
            flush=True,
        )
    timeline = Timeline(folder / "t0", config)
    said = []

    failed: list[str] = []

    def done(supervisor: Supervisor) -> bool:
        if not timeline.begun():
            down = [c.name for c in supervisor.children if c.given_up or c.finished]
            if down:
                failed.append(f"{', '.join(down)} never became ready: no hand was dealt")
                return True
            if not timeline.ready():
                return False
            table.play(timeline.begin())
        cameras = [c for c in supervisor.children if c.name.startswith("camera:")]
        finished = all(c.finished for c in cameras)
        over = finished or time.monotonic_ns() > timeline.t0_ns + length_s * 1e9 + 60e9
        if over and args.stay and config.dashboard.enabled:
            if not said:
                said.append(True)
                print("[demo] the hands are over; the dashboard stays up: Ctrl-C ends", flush=True)
            return False
        return over

    try:
        supervisor = supervise(
            config_path,
            config,
            env={T0_FILE_ENV: str(timeline.path)},
            until=done,
        )
    finally:
        table.stop()
    engine = supervisor.child("engine")
    if engine.stopped_with:  # its own messages say why
        failed.append(f"the engine stopped with status {engine.stopped_with}")
    alerts = read_jsonl(paths(config)["alerts"])
    print(f"[demo] {len(alerts)} alerts in {paths(config)['alerts']}", flush=True)
    closed = {str(row.get("hand")) for row in read_jsonl(paths(config)["hands"])}
    if timeline.begun() and not failed and len(closed) < args.hands:
        failed.append(  # a part failed on the way (the engine, a camera, the disk)
            f"{len(closed)} of {args.hands} hands were judged: the session could not finish"
        )
    for reason in failed:
        print(f"[demo] error: {reason}", file=sys.stderr, flush=True)
    return EXIT_UNUSABLE if failed else EXIT_OK


def add_demo_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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
