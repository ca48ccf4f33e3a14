"""The rules engine: one small check per catalogue rule, registered in ``registry.RULES``."""

from __future__ import annotations


def load() -> None:
    """Import every rule module, which registers its rules."""
    from engine.rules import (  # noqa: F401
        betting,
        dealing,
        deck,
        exposed,
        forced,
        mucked,
        payouts,
        premature,
        showdown,
        stacks,
        tray,
    )
