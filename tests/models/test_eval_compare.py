"""models.eval_compare: two evaluation reports side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.eval_compare import FigureChange, ReportError, compare, main, read_report

BEFORE = {
    "real_test": {"images": 44, "precision": 0.9674, "recall": 0.9271, "seconds_per_image": 0.4},
    "light_chips": {"light_chips": 105, "card_or_back_boxes_on_light_chips": 5},
    "table_stills": {"designs": ["drawn-0"], "confusions": {"5s->5c": 6}},
}
AFTER = {
    "real_test": {"images": 44, "precision": 0.9812, "recall": 0.9271, "seconds_per_image": 0.3},
    "light_chips": {"light_chips": 105, "card_or_back_boxes_on_light_chips": 0},
    "table_stills": {"designs": ["drawn-0"], "confusions": {"3d->3h": 2}},
}


def test_every_figure_is_paired_and_timings_are_left_out() -> None:
    changes = {item.name: item for item in compare(BEFORE, AFTER)}
    assert changes["real_test.precision"].change == pytest.approx(0.0138)
    assert changes["real_test.recall"].change == 0.0
    assert changes["light_chips.card_or_back_boxes_on_light_chips"] == FigureChange(
        "light_chips.card_or_back_boxes_on_light_chips", 5, 0
    )
    # a confusion only one report lists is absent (None) in the other, not zero
    assert changes["table_stills.confusions.5s->5c"] == FigureChange(
        "table_stills.confusions.5s->5c", 6, None
    )
    assert changes["table_stills.confusions.3d->3h"].change is None
    assert not [name for name in changes if "seconds" in name]
    assert "table_stills.designs" not in changes


def test_the_table_names_each_figure_with_both_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "before.json").write_text(json.dumps(BEFORE))
    # an installed run record carries its evaluation under "eval"
    (tmp_path / "run.json").write_text(json.dumps({"recipe_sha256": "ab", "eval": AFTER}))
    assert main([str(tmp_path / "before.json"), str(tmp_path / "run.json")]) == 0
    out = capsys.readouterr().out
    assert "| real_test.precision | 0.9674 | 0.9812 | +0.0138 |" in out
    assert "| light_chips.card_or_back_boxes_on_light_chips | 5 | 0 | -5 |" in out


@pytest.mark.parametrize(
    "text, says",
    [
        ("{", "not a JSON report"),
        ("[1, 2]", "holds no figures"),
        ('{"recipe_sha256": "ab"}', "holds no figures"),
    ],
)
def test_a_bad_report_gets_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main([str(path), str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and says in err and err.count("\n") == 1


def test_a_missing_report_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "none.json"), str(tmp_path / "none.json")]) == 2
    assert "none.json: cannot read" in capsys.readouterr().err


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_a_report_or_a_report_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "report.json"
    path.write_bytes(data)
    try:
        report = read_report(path)
    except ReportError as exc:
        assert str(path) in str(exc)
    else:
        compare(report, report)
