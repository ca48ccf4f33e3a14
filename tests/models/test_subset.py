"""A dataset of links: the frames a spec picks, the same for a seed, labels beside them."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.synth.subset import take


def _source(root: Path) -> Path:
    for split, names in (
        ("train", ["train-0-1", "train-0-2", "train-0-3", "train-t-1"]),
        ("val", ["val-1-1"]),
    ):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        for name in names:
            (root / "images" / split / f"{name}.jpg").write_bytes(b"jpg")
            (root / "labels" / split / f"{name}.txt").write_text(f"0 0.5 0.5 0.1 0.1 # {name}")
    (root / "data.yaml").write_text(f"path: {root}\ntrain: images/train\nval: images/val\n")
    return root


def test_a_subset_links_the_picked_frames_and_their_labels(tmp_path: Path) -> None:
    source = _source(tmp_path / "src")
    counts = take(source, tmp_path / "a", ["train-0-:2", "train-t-:all", "val-1-:all"], seed=3)
    assert counts == {"train": 3, "val": 1}
    train = sorted(p.name for p in (tmp_path / "a" / "images" / "train").iterdir())
    assert "train-t-1.jpg" in train and len(train) == 3
    for name in train:
        label = tmp_path / "a" / "labels" / "train" / name.replace(".jpg", ".txt")
        assert label.read_text().endswith(name.removesuffix(".jpg"))
    assert (tmp_path / "a" / "data.yaml").read_text().startswith(f"path: {tmp_path / 'a'}\n")
    take(source, tmp_path / "b", ["train-0-:2", "train-t-:all", "val-1-:all"], seed=3)
    assert train == sorted(p.name for p in (tmp_path / "b" / "images" / "train").iterdir())


def test_a_spec_that_picks_nothing_is_named(tmp_path: Path) -> None:
    source = _source(tmp_path / "src")
    with pytest.raises(ValueError, match="'train-9-:5'"):
        take(source, tmp_path / "a", ["train-9-:5"], seed=3)
    with pytest.raises(ValueError, match="'test-0-:5'"):
        take(source, tmp_path / "a", ["test-0-:5"], seed=3)
