"""Every reader of outside input, fuzzed briefly: no traceback (``bench/fuzz.py`` runs long)."""

from __future__ import annotations

import random

import pytest

from tests.fuzzing import Reader, readers, run

QUICK = 150
"""Inputs per reader in ``make test``."""


@pytest.mark.parametrize("reader", list(readers()), ids=lambda r: r.name.split(" (")[0])
def test_a_fuzzed_reader_takes_its_seeds_and_never_crashes_on_their_mutations(
    reader: Reader,
) -> None:
    seeds = run(reader.name, reader.feed, iter(reader.seeds))
    assert seeds.refused == 0 and seeds.tracebacks == []
    tally = run(reader.name, reader.feed, reader.fuzzed(random.Random(reader.name), QUICK))
    assert tally.tried == QUICK
    assert tally.tracebacks == []
