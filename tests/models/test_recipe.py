"""The models' recipe: every step's options are ones its module takes, counts scale, and a bad
recipe or a partial run to install is refused with one line."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import NoReturn

import pytest

from models import recipe
from models.recipe import RECIPE, RecipeError, load


class _Parsed(Exception):
    """Raised once a module's parser has read the step's arguments (nothing runs)."""


@pytest.mark.parametrize("step", load()[0], ids=lambda s: s.name)
def test_every_steps_arguments_are_read_by_its_modules_parser(
    step: recipe.Step, monkeypatch: pytest.MonkeyPatch
) -> None:
    values = {"build": "/tmp/recipe-test", "jobs": "2", "device": "cpu"}
    argv = step.command("python", values, 1.0)[3:]
    parse = argparse.ArgumentParser.parse_args

    def parsed(
        self: argparse.ArgumentParser, args: object = None, namespace: object = None
    ) -> NoReturn:
        parse(self, argv, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parsed)
    module = importlib.import_module(step.module)
    with pytest.raises(_Parsed):
        module.main()


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
