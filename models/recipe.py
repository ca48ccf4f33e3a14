"""Run the vision models' recipe (``models/recipe.toml``) from nothing into a build folder.

    .venv/bin/python -m models.recipe [--device cpu|cuda] [--jobs N] [--scale 1.0]
        [--build build/recipe] [--train-python PATH] [--skip STEP ...] [--resume]
        [--redo STEP ...] [--install] [--list]

Each step of the recipe runs as its own process (its output in ``{build}/logs/STEP.log``); a
step that fails stops the run with its log's last lines. ``{build}/steps/STEP.json`` says
what each step ran, how many seconds it has run and how it ended; ``{build}/models/run.json``
records the recipe's SHA-256, the options, each step's command and seconds, and the
evaluation's figures. ``--install`` copies the networks into ``models/`` (with ``run.json`` as
``models/recipe-run.json``) once every step has succeeded, and only for a full run
(``--scale 1``).

A run starts from nothing (the build folder emptied) unless ``--resume`` goes on with the one
in the build folder, at the same scale (``plan``): a step that finished running what it runs
now is not run again, and a step the recipe marks ``resumable`` goes on from its last
checkpoint (so that a run of many hours on a CPU survives being stopped, and a GPU can finish
what a CPU began). A step the recipe now runs otherwise, or that ``--redo`` names (its code
changed), runs anew, and so does every later step that names a path in the build folder that
it names: what it made is made again, what did not depend on it is kept. The device, the
number of jobs and the build folder may change between the parts of a run; the seconds add
up.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from models.real import ROOT

RECIPE = Path(__file__).with_name("recipe.toml")
NETWORKS = ("detector.onnx", "identity.onnx", "corners.onnx", "upright.onnx")
"""What ``--install`` copies into ``models/`` (the run-time path reads these)."""
INSTALLED_EXTRAS = ("detector.pt",)
"""Also installed: the detector's own weights (``bench/`` compares against them)."""


class RecipeError(ValueError):
    """The recipe file is not what a recipe must be."""


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    python: str
    """``dev`` or ``train``: the interpreter it runs in."""
    module: str
    args: tuple[str, ...]
    counts: tuple[str, ...]
    """The options whose values ``--scale`` multiplies."""
    together: str | None = None
    """Consecutive steps of the same ``together`` run at the same time (none reads another's
    output) when training is on an accelerator: a training on the GPU beside a rendering on
    the cores, two trainings side by side. Training on the CPU, every step runs alone: two
    processes on a few cores only slow each other (two trainings side by side on 2 cores
    took three times as long a step)."""
    resumable: bool = False
    """The module takes ``--resume``: it goes on from the checkpoint it keeps in the build."""
    output: str | None = None
    """The folder of rendered data it makes (one of its arguments, ``{build}/...``): what a run
    carried to another machine leaves behind (``models.recipe_carry``)."""

    def reads(self, folder: str) -> bool:
        """Whether one of its arguments names ``folder`` (a step's ``output``)."""
        return any(arg == folder or arg.startswith(folder + "/") for arg in self.args)

    def paths(self) -> tuple[str, ...]:
        """Its arguments that name something in the build folder (``{build}/...``)."""
        return tuple(a for a in self.args if a.startswith("{build}/"))

    def shares(self, other: Step) -> bool:
        """Whether it names what ``other`` names (or a folder inside or above it): what one of
        them writes, the other may read."""
        return any(_nested(a, b) for a in self.paths() for b in other.paths())

    def ran_as(self, recorded: Sequence[str], scale: float) -> bool:
        """Whether ``recorded`` (a step record's command, ``-m MODULE ARGS [--resume]``) runs what
        this step runs at ``scale``: the same module and arguments; the build folder, the
        device and the number of jobs may differ (a run carried to another machine)."""
        mark = "\0"
        now = self.command("", {"build": mark, "jobs": mark, "device": mark}, scale)[1:]
        ran = list(recorded[:-1] if recorded and recorded[-1] == "--resume" else recorded)
        if len(ran) != len(now):
            return False
        for want, got in zip(now, ran, strict=True):
            head, marked, tail = want.partition(mark)
            if not marked:
                if want != got:
                    return False
            elif not (got.startswith(head) and got.endswith(tail.rpartition(mark)[2])):
                return False
        return True

    def command(self, python: str, values: dict[str, str], scale: float) -> list[str]:
        args = [arg.format(**values) for arg in self.args]
        for i, arg in enumerate(args[:-1]):
            if arg in self.counts:
                args[i + 1] = str(max(1, round(float(args[i + 1]) * scale)))
        return [python, "-m", self.module, *args]


def load(path: Path = RECIPE) -> tuple[list[Step], str]:
    """The recipe's steps and its SHA-256."""
    raw = path.read_bytes()
    try:
        table = tomllib.loads(raw.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RecipeError(f"{path}: {exc}") from exc
    steps = []
    for k, step in enumerate(table.get("step", []), 1):
        missing = {"name", "python", "module", "args"} - set(step)
        if missing:
            raise RecipeError(f"{path}: step {k} lacks {', '.join(sorted(missing))}")
        if step["python"] not in ("dev", "train"):
            raise RecipeError(f"{path}: step {step['name']}: python must be dev or train")
        args = tuple(str(a) for a in step["args"])
        counts = tuple(step.get("counts", ()))
        unknown = [c for c in counts if c not in args[:-1]]
        if unknown:
            raise RecipeError(f"{path}: step {step['name']}: counts {unknown} are not its options")
        together = step.get("together")
        resumable = step.get("resumable", False)
        if not isinstance(resumable, bool):
            raise RecipeError(f"{path}: step {step['name']}: resumable must be true or false")
        output = step.get("output")
        if output is not None and output not in args:
            raise RecipeError(f"{path}: step {step['name']}: output {output!r} is not an argument")
        steps.append(
            Step(
                step["name"],
                step["python"],
                step["module"],
                args,
                counts,
                together,
                resumable,
                output,
            )
        )
    if not steps:
        raise RecipeError(f"{path}: no [[step]]")
    names = [s.name for s in steps]
    if len(set(names)) != len(names):
        raise RecipeError(f"{path}: step names repeat")
    return steps, hashlib.sha256(raw).hexdigest()


def _groups(
    commands: list[tuple[Step, list[str]]], side_by_side: bool = True
) -> list[list[tuple[Step, list[str]]]]:
    """The steps in order, consecutive steps of one ``together`` in one group when
    ``side_by_side``, else every step a group of its own."""
    groups: list[list[tuple[Step, list[str]]]] = []
    for step, command in commands:
        last = groups[-1][-1][0] if groups else None
        joins = last is not None and step.together is not None and step.together == last.together
        if side_by_side and joins:
            groups[-1].append((step, command))
        else:
            groups.append([(step, command)])
    return groups


def _tail(path: Path, lines: int = 15) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _write_json(path: Path, value: object) -> None:
    """``value`` to ``path`` whole or not at all (a run stopped mid-write leaves the old file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(value, indent=1) + "\n")
    os.replace(tmp, path)


@dataclass(frozen=True, slots=True)
class StepRecord:
    """What ``{build}/steps/STEP.json`` says of one step of a run."""

    command: tuple[str, ...]
    seconds: float
    """Seconds it has run, over every part of the run."""
    status: int | None
    """Its exit status; None while it runs (or when it was stopped)."""

    @staticmethod
    def read(path: Path) -> StepRecord | None:
        try:
            raw = json.loads(path.read_text())
            return StepRecord(tuple(raw["command"]), float(raw["seconds"]), raw["status"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write(self, path: Path) -> None:
        _write_json(
            path, {"command": list(self.command), "seconds": self.seconds, "status": self.status}
        )


POLL_S = 10.0
"""How often a running step's seconds are written down (what a stopped run keeps of them)."""


def _start(build: Path, resume: bool, digest: str, scale: float, skip: list[str]) -> str | None:
    """Make the build folder ready: emptied for a new run, checked for ``--resume``. Returns
    why it cannot be used, or None."""
    options = {"recipe_sha256": digest, "scale": scale, "skipped": sorted(skip)}
    marker = build / "run-options.json"
    if resume:
        try:
            earlier = json.loads(marker.read_text())
        except (OSError, ValueError):
            return f"{build} holds no recipe run to resume"
        if not isinstance(earlier, dict) or earlier.get("scale") != scale:
            return f"{build} is a run of {earlier}, not at scale {scale}: start it anew"
        _write_json(marker, options)  # the recipe it goes on with (its steps may have changed)
        return None
    if build.exists() and any(build.iterdir()) and not (build / "logs").is_dir():
        return f"{build} holds something other than a recipe run"
    if build.exists():
        shutil.rmtree(build)  # from nothing: nothing of an earlier run is read
    for folder in ("logs", "models", "steps"):
        (build / folder).mkdir(parents=True)
    _write_json(marker, options)
    return None


@dataclass(frozen=True, slots=True)
class Fate:
    """What a resumed run does with a step."""

    kind: Literal["done", "on", "anew"]
    """``done`` (it finished earlier), ``on`` (it goes on: from its checkpoint where it is
    resumable, else again, as it is the same step) or ``anew`` (from nothing)."""
    why: str = ""


def plan(
    steps: Sequence[Step], build: Path, scale: float, redo: Sequence[str] = ()
) -> dict[str, Fate]:
    """Each step's fate in a run resumed in ``build``: a step runs anew when it has no record,
    when its record ran another command (the recipe changed), when ``redo`` names it (its code
    changed), or when it names what a step before it that runs anew names (it reads what that
    one makes, or makes what it reads); else it is done if it finished, and goes on if not."""
    fates: dict[str, Fate] = {}
    anew: list[Step] = []
    for step in steps:
        record = StepRecord.read(build / "steps" / f"{step.name}.json")
        after = [a.name for a in anew if step.shares(a)]
        if record is None:
            fate = Fate("anew", "not run yet")
        elif step.name in redo:
            fate = Fate("anew", "--redo")
        elif not step.ran_as(record.command, scale):
            fate = Fate("anew", "the recipe runs it otherwise now")
        elif after:
            fate = Fate("anew", f"{', '.join(after)} runs anew")
        else:
            fate = Fate("done" if record.status == 0 else "on")
        fates[step.name] = fate
        if fate.kind == "anew":
            anew.append(step)
    return fates


def forget_anew(build: Path, fates: dict[str, Fate]) -> None:
    """Remove the records of the steps that run anew before any runs: a run stopped before
    they ran again goes on knowing they are still to run (their old records would say done)."""
    for name, fate in fates.items():
        if fate.kind == "anew":
            (build / "steps" / f"{name}.json").unlink(missing_ok=True)


def _nested(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def made_by(step: Step, steps: Sequence[Step]) -> list[str]:
    """The build paths ``step`` names that no step before it in ``steps`` names: what it makes
    (a data step's frames, a training's runs and network). A step that runs anew clears them
    first: a data step keeps the frames already written, a training adds to its run's logs."""
    before = steps[: list(steps).index(step)]
    return [p for p in step.paths() if not any(_nested(p, q) for s in before for q in s.paths())]


def _clear(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def _run_group(
    group: list[tuple[Step, list[str]]],
    build: Path,
    env: dict[str, str],
    fates: dict[str, Fate],
    made: dict[str, list[Path]],
) -> list[tuple[Step, Path]]:
    """Run the steps of ``group`` side by side as ``fates`` says (a step that runs anew first
    clears what it ``made`` earlier), each step's seconds written down as it runs; the steps
    that failed and their logs."""
    running = []
    for step, command in group:
        record_path = build / "steps" / f"{step.name}.json"
        fate = fates.get(step.name, Fate("anew"))
        earlier = StepRecord.read(record_path)
        if fate.kind == "done" and earlier is not None:
            print(f"{step.name}: done earlier, in {earlier.seconds} s", flush=True)
            continue
        going_on = fate.kind == "on" and earlier is not None
        if not going_on:
            if fate.why:
                print(f"{step.name}: runs anew ({fate.why})", flush=True)
            for path in made.get(step.name, []):
                _clear(path)
        before = earlier.seconds if going_on and earlier is not None else 0.0
        run = [*command, "--resume"] if step.resumable and going_on else command
        log = build / "logs" / f"{step.name}.log"
        print(f"{step.name}: {' '.join(run)}", flush=True)
        out = log.open("a" if going_on else "w")
        process = subprocess.Popen(run, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        running.append((step, tuple(run[1:]), record_path, before, log, out, process))
    at = time.monotonic()
    written = -POLL_S
    failed = []
    while running:
        now = time.monotonic()
        write = now - written >= POLL_S
        for entry in list(running):
            step, ran, record_path, before, log, out, process = entry
            status = process.poll()
            seconds = round(before + now - at, 1)
            if write or status is not None:
                StepRecord(ran, seconds, status).write(record_path)
            if status is None:
                continue
            running.remove(entry)
            out.close()
            print(f"{step.name}: exit {status} after {seconds} s in all", flush=True)
            if status != 0:
                failed.append((step, log))
        written = now if write else written
        if running:
            time.sleep(0.1)
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu", help="torch device for training: cpu, cuda")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="render processes")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every step's counts")
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "recipe")
    default_train = ROOT / ".venv-train" / "bin" / "python"
    parser.add_argument(
        "--train-python",
        default=str(default_train) if default_train.exists() else sys.executable,
        help="the interpreter of the training steps (torch, ultralytics)",
    )
    parser.add_argument("--recipe", type=Path, default=RECIPE)
    parser.add_argument("--install", action="store_true", help="copy the networks to models/")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    parser.add_argument(
        "--resume", action="store_true", help="go on with the run in --build where it stopped"
    )
    parser.add_argument(
        "--skip", nargs="*", default=[], metavar="STEP", help="steps not to run (e.g. eval)"
    )
    parser.add_argument(
        "--redo",
        nargs="*",
        default=[],
        metavar="STEP",
        help="with --resume: steps to run anew (their code changed), and the steps after them"
        " that name what they name",
    )
    args = parser.parse_args(argv)
    if args.scale <= 0:
        parser.error("--scale must be above 0")
    if args.install and (args.scale != 1 or args.skip):
        parser.error("--install takes a full run only (--scale 1, no --skip)")
    try:
        steps, digest = load(args.recipe)
    except (OSError, RecipeError) as exc:
        print(f"recipe: {exc}", file=sys.stderr)
        return 2
    build = args.build.resolve()
    values = {"build": str(build), "jobs": str(args.jobs), "device": args.device}
    pythons = {"dev": sys.executable, "train": args.train_python}
    for option, names in (("--skip", args.skip), ("--redo", args.redo)):
        unknown = sorted(set(names) - {s.name for s in steps})
        if unknown:
            parser.error(f"{option}: no step {', '.join(unknown)} in {args.recipe}")
    if args.redo and not args.resume:
        parser.error("--redo goes with --resume (a new run runs every step)")
    commands = [
        (s, s.command(pythons[s.python], values, args.scale))
        for s in steps
        if s.name not in args.skip
    ]
    print(f"recipe {args.recipe} sha256 {digest}", flush=True)
    if args.list:
        for step, command in commands:
            print(f"{step.name}: {' '.join(command)}")
        return 0
    refused = _start(build, args.resume, digest, args.scale, args.skip)
    if refused is not None:
        print(f"recipe: {refused}", file=sys.stderr)
        return 2
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        ),
        "PYTHONUNBUFFERED": "1",
        "ORT_DISABLE_TELEMETRY": "1",
    }
    side_by_side = args.device != "cpu"
    fates = plan([s for s, _ in commands], build, args.scale, args.redo) if args.resume else {}
    forget_anew(build, fates)
    made = {s.name: [Path(p.format(build=build)) for p in made_by(s, steps)] for s in steps}
    for group in _groups(commands, side_by_side):
        failed = _run_group(group, build, env, fates, made)
        for step, log in failed:
            print(f"{step.name} failed; the end of {log}:\n{_tail(log)}", file=sys.stderr)
        if failed:
            return 1
    ran = []
    seconds = 0.0
    for group in _groups(commands, side_by_side):
        records = []
        for step, _ in group:
            done = StepRecord.read(build / "steps" / f"{step.name}.json")
            assert done is not None and done.status == 0  # every group above succeeded
            records.append(done)
            ran.append({"name": step.name, "command": list(done.command), "seconds": done.seconds})
        seconds += max(r.seconds for r in records)
    record: dict[str, object] = {
        "recipe_sha256": digest,
        "device": args.device,
        "jobs": args.jobs,
        "scale": args.scale,
        "skipped": args.skip,
        "steps": ran,
        "seconds": round(seconds, 1),
    }
    evaluation = build / "models" / "eval.json"
    if evaluation.exists():
        record["eval"] = json.loads(evaluation.read_text())
    run_json = build / "models" / "run.json"
    _write_json(run_json, record)
    print(f"done in {record['seconds']} s: {run_json}", flush=True)
    if args.install:
        for name in (*NETWORKS, *INSTALLED_EXTRAS):
            shutil.copy(build / "models" / name, ROOT / "models" / name)
        shutil.copy(run_json, ROOT / "models" / "recipe-run.json")
        print(f"installed {', '.join(NETWORKS)} in {ROOT / 'models'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
