"""The engine's and cameras' console on a full disk: a message that cannot be written is dropped
and counted; the process goes on."""

from __future__ import annotations

import contextlib

from feltwatch.appliance.console import TolerantStream


def test_a_console_on_a_full_disk_drops_what_does_not_fit_and_goes_on() -> None:
    full = open("/dev/full", "w")  # noqa: SIM115 (closed below, whatever it holds)
    console = TolerantStream(full)
    print("hand 1 closed: 0 alert(s)", file=console, flush=True)
    print("x" * 10_000, file=console)
    console.flush()
    assert console.dropped >= 10_000
    with contextlib.suppress(OSError):  # what its buffer still holds cannot be written either
        full.close()
