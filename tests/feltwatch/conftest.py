"""Fixtures of the appliance's tests."""

from __future__ import annotations

import resource
import signal
from collections.abc import Iterator

import pytest


@pytest.fixture
def file_size_limit() -> Iterator[None]:
    """The test may lower the largest file this process can write (a disk that fills up:
    writes past it fail with EFBIG); restored afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    yield
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    signal.signal(signal.SIGXFSZ, previous)
