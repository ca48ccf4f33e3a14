"""docs/rules.md is the registry's coverage table and docs/event-log.md the reader's fields,
kept up to date."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from engine.events import HouseRules
from engine.rules.catalogue import CATALOGUE
from engine.rules.coverage import Status, status
from engine.rules.registry import all_rules
from feltwatch.cli.eventlog_doc import markdown as eventlog_markdown
from feltwatch.cli.rules_doc import markdown
from tests.eventlog import SHARED

ROOT = Path(__file__).resolve().parents[3]


def test_docs_rules_md_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == markdown(), "run: feltwatch rules list --markdown > docs/rules.md"


def test_docs_event_log_md_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "event-log.md").read_text(encoding="utf-8")
    assert committed == eventlog_markdown(), "run: feltwatch eventlog > docs/event-log.md"
    for switch in fields(HouseRules):
        assert f"| `{switch.name}` |" in committed


def test_the_registry_knows_every_catalogue_rule_and_only_those() -> None:
    text = (SHARED / "docs" / "rules-catalogue.md").read_text(encoding="utf-8")
    ids = re.findall(r"^\| (R-[A-Z]+-\d+) \|", text, flags=re.M)
    assert len(ids) == 197
    assert list(CATALOGUE) == ids
    assert set(all_rules()) <= set(ids)


def test_every_implemented_rule_is_covered_by_a_test() -> None:
    doc = markdown()
    for rule_id in all_rules():
        row = next(line for line in doc.splitlines() if line.startswith(f"| {rule_id} |"))
        assert "implemented" in row and "test_trigger" in row and "test_near_miss" in row


def test_statuses() -> None:
    assert status(CATALOGUE["R-MUCK-7"])[0] is Status.IMPLEMENTED
    assert status(CATALOGUE["R-STUD-1"])[0] is Status.OTHER_GAME
    assert status(CATALOGUE["R-BET-15"])[0] is Status.HUMAN
    assert status(CATALOGUE["R-BET-13"]) == (Status.SENSOR, "spoken declarations (no audio sensor)")
