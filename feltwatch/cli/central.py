"""``feltwatch central --config central.yaml`` (see ``feltwatch.central.main``)."""

from __future__ import annotations

import argparse


def cmd_central(args: argparse.Namespace) -> int:
    from feltwatch.central.main import main

    return main(["--config", args.config])


def add_central_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("central", help="the floor's central service (MQTT -> PostgreSQL)")
    p.add_argument("--config", required=True, metavar="central.yaml")
    p.set_defaults(run=cmd_central)
