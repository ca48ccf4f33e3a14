"""The dealer's light follows every open alert: red while a critical is open, amber while a
warning is, green only when none is; a restarted engine finds the open alerts in the light's
file."""

from __future__ import annotations

from pathlib import Path

from engine.alerts import Alert, Severity, alert_id
from engine.core import Proved
from engine.inputs import AlertAcknowledged, LightAcknowledged
from engine.table_files import TableFiles
from feltwatch.appliance.config import Config
from feltwatch.appliance.engine_main import FanOut
from feltwatch.appliance.service import process_log


class Light:
    def __init__(self) -> None:
        self.shown: list[str] = []

    def set_light(self, colour: str, pattern: str) -> None:
        self.shown.append(f"{colour} {pattern}")


def table_files(folder: Path) -> TableFiles:
    """The files of table ``T1`` whose journal directory is ``folder``."""
    return TableFiles(table="T1", journal_dir=folder)


def fanout(folder: Path, light: Light) -> FanOut:
    """The engine's fan-out for table ``T1`` (its files in ``folder``), its light ``light``,
    its console the engine process's."""
    process_log("engine", None)
    out = FanOut(_config(folder), table_files(folder))
    out.light = light
    return out


def _config(folder: Path) -> Config:
    table = {"name": "T1", "sb": 50, "bb": 100}
    return Config.model_validate({"table": table, "journal": {"dir": str(folder)}})


def _alert(seq: int, severity: Severity) -> Proved:
    alert = Alert(
        hand="h1", seq=seq, rule="R-POT-5", family="chip_miscount", severity=severity,
        seat=1, message="m",
    )  # fmt: skip
    return Proved(alert=alert, table="T1", input_ts_ns=0)


def _id(proved: Proved) -> str:
    return alert_id("T1", proved.alert.to_json())


def _ack(proved: Proved) -> AlertAcknowledged:
    return AlertAcknowledged(ts_ns=0, device="dashboard", alert=_id(proved), user="sup")


def test_acknowledging_one_alert_leaves_the_light_on_for_the_others(tmp_path: Path) -> None:
    light = Light()
    out = fanout(tmp_path, light)
    critical, warning, note = (
        _alert(1, Severity.CRITICAL), _alert(2, Severity.WARNING), _alert(3, Severity.INFO),
    )  # fmt: skip
    for proved in (critical, warning, note):
        out.alert(proved, replayed=False)
    assert light.shown == ["red fast", "red fast"]  # a note lights nothing
    out.device(_ack(critical))
    assert light.shown[-1] == "amber slow"
    out.device(_ack(critical))  # twice: changes nothing
    assert light.shown[-1] == "amber slow"
    out.device(_ack(warning))
    assert light.shown[-1] == "green steady"
    out.close()


def test_a_restarted_engine_shows_the_alerts_still_open(tmp_path: Path) -> None:
    light = Light()
    out = fanout(tmp_path, light)
    first, second = _alert(1, Severity.CRITICAL), _alert(2, Severity.WARNING)
    out.alert(first, replayed=False)
    out.alert(second, replayed=False)
    out.device(_ack(first))
    out.close()
    light_again = Light()
    again = fanout(tmp_path, light_again)
    assert again.open_alerts.look == ("amber", "slow")
    again.device(LightAcknowledged(ts_ns=0, device="light"))  # the dealer's button: all of them
    assert light_again.shown == ["green steady"]
    again.close()
    assert fanout(tmp_path, Light()).open_alerts.look == ("green", "steady")
