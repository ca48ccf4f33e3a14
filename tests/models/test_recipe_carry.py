"""A stopped recipe run carried to another build folder without its rendered data: the data a
step still to run reads is rendered again, the training goes on from its checkpoint, and a
bad carried file is named in one line."""

from __future__ import annotations

import random
import sys
import tarfile
from pathlib import Path

import pytest

from models import recipe, recipe_carry
from models.recipe import RecipeError, load

_RENDER = """import sys
from pathlib import Path
out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
(out / "frame.jpg").write_bytes(b"pixels")
with (out.parent.parent / "renders.log").open("a") as log:
    log.write(out.name + "\\n")
"""
_TRAIN = """import sys
from pathlib import Path
data = Path(sys.argv[2])
assert (data / "frame.jpg").read_bytes() == b"pixels", "no rendered data"
state = data / "state.pt"
if "--resume" in sys.argv:
    assert state.read_text() == "epoch 1", "no checkpoint"
    (data.parent / "models").mkdir(exist_ok=True)
    (data.parent / "models" / "net.onnx").write_text("trained")
    sys.exit(0)
state.write_text("epoch 1")
sys.exit(1)  # stopped after its first epoch
"""


def _recipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A recipe: a data step read by a finished step only, a data step read by a training that
    stops after its first epoch."""
    (tmp_path / "carry_render.py").write_text(_RENDER)
    (tmp_path / "carry_train.py").write_text(_TRAIN)
    (tmp_path / "carry_noop.py").write_text("")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    path = tmp_path / "r.toml"
    steps = []
    for name, reader in (("early-data", "carry_noop"), ("late-data", "carry_train")):
        steps.append(
            f'[[step]]\nname = "{name}"\noutput = "{{build}}/{name}"\npython = "dev"\n'
            f'module = "carry_render"\nargs = ["{{build}}/{name}"]\n'
        )
        resumable = "resumable = true\n" if reader == "carry_train" else ""
        steps.append(
            f'[[step]]\nname = "{reader}"\npython = "train"\nmodule = "{reader}"\n'
            f'args = ["--data", "{{build}}/{name}"]\n{resumable}'
        )
    path.write_text("\n".join(steps))
    return path


def test_a_carried_run_renders_again_only_what_a_step_to_run_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = _recipe(tmp_path, monkeypatch)
    steps, _ = load(toml)
    first, second = tmp_path / "one" / "build", tmp_path / "two" / "build"
    common = ["--recipe", str(toml), "--train-python", sys.executable]
    assert recipe.main([*common, "--build", str(first)]) == 1  # the training stopped
    (first / "early-data" / "finished.pt").write_text("read by finished steps only")
    carried = recipe_carry.carried(first, steps)
    assert Path("late-data/state.pt") in carried
    assert not any(p.parts[0] == "early-data" for p in carried)
    assert Path("steps/early-data.json") in carried
    assert not any(p.suffix == ".jpg" for p in carried)  # rendered data stays behind
    file = tmp_path / "run.tar.gz"
    assert recipe_carry.main(["pack", str(file), "--build", str(first), "--recipe", str(toml)]) == 0
    assert (
        recipe_carry.main(["unpack", str(file), "--build", str(second), "--recipe", str(toml)]) == 0
    )
    assert "rendered again on --resume: late-data" in capsys.readouterr().out
    assert not (second / "late-data" / "frame.jpg").exists()
    assert recipe.main([*common, "--build", str(second), "--resume"]) == 0
    assert (second / "models" / "net.onnx").read_text() == "trained"
    assert (tmp_path / "two" / "renders.log").read_text() == "late-data\n"
    record = recipe.StepRecord.read(second / "steps" / "late-data.json")
    earlier = recipe.StepRecord.read(first / "steps" / "late-data.json")
    assert record is not None and earlier is not None and record.status == 0
    assert record.seconds >= earlier.seconds  # the seconds of both renders


def test_a_carried_run_goes_only_into_an_empty_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toml = _recipe(tmp_path, monkeypatch)
    steps, _ = load(toml)
    build = tmp_path / "build"
    with pytest.raises(RecipeError, match="holds no recipe run"):
        recipe_carry.pack(build, steps, tmp_path / "x.tar.gz")
    assert recipe.main(["--recipe", str(toml), "--build", str(build)]) == 1
    recipe_carry.pack(build, steps, tmp_path / "x.tar.gz")
    with pytest.raises(RecipeError, match="is not empty"):
        recipe_carry.unpack(tmp_path / "x.tar.gz", build, steps)


def test_a_file_that_is_not_a_carried_run_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = _recipe(tmp_path, monkeypatch)
    draw = random.Random(7)
    for k in range(60):
        file = tmp_path / f"bad-{k}.tar.gz"
        file.write_bytes(draw.randbytes(draw.randrange(0, 400)))
        build = tmp_path / f"build-{k}"
        code = recipe_carry.main(
            ["unpack", str(file), "--build", str(build), "--recipe", str(toml)]
        )
        assert code == 2
        err = capsys.readouterr().err
        assert err.startswith("recipe_carry: ") and str(file) in err and err.count("\n") == 1
        assert not build.exists()  # nothing half unpacked is left to be taken for a run
    tar = tmp_path / "no-run.tar.gz"
    with tarfile.open(tar, "w:gz") as out:
        out.add(toml, arcname="r.toml")
    assert (
        recipe_carry.main(
            ["unpack", str(tar), "--build", str(tmp_path / "b"), "--recipe", str(toml)]
        )
        == 2
    )
    assert "no run-options.json" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_every_data_step_of_the_recipe_names_its_output_and_a_later_step_reads_it() -> None:
    steps, _ = load()
    outputs = [(k, s.output) for k, s in enumerate(steps) if s.output is not None]
    assert [steps[k].name for k, _ in outputs] == ["detector-data", "identity-data", "upright-data"]
    for k, output in outputs:
        assert any(s.reads(output) for s in steps[k + 1 :])


def test_an_output_that_is_not_an_argument_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text(
        '[[step]]\nname = "x"\npython = "dev"\nmodule = "m"\nargs = ["a"]\noutput = "b"\n'
    )
    with pytest.raises(RecipeError, match="output 'b' is not an argument"):
        load(bad)
