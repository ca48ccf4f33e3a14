"""A training's state, written whole at a checkpoint and read back by ``--resume`` (the recipe's
long runs go on where a stopped one left off, on the same device or another)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch


def save_state(path: Path, state: dict[str, Any]) -> None:
    """``state`` (tensors, state dicts, numbers) to ``path``, whole or not at all: a run stopped
    while writing leaves the checkpoint before."""
    import torch

    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_state(path: Path) -> dict[str, Any] | None:
    """The state at ``path``, or None where there is none."""
    import torch

    if not path.exists():
        return None
    state: dict[str, Any] = torch.load(path, map_location="cpu", weights_only=False)
    return state


def random_states(device: torch.device) -> dict[str, Any]:
    """torch's random generators (dropout draws from them) on the CPU and ``device``."""
    import torch

    states: dict[str, Any] = {"cpu": torch.get_rng_state()}
    if device.type == "cuda":
        states["cuda"] = torch.cuda.get_rng_state(device)
    return states


def set_random_states(states: dict[str, Any], device: torch.device) -> None:
    """Put back ``random_states``; a CUDA state goes back only to a CUDA device (a run that
    moves between devices draws its dropout afresh there)."""
    import torch

    torch.set_rng_state(states["cpu"])
    if device.type == "cuda" and "cuda" in states:
        torch.cuda.set_rng_state(states["cuda"], device)
