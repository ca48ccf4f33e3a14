"""``feltwatch config validate FILE``: check a configuration and name every bad field."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feltwatch.appliance.exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNUSABLE


def cmd_config_validate(args: argparse.Namespace) -> int:
    from feltwatch.appliance.config import ConfigError, load

    if not Path(args.file).is_file():
        print(f"{args.file}: no such file", file=sys.stderr)
        return EXIT_UNUSABLE
    if args.central:
        return _validate_central(args.file)
    try:
        config = load(Path(args.file))
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    table = config.table
    devices = [name for name in ("shoe", "tray", "light") if getattr(config.devices, name)]
    print(
        f"{args.file}: OK: table {table.name} ({table.game}, {table.seats} seats, "
        f"{table.sb}/{table.bb}); cameras: {', '.join(c.name for c in config.cameras) or 'none'};"
        f" devices: {', '.join(devices) or 'none'}; {len(config.chips)} chip colours"
    )
    return EXIT_OK


def _validate_central(file: str) -> int:
    from feltwatch.appliance.config import ConfigError
    from feltwatch.central.config import load_central

    try:
        config = load_central(Path(file))
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    broker = config.broker
    print(
        f"{file}: OK: central service; broker {broker.host}:{broker.port}"
        f"{' (TLS)' if broker.tls_ca else ''}; dashboard port {config.dashboard.port}"
    )
    return EXIT_OK


def add_config_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    config = commands.add_parser("config", help="the appliance configuration").add_subparsers(
        dest="config_command", required=True, metavar="SUBCOMMAND"
    )
    p = config.add_parser("validate", help="check a configuration file, name every bad field")
    p.add_argument("file", metavar="FILE.yaml")
    p.add_argument("--central", action="store_true", help="FILE is central.yaml")
    p.set_defaults(run=cmd_config_validate)
