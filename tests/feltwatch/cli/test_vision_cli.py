"""``feltwatch detect`` on images of any size and ``feltwatch calibrate``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest
import yaml

from feltwatch.cli.main import main
from models.image_file import read_image
from models.synth.scene import render
from models.synth.video import Layout
from vision.zones import ZoneMap


@pytest.fixture(scope="module")
def table_image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    scene = render(
        random.Random(21), 1280, 720, card_px=70, cards_up=4, cards_down=2, chip_piles=2, hands=0
    )
    path = tmp_path_factory.mktemp("detect") / "table.png"
    cv2.imwrite(str(path), scene.image)
    return path


def test_detect_prints_one_json_object_per_image_with_labels_boxes_and_chip_values(
    table_image: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = table_image.with_name("big.jpg")  # a 24-megapixel still of the same table
    cv2.imwrite(str(big), cv2.resize(read_image(table_image), (6000, 4000)))
    assert main(["detect", str(table_image), str(big), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(table_image), str(big)]
    assert (lines[1]["width"], lines[1]["height"]) == (6000, 4000)
    for line in lines:
        labels = [d["label"] for d in line["detections"]]
        assert "card_back" in labels and "chip" in labels
        assert sum(len(label) == 2 for label in labels) >= 2  # named face-up cards
        for d in line["detections"]:
            x1, y1, x2, y2 = d["box"]
            assert 0 <= x1 < x2 <= line["width"] + 1 and 0 <= y1 < y2 <= line["height"] + 1
            assert 0 < d["conf"] <= 1
            if d["label"] == "chip":
                assert isinstance(d["colour"], str) and d["denomination"] > 0


def test_detect_names_images_it_cannot_read_and_goes_on(
    table_image: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not really a jpeg")
    assert main(["detect", str(tmp_path / "nope.png"), str(broken), str(table_image)]) == 2
    captured = capsys.readouterr()
    assert f"{tmp_path / 'nope.png'}: no such file" in captured.err
    assert f"{broken}: not an image OpenCV can read" in captured.err
    assert f"{table_image} (1280 x 720):" in captured.out


def test_detect_without_a_model_says_which_file_is_missing(
    table_image: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(table_image), "--detector", str(tmp_path / "x.onnx")]) == 2
    assert "x.onnx: model file missing" in capsys.readouterr().err


def test_calibrate_draws_a_grid_then_writes_zones_the_worker_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = Layout()
    still = tmp_path / "still.png"
    cv2.imwrite(str(still), render(random.Random(1), 1920, 1080).image)
    grid = tmp_path / "grid.png"
    assert main(["calibrate", str(still), "--preview", str(grid)]) == 0
    monkeypatch.chdir(tmp_path)  # told nowhere, it writes under build/, not the folder's top
    assert main(["calibrate", str(still)]) == 0
    assert (tmp_path / "build" / "calibration" / "calibration.png").is_file()
    assert read_image(grid).shape == (1080, 1920, 3)
    assert "--corners" in capsys.readouterr().out
    marked = ZoneMap.from_config(layout.zone_config()).calibration.corners_px
    corners = " ".join(f"{x:g},{y:g}" for x, y in marked)
    out, check = tmp_path / "zones.yaml", tmp_path / "check.png"
    assert (
        main(
            ["calibrate", str(still), "--corners", corners, "-o", str(out), "--preview", str(check)]
        )
        == 0
    )
    zones = ZoneMap.from_config(yaml.safe_load(out.read_text()))
    assert zones.zone_of(layout.to_frame(layout.places["board"])) == "board"
    assert zones.zone_of(layout.to_frame(layout.places["seat:4"])) == "seat:4"
    assert check.exists()


def test_calibrate_refuses_corners_that_enclose_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    still = tmp_path / "still.png"
    cv2.imwrite(str(still), render(random.Random(1), 640, 360).image)
    assert main(["calibrate", str(still), "--corners", "0,0 1,0 1,1 0,1"]) == 2
    assert "--corners: the four corners enclose" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["calibrate", str(still), "--corners", "0,0 1,0"])
