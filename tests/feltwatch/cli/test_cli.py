"""The ``feltwatch`` command line, run as a user runs it (a real process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pokerkit import HandHistory

from tests.eventlog import SHARED

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "irregular-hands.jsonl"


def feltwatch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "feltwatch", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_check_prints_hand_summaries_and_the_alerts_of_the_example() -> None:
    run = feltwatch("check", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert "hand 101 at Demo-1" in run.stdout
    assert "8 hands, 6 alerts, 0 input errors" in run.stdout


def test_check_json_prints_one_alert_per_line() -> None:
    run = feltwatch("check", str(EXAMPLE), "--json")
    assert run.returncode == 0, run.stderr
    alerts = [json.loads(line) for line in run.stdout.splitlines()]
    for alert in alerts:
        assert {"family", "hand", "message", "rule", "seat", "seq", "severity"} <= set(alert)
    # Each example hand carries the irregularity written into it (examples/README.md).
    assert [(a["hand"], a["rule"], a["seat"]) for a in alerts] == [
        ("102", "R-BET-17", 5),
        ("103", "R-BET-2", 5),
        ("104", "R-POT-5", 4),
        ("106", "R-RAKE-1", 2),
        ("107", "R-PREM-3", 4),
        ("108", "R-SHOW-2", 3),
    ]


def test_bad_lines_are_reported_by_file_line_and_field_and_the_rest_still_runs(
    tmp_path: Path,
) -> None:
    lines = EXAMPLE.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    lines[3] = lines[3][:20]  # truncated JSON
    lines[5] = lines[5].replace('"type": "card"', '"type": "teleport"')
    lines[7] = lines[7].replace('"seat:', '"seat:9')
    bad.write_text("\n".join(lines) + "\n")
    run = feltwatch("check", str(bad))
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    errors = run.stderr.splitlines()
    assert errors[0].startswith(f"error: {bad}:4: malformed JSON: ")
    assert errors[1].startswith(f'error: {bad}:6: type: unknown event type "teleport"')
    assert errors[2].startswith(f"error: {bad}:8: to: seat 9")
    assert "8 hands" in run.stdout


def test_check_of_a_missing_file_is_a_clear_error() -> None:
    run = feltwatch("check", "no/such/log.jsonl")
    assert run.returncode == 2
    assert run.stderr == "error: cannot read no/such/log.jsonl: No such file or directory\n"


def test_phh_replay_of_a_folder_without_hands_is_a_clear_error(tmp_path: Path) -> None:
    for command in ("replay", "mutate"):
        run = feltwatch("phh", command, str(tmp_path))
        assert run.returncode == 2
        assert run.stderr.strip().splitlines()[-1] == f"error: no .phh file in {tmp_path}"


def test_version_says_which_feltwatch_this_is() -> None:
    run = feltwatch("--version")
    assert run.returncode == 0 and run.stdout.startswith("feltwatch 0.")


def test_phh_replay_reproduces_the_real_hands() -> None:
    run = feltwatch("phh", "replay", str(SHARED / "data" / "phh"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == (
        "201 hands, 200 reproduced (1 without finishing_stacks, not checked)"
    )


def test_phh_replay_fails_on_a_hand_it_does_not_reproduce(tmp_path: Path) -> None:
    source = SHARED / "data" / "phh" / "data" / "pluribus" / "83" / "22.phh"
    (tmp_path / "22.phh").write_text(source.read_text().replace("10375]", "10370]"))
    (tmp_path / "broken.phh").write_text("variant = 'NT'\nactions = [\n")
    run = feltwatch("phh", "replay", str(tmp_path), "--json")
    assert run.returncode == 1
    results = {Path(r["path"]).name: r for r in map(json.loads, run.stdout.splitlines())}
    assert not results["22.phh"]["reproduced"]
    assert "the file says 10370" in results["22.phh"]["problem"]
    assert results["broken.phh"]["problem"].startswith("cannot read PHH")
    assert run.stderr.strip() == "2 hands, 0 reproduced"


def test_phh_export_writes_hands_pokerkit_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "example.phhs"
    run = feltwatch("phh", "export", str(EXAMPLE), "-o", str(out))
    assert run.returncode == 0, run.stderr
    histories = list(HandHistory.loads_all(out.read_text()))
    assert [h.hand for h in histories] == [str(n) for n in range(101, 109)]
    # The hands without irregularities are legal poker: pokerkit plays them to the end.
    for history in histories:
        if history.hand in ("101", "105"):
            assert not list(history)[-1].status
    assert histories[4].user_defined_fields == {
        "_rake": 61,
        "_rake_percentage": "5",
        "_rake_cap": 300,
        "_no_flop_no_drop": True,
    }  # the house's terms, so a replay takes the same rake
    assert histories[4].finishing_stacks == [9970, 9969, 10000, 10000, 10000, 10000]


def test_phh_mutate_writes_logs_that_check_finds(tmp_path: Path) -> None:
    run = feltwatch(
        "phh",
        "mutate",
        str(SHARED / "data" / "phh"),
        "--seed",
        "3",
        "--out",
        str(tmp_path),
        "--check",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "recall 201/201 = 100.0%, false alerts 0 in 201 hands" in run.stdout
    expected = [json.loads(line) for line in (tmp_path / "expected.jsonl").read_text().splitlines()]
    assert len(expected) == 201
    checked = feltwatch("check", str(tmp_path / "mutated.jsonl"), "--json")
    assert checked.returncode == 0
    found = {(a["hand"], a["rule"]) for a in map(json.loads, checked.stdout.splitlines())}
    assert found == {(e["hand"], e["rule"]) for e in expected}


def test_rules_list_prints_every_catalogue_rule() -> None:
    run = feltwatch("rules", "list")
    assert run.returncode == 0
    assert len(run.stdout.splitlines()) == 197
