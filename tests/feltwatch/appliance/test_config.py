"""The appliance configuration: the examples in deploy/ are valid; every bad field is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltwatch.appliance.config import ConfigError, load
from feltwatch.cli.main import main

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"


def test_the_demo_config_is_valid_and_reads_into_types(capsys: pytest.CaptureFixture[str]) -> None:
    config = load(DEPLOY / "demo.yaml")
    assert config.table.name == "demo" and config.table.seats == 6
    assert config.cameras[0].source == "demo:1"
    assert config.table.rules().no_flop_no_drop
    assert main(["config", "validate", str(DEPLOY / "demo.yaml")]) == 0
    assert "OK: table demo (NLHE, 6 seats, 50/100)" in capsys.readouterr().out


def test_the_table_example_names_the_zone_files_it_still_needs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["config", "validate", str(DEPLOY / "table.yaml")]) == 1
    err = capsys.readouterr().err.splitlines()
    zones = [DEPLOY / "zones-overhead.yaml", DEPLOY / "zones-dealer.yaml"]
    assert err == [
        *(
            f"{DEPLOY / 'table.yaml'}: cameras[{i}].zones: no such file {file} (write it from a "
            f"still of this camera: feltwatch calibrate STILL --corners ... -o {file})"
            for i, file in enumerate(zones)
        ),
        *(
            f"{DEPLOY / 'table.yaml'}: dashboard.{name}: no such file /etc/feltwatch/tls/{file} "
            "(the dashboard's TLS certificate and key: deploy/README.md)"
            for name, file in (("tls_cert", "dashboard.crt"), ("tls_key", "dashboard.key"))
        ),
    ]


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("table: {name: T, seats: 11, sb: 5, bb: 10, colour: red}",
         ["table.seats: Input should be less than or equal to 10",
          "table.colour: unknown key"]),
        ("table: {name: T, sb: 5, bb: 10, house_rules: {chip_unit: 0}}",
         ["table.house_rules: Value error, house_rules.chip_unit: expected a positive whole"]),
        ("table: {name: T, sb: 5, bb: 10}\nchips: {red: {bgr: [1, 2, 300], denomination: 5}}",
         ["chips.red.bgr[2]: Input should be less than or equal to 255"]),
        ("table: {name: T, sb: 5, bb: 10}\n"
         "cameras: [{name: a, source: demo}, {name: a, source: demo}]",
         ["cameras: Value error, camera names must be unique: a"]),
        ("table: {name: T, sb: 5, bb: 10}\ndevices: {fridge: {port: x}}",
         ["devices.fridge: unknown key"]),
        ("table: {name: T, seat: 6, sb: 5, bb: 10}\ncameras: [{name: a, source: demo, zonez: z}]",
         ["table.seat: unknown key (did you mean 'seats'?)",
          "cameras[0].zonez: unknown key (did you mean 'zones'?)"]),
        ("table: {name: T, sb: 5, bb: 10}\ndashboard: {timezone: Mars/Olympus}",
         ["dashboard.timezone: Value error, 'Mars/Olympus' is not a time zone"]),
        ("table: {name: T, sb: 5, bb: 10}\ndashbord: {port: 80}",
         ["dashbord: unknown key (did you mean 'dashboard'?)"]),
        ("cameras: []", ["table: Field required"]),
        ("table: [1, 2", [":1: not valid YAML"]),
        ("- just a list", [": expected a mapping of sections"]),
        ("table: {name: T, sb: 5, bb: 10}\ndashboard: {host: 0.0.0.0}",
         ["dashboard.host: 0.0.0.0 serves the network over plain HTTP"]),
        ("table: {name: T, sb: 5, bb: 10}\ndashboard: {tls_key: k.pem}",
         ["dashboard.tls_cert and dashboard.tls_key go together",
          "dashboard.tls_key: no such file k.pem"]),
    ],
)  # fmt: skip
def test_every_bad_field_is_named_with_the_file(
    tmp_path: Path, text: str, problems: list[str]
) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert len(caught.value.problems) == len(problems)
    for got, want in zip(caught.value.problems, problems, strict=True):
        assert got.startswith(str(path)) and want in got


def test_a_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "validate", str(tmp_path / "nope.yaml")]) == 2  # unusable input
    assert f"{tmp_path / 'nope.yaml'}: no such file" in capsys.readouterr().err


def test_the_central_example_names_the_secret_files_it_needs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["config", "validate", "--central", str(DEPLOY / "central.yaml")]) == 1
    err = capsys.readouterr().err.splitlines()
    names = [line.split(": ")[1] for line in err]
    assert names == [
        "dashboard.tls_cert",
        "dashboard.tls_key",
        "broker.password_file",
        "broker.tls_ca",
        "store.password_file",
    ]


def test_a_central_config_without_a_store_is_refused(tmp_path: Path) -> None:
    from feltwatch.central.config import load_central

    path = tmp_path / "central.yaml"
    path.write_text("broker: {host: b, port: 70000}\n")
    with pytest.raises(ConfigError) as caught:
        load_central(path)
    assert [p.split(": ")[1] for p in caught.value.problems] == ["broker.port", "store"]
