"""A stopped run of the recipe, carried to another machine without its rendered data.

    .venv/bin/python -m models.recipe_carry pack FILE [--build build/recipe]
    .venv/bin/python -m models.recipe_carry unpack FILE [--build build/recipe]

On two CPU cores the recipe runs for longer than one machine is lent; its build folder holds
gigabytes of rendered data but only megabytes of what cannot be made again quickly: the step
records, the logs, the finished networks and the checkpoints of the trainings still to finish.
``pack`` writes those to a gzipped tar, leaving behind the ``output`` folders of the data steps
(their checkpoints, ``*.pt``, and records, ``*.json``, travel) and every folder that only
finished steps name (a finished training's checkpoints, the data only it read); ``unpack`` puts
them into an empty build folder and marks each data step whose output a step still to run reads
as to be run again, so that ``python -m models.recipe --resume`` renders it again from its seeds
(the seconds add up) and goes on with the trainings from their checkpoints.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tarfile
from pathlib import Path

from models.real import ROOT
from models.recipe import RECIPE, RecipeError, Step, StepRecord, load

CARRIED_IN_OUTPUT = (".pt", ".json")
"""What travels from a data step's output folder: the checkpoints and records a training
keeps there, not the rendered data."""


def _outputs(steps: list[Step], build: Path) -> list[Path]:
    return [Path(s.output.format(build=build)) for s in steps if s.output is not None]


ALWAYS_CARRIED = ("models", "logs", "steps")
"""The build's folders that travel whole: the networks made, the logs, the step records."""


def _records(build: Path, steps: list[Step]) -> dict[str, StepRecord | None]:
    return {s.name: StepRecord.read(build / "steps" / f"{s.name}.json") for s in steps}


def _done(records: dict[str, StepRecord | None]) -> set[str]:
    """The names of the steps whose record says they finished."""
    return {name for name, record in records.items() if record is not None and record.status == 0}


def carried(build: Path, steps: list[Step]) -> list[Path]:
    """The files of ``build`` that ``pack`` takes, relative to it, in order."""
    outputs = _outputs(steps, build)
    done = _done(_records(build, steps))
    pending = [s for s in steps if s.name not in done]
    finished = {
        top.name
        for top in build.iterdir()
        if top.name not in ALWAYS_CARRIED
        and any(s.reads(f"{{build}}/{top.name}") for s in steps)
        and not any(s.reads(f"{{build}}/{top.name}") for s in pending)
    }
    files = []
    for path in sorted(p for p in build.rglob("*") if p.is_file()):
        relative = path.relative_to(build)
        if relative.parts[0] in finished:
            continue
        inside = any(path.is_relative_to(o) for o in outputs)
        if not inside or path.suffix in CARRIED_IN_OUTPUT:
            files.append(relative)
    return files


def pack(build: Path, steps: list[Step], file: Path) -> int:
    """``build``'s carried files into ``file`` (gzipped tar); their bytes."""
    if not (build / "run-options.json").is_file():
        raise RecipeError(f"{build} holds no recipe run")
    tmp = file.with_name(file.name + ".tmp")
    with tarfile.open(tmp, "w:gz") as tar:
        for relative in carried(build, steps):
            tar.add(build / relative, arcname=str(relative), recursive=False)
    tmp.replace(file)
    return file.stat().st_size


def unpack(file: Path, build: Path, steps: list[Step]) -> list[str]:
    """``file`` into the empty (or absent) ``build``; the names of the data steps marked to be
    run again."""
    if build.exists() and any(build.iterdir()):
        raise RecipeError(f"{build} is not empty: a carried run goes into an empty folder")
    try:
        with tarfile.open(file, "r:gz") as tar:
            tar.extractall(build, filter="data")
        problem = None if (build / "run-options.json").is_file() else "no run-options.json"
    except (OSError, tarfile.TarError, EOFError) as exc:
        problem = str(exc)
    if problem is not None:
        shutil.rmtree(build, ignore_errors=True)  # nothing half unpacked is taken for a run
        raise RecipeError(f"{file}: not a carried recipe run ({problem})")
    records = _records(build, steps)
    done = _done(records)
    again = []
    for k, step in enumerate(steps):
        if step.output is None or step.name not in done:
            continue
        if any(s.reads(step.output) and s.name not in done for s in steps[k + 1 :]):
            record = records[step.name]
            assert record is not None  # it is done
            StepRecord(record.command, record.seconds, None).write(
                build / "steps" / f"{step.name}.json"
            )
            again.append(step.name)
    return again


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("pack", "unpack"))
    parser.add_argument("file", type=Path, help="the carried run (.tar.gz)")
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "recipe")
    parser.add_argument("--recipe", type=Path, default=RECIPE)
    args = parser.parse_args(argv)
    try:
        steps, _ = load(args.recipe)
        if args.action == "pack":
            size = pack(args.build, steps, args.file)
            print(f"packed {args.build} into {args.file} ({size / 1e6:.1f} MB)")
        else:
            again = unpack(args.file, args.build, steps)
            print(
                f"unpacked {args.file} into {args.build};"
                f" rendered again on --resume: {', '.join(again) or 'nothing'}"
            )
    except (OSError, RecipeError) as exc:
        print(f"recipe_carry: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
