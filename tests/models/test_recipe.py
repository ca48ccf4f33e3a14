"""The models' recipe: every step's options are ones its module takes, counts scale, a bad
recipe or a partial run to install is refused with one line, and a stopped run goes on where it
stopped."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import NoReturn

import pytest

from models import recipe
from models.recipe import RECIPE, RecipeError, load


class _Parsed(Exception):
    """Raised once a module's parser has read the step's arguments (nothing runs)."""


def _parser_of(step: recipe.Step, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser of the step's module, once it has read the step's arguments (nothing runs)."""
    values = {"build": "/tmp/recipe-test", "jobs": "2", "device": "cpu"}
    argv = step.command("python", values, 1.0)[3:]
    parse = argparse.ArgumentParser.parse_args
    seen: list[argparse.ArgumentParser] = []

    def parsed(
        self: argparse.ArgumentParser, args: object = None, namespace: object = None
    ) -> NoReturn:
        parse(self, argv, namespace)
        seen.append(self)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parsed)
    module = importlib.import_module(step.module)
    with pytest.raises(_Parsed):
        module.main()
    return seen[0]


@pytest.mark.parametrize("step", load()[0], ids=lambda s: s.name)
def test_every_steps_arguments_are_read_by_its_modules_parser(
    step: recipe.Step, monkeypatch: pytest.MonkeyPatch
) -> None:
    _parser_of(step, monkeypatch)


@pytest.mark.parametrize("step", load()[0], ids=lambda s: s.name)
def test_a_step_whose_module_can_resume_is_resumed_not_begun_again(
    step: recipe.Step, monkeypatch: pytest.MonkeyPatch
) -> None:
    takes_resume = "--resume" in _parser_of(step, monkeypatch)._option_string_actions
    assert step.resumable == takes_resume


def test_scale_multiplies_the_counts_and_nothing_else() -> None:
    steps, digest = load()
    assert len(digest) == 64
    data = next(s for s in steps if s.name == "detector-data")
    full = data.command("py", {"build": "b", "jobs": "16", "device": "cuda"}, 1.0)
    small = data.command("py", {"build": "b", "jobs": "16", "device": "cuda"}, 0.01)
    assert full[full.index("--train") + 1] == "8000" and small[small.index("--train") + 1] == "80"
    assert small[small.index("--seed") + 1] == full[full.index("--seed") + 1] == "0"
    assert small[small.index("--jobs") + 1] == "16"
    assert "b/detector-data" in small


def test_a_bad_recipe_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text('[[step]]\nname = "x"\npython = "dev"\nmodule = "m"\nargs = ["--n", "1"]\n'
                   'counts = ["--k"]\n')  # fmt: skip
    with pytest.raises(RecipeError, match="counts \\['--k'\\] are not its options"):
        load(bad)
    assert recipe.main(["--recipe", str(bad), "--list"]) == 2
    assert "are not its options" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        recipe.main(["--scale", "0.5", "--install"])  # a smoke run never replaces the models
    with pytest.raises(SystemExit):
        recipe.main(["--skip", "nosuch", "--list"])


def test_the_list_names_every_step_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert recipe.main(["--list", "--skip", "eval"]) == 0
    out = capsys.readouterr().out
    names = [s.name for s in load(RECIPE)[0] if s.name != "eval"]
    assert [line.split(":")[0] for line in out.splitlines()[1:]] == names


def test_steps_run_together_only_when_they_are_next_to_each_other() -> None:
    steps, _ = load()
    groups = recipe._groups([(s, []) for s in steps])
    assert [s.name for s, _ in groups[-2]] == ["corners", "reader"]
    assert sum(len(g) for g in groups) == len(steps)
    names = [s.name for g in groups for s, _ in g]
    assert names == [s.name for s in steps]
    identity = next(g for g in groups if any(s.name == "identity" for s, _ in g))
    assert {s.name for s, _ in identity} == {"identity", "upright-data"}


def test_on_the_cpu_every_step_runs_alone() -> None:
    steps, _ = load()
    groups = recipe._groups([(s, []) for s in steps], side_by_side=False)
    assert [[s.name for s, _ in g] for g in groups] == [[s.name] for s in steps]


_COUNTING_STEP = """import sys
from pathlib import Path
with Path(sys.argv[1]).open("a") as out:
    out.write(" ".join(sys.argv[2:]) + "\\n")
"""
_STOPPED_STEP = """import sys
from pathlib import Path
with Path(sys.argv[1]).open("a") as out:
    out.write(" ".join(sys.argv[2:]) + "\\n")
sys.exit(0 if "--resume" in sys.argv else 1)
"""


def _two_step_recipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], Path]:
    """The options of a run into ``tmp_path/build`` (and that folder) of a recipe of a step that
    runs whole and a resumable one that stops the first time."""
    (tmp_path / "recipe_step_whole.py").write_text(_COUNTING_STEP)
    (tmp_path / "recipe_step_stopped.py").write_text(_STOPPED_STEP)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    path = tmp_path / "r.toml"
    path.write_text(
        f'[[step]]\nname = "data"\npython = "dev"\nmodule = "recipe_step_whole"\n'
        f'args = ["{tmp_path}/data.runs", "--count", "10"]\ncounts = ["--count"]\n\n'
        f'[[step]]\nname = "train"\npython = "train"\nmodule = "recipe_step_stopped"\n'
        f'args = ["{tmp_path}/train.runs", "--steps", "100", "--device", "{{device}}"]\n'
        f'counts = ["--steps"]\nresumable = true\n'
    )
    build = tmp_path / "build"
    return ["--recipe", str(path), "--build", str(build), "--train-python", sys.executable], build


def test_a_stopped_run_goes_on_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    common, build = _two_step_recipe(tmp_path, monkeypatch)
    assert recipe.main(common) == 1  # the training step stopped
    assert "train failed" in capsys.readouterr().err
    stopped = recipe.StepRecord.read(build / "steps" / "train.json")
    assert stopped is not None and stopped.status == 1
    assert recipe.main([*common, "--resume", "--device", "cuda"]) == 0
    assert (tmp_path / "data.runs").read_text() == "--count 10\n"  # not made again
    assert (tmp_path / "train.runs").read_text().splitlines() == [
        "--steps 100 --device cpu",
        "--steps 100 --device cuda --resume",
    ]
    run = json.loads((build / "models" / "run.json").read_text())
    assert [s["name"] for s in run["steps"]] == ["data", "train"]
    assert run["steps"][1]["command"][-1] == "--resume"
    assert run["seconds"] >= run["steps"][1]["seconds"] >= stopped.seconds


def test_a_resume_of_another_run_or_of_none_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    common, _ = _two_step_recipe(tmp_path, monkeypatch)
    assert recipe.main([*common, "--resume"]) == 2
    assert "holds no recipe run to resume" in capsys.readouterr().err
    assert recipe.main([*common, "--scale", "0.5"]) == 1
    assert recipe.main([*common, "--resume"]) == 2
    assert "start it anew" in capsys.readouterr().err
    assert recipe.main(common) == 1  # a new run starts from nothing: the data made again
    assert (tmp_path / "data.runs").read_text() == "--count 5\n--count 10\n"


def test_a_resumed_run_runs_anew_what_changed_and_what_reads_it(tmp_path: Path) -> None:
    steps, _ = load()
    build = tmp_path / "build"
    (build / "steps").mkdir(parents=True)
    values = {"build": "/elsewhere/recipe", "jobs": "2", "device": "cuda"}
    for step in steps:  # every step finished, on another machine and folder
        command = step.command("py", values, 1.0)[1:]
        recipe.StepRecord(tuple(command), 10.0, 0).write(build / "steps" / f"{step.name}.json")
    kept = recipe.plan(steps, build, 1.0)
    assert {f.kind for f in kept.values()} == {"done"}
    assert {f.kind for f in recipe.plan(steps, build, 0.5).values()} == {"anew"}
    redone = recipe.plan(steps, build, 1.0, redo=["detector-data"])
    anew = [name for name, fate in redone.items() if fate.kind == "anew"]
    assert anew == ["detector-data", "detector", "detector-int8", "identity-data", "identity",
                    "eval"]  # fmt: skip
    assert redone["identity"].why == "identity-data runs anew"
    recipe.forget_anew(build, redone)  # the run stops before the detector has finished
    record = recipe.StepRecord.read(build / "steps" / "detector-data.json")
    assert record is None
    again = recipe.plan(steps, build, 1.0)  # resumed without --redo: still all to run
    assert [n for n, f in again.items() if f.kind == "anew"] == anew
    for name in anew:  # as if they had run again
        command = next(s for s in steps if s.name == name).command("py", values, 1.0)[1:]
        recipe.StepRecord(tuple(command), 10.0, 0).write(build / "steps" / f"{name}.json")
    changed = steps[-2].command("py", values, 1.0)[1:]  # the reader, trained half as long
    changed[changed.index("--steps") + 1] = "6000"
    recipe.StepRecord(tuple(changed), 10.0, 1).write(build / "steps" / f"{steps[-2].name}.json")
    (build / "steps" / "corners.json").unlink()
    fates = recipe.plan(steps, build, 1.0)
    assert [n for n, f in fates.items() if f.kind != "done"] == ["corners", "reader", "eval"]
    assert fates["reader"].why == "the recipe runs it otherwise now"
    assert fates["corners"].why == "not run yet"


def test_a_step_that_runs_anew_clears_only_what_it_makes() -> None:
    steps, _ = load()
    made = {s.name: recipe.made_by(s, steps) for s in steps}
    assert made["detector-data"] == ["{build}/detector-data"]
    assert made["detector"] == ["{build}/runs", "{build}/models/detector.onnx"]
    assert made["detector-int8"] == []  # it quantises the detector's network in place
    assert made["identity-data"] == ["{build}/identity-data"]  # not the detector it reads
    assert made["eval"] == ["{build}/models/eval.json"]
