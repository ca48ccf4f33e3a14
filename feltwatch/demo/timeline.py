"""The demo table's timeline: the moment every process is ready and the table starts, the
simulated shoe, tray and light on pseudo-terminals playing the session's hands on it, and the
configuration ``feltwatch demo`` runs the appliance with."""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from devices.messages import Message, SetLight
from devices.sim.device import DeviceSession
from devices.sim.devices import Light, Shoe, Tray
from devices.sim.runner import PtyDevice
from feltwatch.appliance.config import Config
from feltwatch.appliance.files import table_files
from models.synth.video import Layout

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
        self.socket = table_files(config).socket
        views = table_files(config).cameras_dir
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

                def load(now: int, order: list[str] = order) -> list[Message]:
                    shoe.order = order
                    shoe.deck_id += 1
                    return [shoe.load()]

                sim.act(load)
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
    zones = folder / "zones.yaml"  # the demo table's layout, as calibrate writes a camera's
    zones.write_text(yaml.safe_dump(Layout(seats=int(t["seats"])).zone_config(), sort_keys=False))
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
            {"name": name, "source": f"demo:{args.seed}", "zones": str(zones)}
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
