"""``feltwatch sim`` and ``feltwatch serial``: device simulators, capture and replay."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import serial

from devices.framing import Decoder
from devices.host import HostSession
from devices.messages import LID_STATES, DeviceKind, Message, SensorFault
from devices.sim.device import DeviceSession
from devices.sim.devices import Light, Shoe, Tray
from devices.sim.runner import Faults, PtyDevice
from engine.cards import CardError, parse_cards
from engine.inputs import DeviceInput
from feltwatch.appliance.exits import EXIT_OK, EXIT_UNUSABLE
from feltwatch.cli.common import naming

HELP = {
    "shoe": "draw [N] | load | unreadable | fault TEXT | quit",
    "tray": "move +100x2 | move -25x4 | lid open|closed|tamper | quit",
    "light": "press | quit",
}


def add_sim_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("sim", help="run a simulated shoe, tray or light on a pty")
    p.add_argument("device", choices=sorted(HELP))
    p.add_argument("--port", help="speak on this serial device instead of a new pty")
    p.add_argument("--link", type=Path, help="keep a symlink to the pty at this path")
    p.add_argument("--seed", type=int, default=0, help="shoe: shuffle seed")
    p.add_argument("--cards", help="shoe: deal these cards in this order (As,Kd,... or AsKd...)")
    p.add_argument("--deck-id", type=int, default=1)
    p.add_argument("--float", default="25:100,100:100,500:40", help="tray: denomination:chips,...")
    p.add_argument("--deal-every-ms", type=int, default=0, help="shoe: draw a card this often")
    for name in ("noise", "drop", "bad-crc", "duplicate", "reorder"):
        p.add_argument(f"--{name}", type=float, default=0.0, metavar="P", help="fault rate")
    p.add_argument("--pause-after", type=int, metavar="FRAMES")
    p.add_argument("--pause-s", type=float, default=2.0)
    p.add_argument("--disconnect-after", type=int, metavar="FRAMES")
    p.add_argument("--down-s", type=float, default=2.0)
    p.set_defaults(run=cmd_sim)


def _faults(args: argparse.Namespace) -> Faults:
    return Faults(
        noise=args.noise,
        drop=args.drop,
        bad_crc=args.bad_crc,
        duplicate=args.duplicate,
        reorder=args.reorder,
        pause_after=args.pause_after,
        pause_s=args.pause_s,
        disconnect_after=args.disconnect_after,
        down_s=args.down_s,
        seed=args.seed,
    )


def _tray_float(text: str) -> dict[int, int]:
    counts = {}
    for item in text.split(","):
        denomination, _, chips = item.partition(":")
        counts[int(denomination)] = int(chips)
    return counts


def cmd_sim(args: argparse.Namespace) -> int:
    device: Shoe | Tray | Light
    try:
        if args.device == "shoe":
            order = list(parse_cards(args.cards.replace(",", ""))) if args.cards else None
            device = Shoe(seed=args.seed, order=order, deck_id=args.deck_id)
        elif args.device == "tray":
            device = Tray(counts=_tray_float(args.float))
        else:
            device = Light()
    except (CardError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    session = DeviceSession(kind=device.kind, device_id=f"SIM-{args.device.upper()}-1")
    try:
        sim = PtyDevice(device, session, faults=_faults(args), link=args.link, port=args.port)
    except OSError as exc:
        print(f"error: cannot open {args.port}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNUSABLE
    print(f"{args.device} simulator on {sim.port}", flush=True)
    print(f"commands: {HELP[args.device]}", flush=True)
    sim.start()
    if isinstance(device, Shoe):
        shoe = device
        sim.act(lambda now: [shoe.load()])
        if args.deal_every_ms:
            _every(args.deal_every_ms / 1000, lambda: sim.act(lambda now: _draw(shoe, 1)))
    if isinstance(device, Light):
        _watch_light(device)
    try:
        for line in sys.stdin:
            if not _command(line.split(), device, sim):
                break
    except KeyboardInterrupt:
        pass
    sim.stop()
    return EXIT_OK


def _every(period_s: float, action: Callable[[], None]) -> None:
    def loop() -> None:
        while True:
            time.sleep(period_s)
            action()

    threading.Thread(target=loop, daemon=True).start()


def _watch_light(light: Light) -> None:
    def loop() -> None:
        printed = 0
        while True:
            while printed < len(light.shown):
                print(f"light: {light.shown[printed]}", flush=True)
                printed += 1
            time.sleep(0.05)

    threading.Thread(target=loop, daemon=True).start()


def _draw(shoe: Shoe, count: int) -> list[Message]:
    return [m for m in (shoe.draw() for _ in range(count)) if m is not None]


def _command(words: list[str], device: Shoe | Tray | Light, sim: PtyDevice) -> bool:
    if not words:
        return True
    verb, rest = words[0], words[1:]
    if verb == "quit":
        return False
    try:
        if isinstance(device, Shoe) and verb == "draw":
            count = int(rest[0]) if rest else 1
            sim.act(lambda now: _draw(device, count))
        elif isinstance(device, Shoe) and verb == "load":
            sim.act(lambda now: [device.load()])
        elif isinstance(device, Shoe) and verb == "fault":
            sim.act(lambda now: [SensorFault(code=1, text=" ".join(rest) or "fault")])
        elif isinstance(device, Tray) and verb == "move":
            sign = -1 if rest[0].startswith("-") else 1
            denomination, _, chips = rest[0].lstrip("+-").partition("x")
            sim.act(lambda now: [device.move(int(denomination), sign * int(chips or 1))])
        elif isinstance(device, Tray) and verb == "lid":
            state = {name: code for code, name in LID_STATES.items()}[rest[0]]
            sim.act(lambda now: [device.lid(state)])
        elif isinstance(device, Light) and verb == "press":
            sim.act(lambda now: [device.press()])
        else:
            print(f"unknown command {' '.join(words)!r}", file=sys.stderr)
    except (IndexError, KeyError, ValueError):
        print(f"bad command {' '.join(words)!r}", file=sys.stderr)
    return True


# --- capture and replay ---------------------------------------------------------------------


def add_serial_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = commands.add_parser("serial", help="capture and replay raw serial traffic")
    sub = group.add_subparsers(dest="serial_command", required=True, metavar="SUBCOMMAND")
    p = sub.add_parser("capture", help="record the raw bytes of a port with timestamps")
    p.add_argument("port", metavar="PORT", help="a device path or pyserial URL")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    p.set_defaults(run=cmd_capture)
    p = sub.add_parser("replay", help="feed a capture through the decoder; print the events")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--device", choices=sorted(HELP), default="shoe")
    p.set_defaults(run=cmd_replay)


def cmd_capture(args: argparse.Namespace) -> int:
    try:
        port = serial.serial_for_url(args.port, baudrate=115200, timeout=0.05)
    except (serial.SerialException, OSError, ValueError) as exc:
        from devices.link import describe_open_error

        print(f"error: {describe_open_error(args.port, exc)}", file=sys.stderr)
        return EXIT_UNUSABLE
    print(f"capturing {args.port} -> {args.file}", file=sys.stderr, flush=True)
    deadline = time.monotonic() + args.seconds if args.seconds else None
    total = 0
    with naming(args.file), Path(args.file).open("w", encoding="utf-8") as out:
        try:
            while deadline is None or time.monotonic() < deadline:
                try:
                    data = port.read(max(1, port.in_waiting))
                except (serial.SerialException, OSError) as exc:
                    print(f"error: {args.port}: {exc}", file=sys.stderr)
                    break
                if data:
                    total += len(data)
                    record = {"t_ns": time.monotonic_ns(), "data": data.hex()}
                    out.write(json.dumps(record) + "\n")
                    out.flush()
        except KeyboardInterrupt:
            pass
    port.close()
    print(f"{total} bytes captured to {args.file}", file=sys.stderr)
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    kind = {"shoe": DeviceKind.SHOE, "tray": DeviceKind.TRAY, "light": DeviceKind.LIGHT}
    session = HostSession(args.device, kind[args.device])
    # A capture need not hold the device's hello: start at the first frame it has.
    session.receiver.wait_for_sync = False
    decoder = Decoder()
    path = Path(args.file)
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNUSABLE
    bad = 0
    session.connected(0)
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise TypeError("expected a record {t_ns, data}")
            now = record["t_ns"]
            if not isinstance(now, int) or isinstance(now, bool) or not 0 <= now < 2**63:
                raise TypeError(f"t_ns: a whole number of nanoseconds, not {str(now)[:30]}")
            data = bytes.fromhex(record["data"])
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            print(f"error: {path}:{number}: {str(exc)[:200]}", file=sys.stderr)
            bad += 1
            continue
        for item in session.receive(decoder.feed(data), now).inputs:
            print(_show(item))
    s = decoder.stats
    print(
        f"{s.frames} frames, {s.bad_crc} bad CRC, {s.bad_frames} bad frames, "
        f"{s.discarded_bytes} bytes discarded",
        file=sys.stderr,
    )
    return 1 if bad else 0


def _show(item: DeviceInput) -> str:
    fields = {
        k: getattr(item, k) for k in item.__dataclass_fields__ if k not in ("ts_ns", "device")
    }
    shown = " ".join(f"{k}={v}" for k, v in fields.items() if v not in ((), {}, ""))
    return f"{item.ts_ns} {type(item).__name__} {shown}"
