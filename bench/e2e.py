"""End to end on the demo table: from the input that proves an irregularity (the camera frame,
or the serial frame of the shoe) to the light command reaching the light, and the CPU it costs.

Runs ``feltwatch demo --prerender`` twice in the same run, same seed and hands (the session is
rendered to a video first, so that drawing the table does not load the cores the cameras
share: the cameras play it on the timeline as live cameras deliver frames), the vision worker
reading the frames with the committed models: with two cameras (the target: p99 under 100 ms
with both cores shared by two cameras) and with one camera (the peer: the same appliance without
the second camera's load). For every alert: its input's time (a frame's capture time, a serial
frame's arrival) -> the moment the light simulator received the command that followed it, p50 and
p99, and its parts (input -> engine, engine -> light command, command -> light); CPU seconds of
the whole process tree per second of the run (the rendering beforehand is not counted).

    .venv/bin/python bench/e2e.py [--hands N] [--seed S] [--dir FOLDER]

The second camera renders and reads the same table (CPU load and a recording, as a second view
would); the fusion reads the first camera (the fusion of several views is not built yet).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# bench/ holds scripts named like the packages (devices.py, engine.py): import the packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class ProcessCpu:
    """CPU seconds of each process under ``root`` (read from /proc while they run; a process's
    last reading before it exits counts), named by what it runs."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.last: dict[int, tuple[str, float]] = {}
        self.tick = os.sysconf("SC_CLK_TCK")

    def sample(self) -> None:
        parents: dict[int, int] = {}
        times: dict[int, float] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
            times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / self.tick
        for pid in times:
            ancestor = pid
            while ancestor not in (self.root, 0, 1) and ancestor in parents:
                ancestor = parents[ancestor]
            if ancestor == self.root:
                name = self.last.get(pid, (None,))[0] or self.name(pid)
                self.last[pid] = (name, times[pid])

    def name(self, pid: int) -> str:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            return "?"
        if pid == self.root:
            return "demo (simulators)"
        module = next((a for a in argv if a.startswith("feltwatch.")), "")
        if (
            module in ("feltwatch.appliance.camera_main", "feltwatch.demo.camera_main")
            and "--camera" in argv
        ):
            return "camera " + argv[argv.index("--camera") + 1]
        return module.removeprefix("feltwatch.").removesuffix("_main") or argv[0]

    def seconds(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, seconds in self.last.values():
            out[name] = out.get(name, 0.0) + seconds
        return out


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(cameras: int, hands: int, seed: int, folder: Path) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    command = [
        sys.executable,
        "-m",
        "feltwatch",
        "demo",
        "--dir",
        str(folder),
        "--hands",
        str(hands),
        "--seed",
        str(seed),
        "--cameras",
        str(cameras),
        "--prerender",  # the cameras play the video rendered beforehand (found in --dir)
        "--port",
        str(free_port()),  # the dashboard runs, as on the appliance, on a port nothing holds
    ]
    demo = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "ORT_DISABLE_TELEMETRY": "1"},
    )
    per_process = ProcessCpu(demo.pid)
    while demo.poll() is None:
        per_process.sample()
        time.sleep(0.5)
    if demo.returncode != 0:
        raise SystemExit(f"feltwatch demo exited with {demo.returncode}")
    wall_s = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    alerts = [json.loads(line) for line in (folder / "journal/demo.alerts.jsonl").open()]
    print(
        f"{cameras} camera(s), alerts by hand: "
        + "; ".join(f"{a['hand']} {a['rule']} seat {a['seat']}" for a in alerts),
        flush=True,
    )
    lights = [json.loads(line)["ts_ns"] for line in (folder / "light.jsonl").open()]
    latencies_ms: dict[str, list[float]] = {"camera": [], "serial": []}
    parts_ms: dict[str, list[float]] = {"to_engine": [], "engine": [], "to_light": []}
    events = [json.loads(line) for line in (folder / "journal/demo.events.jsonl").open()]
    by_seq = {e["seq"]: e["type"] for e in events}
    for alert in alerts:
        if alert["light_ns"] is None or alert["replayed"]:
            continue
        reached = next((t for t in lights if t >= alert["light_ns"]), None)
        if reached is None:
            continue
        source = "serial" if by_seq.get(alert["seq"]) == "shoe_draw" else "camera"
        latencies_ms[source].append((reached - alert["input_ts_ns"]) / 1e6)
        parts_ms["to_engine"].append((alert["received_ns"] - alert["input_ts_ns"]) / 1e6)
        parts_ms["engine"].append((alert["light_ns"] - alert["received_ns"]) / 1e6)
        parts_ms["to_light"].append((reached - alert["light_ns"]) / 1e6)
    out: dict[str, float] = {"alerts": len(alerts), "wall_s": wall_s, "cpu_s": cpu_s}
    for name, seconds in per_process.seconds().items():
        out[f"cpu:{name}"] = seconds
    for source, values in latencies_ms.items():
        if values:
            out[f"{source}_n"] = len(values)
            out[f"{source}_p50_ms"] = statistics.median(values)
            out[f"{source}_p99_ms"] = percentile(values, 0.99)
    for part, values in parts_ms.items():
        out[f"{part}_p50_ms"] = statistics.median(values)
        out[f"{part}_p99_ms"] = percentile(values, 0.99)
    every = latencies_ms["camera"] + latencies_ms["serial"]
    out["p50_ms"] = statistics.median(every)
    out["p90_ms"] = percentile(every, 0.90)
    out["p99_ms"] = percentile(every, 0.99)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--dir", type=Path, help="working folder (keeps the rendered session for the next run)"
    )
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        from feltwatch.demo.prerender import prerender
        from models.synth.session import DemoSession

        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        prerender(DemoSession(seed=args.seed, hands=args.hands), folder)  # not counted
        for cameras in (2, 1):
            results[cameras] = run(cameras, args.hands, args.seed, folder)
    for cameras, r in results.items():
        busiest = sorted(
            ((k.removeprefix("cpu:"), v) for k, v in r.items() if k.startswith("cpu:")),
            key=lambda kv: -kv[1],
        )
        detail = ", ".join(
            f"{source} {r[source + '_p50_ms']:.1f} / {r[source + '_p99_ms']:.1f} ms "
            f"({int(r[source + '_n'])})"
            for source in ("camera", "serial")
            if source + "_n" in r
        )
        print(
            f"{cameras} camera(s): alert -> light p50 {r['p50_ms']:.1f} ms, p90 {r['p90_ms']:.1f}"
            f" ms, p99 {r['p99_ms']:.1f}"
            f" ms [{detail}]; {int(r['alerts'])} alerts; CPU {r['cpu_s']:.0f} s in "
            f"{r['wall_s']:.0f} s = {r['cpu_s'] / r['wall_s']:.2f} cores"
        )
        print(
            "    p50 / p99: input -> engine "
            f"{r['to_engine_p50_ms']:.1f} / {r['to_engine_p99_ms']:.1f} ms, engine -> light "
            f"command {r['engine_p50_ms']:.2f} / {r['engine_p99_ms']:.2f} ms, command -> light "
            f"{r['to_light_p50_ms']:.1f} / {r['to_light_p99_ms']:.1f} ms"
        )
        print(
            "    cores by process: "
            + ", ".join(f"{name} {seconds / r['wall_s']:.2f}" for name, seconds in busiest)
        )
    two, one = results[2], results[1]
    print(
        f"two cameras vs one (the peer, same run): p99 {two['p99_ms'] / one['p99_ms']:.2f}x, "
        f"CPU {two['cpu_s'] / one['cpu_s']:.2f}x; target p99 < 100 ms with two cameras: "
        f"{'met' if two['p99_ms'] < 100 else 'not met'} ({two['p99_ms'] / 100:.2f}x the target)"
    )


if __name__ == "__main__":
    main()
