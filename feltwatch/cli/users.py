"""``feltwatch users add|list|password --config table.yaml``: the dashboard's accounts (there is
no default account outside the demo: the installer creates the first admin with this)."""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from feltwatch.appliance.exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNUSABLE

if TYPE_CHECKING:
    from dashboard.store.sql import SqlStore


def _password(args: argparse.Namespace) -> str | None:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("again: ") != first:
        print("the two passwords differ", file=sys.stderr)
        return None
    return first


def open_store(config_path: Path, *, central: bool) -> SqlStore:
    """The store a table's dashboard (``table.yaml``) or the central service uses."""
    if central:
        from dashboard.store.postgres import PostgresStore
        from feltwatch.central.config import load_central

        config = load_central(config_path)
        return PostgresStore(config.dsn(config_path.parent))
    from dashboard.store.sqlite import SqliteStore
    from feltwatch.appliance.config import load

    return SqliteStore(load(config_path).dashboard.store)


def cmd_users(args: argparse.Namespace) -> int:
    from dashboard.security import PasswordError, hash_password
    from dashboard.store import Role, StoreError
    from feltwatch.appliance.config import ConfigError

    try:
        store: SqlStore = open_store(Path(args.config), central=args.central)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_UNUSABLE
    except Exception as exc:  # the database cannot be opened (file or server)
        print(f"{args.config}: the store cannot be opened: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    try:
        if args.users_command == "list":
            for user in store.users():
                state = "\tdisabled" if user.disabled else ""
                print(f"{user.name}\t{user.role}{state}")
            return EXIT_OK
        password = _password(args)
        if password is None:
            return EXIT_BAD_INPUT
        digest = hash_password(password)
        if args.users_command == "add":
            store.add_user(args.name, digest, Role(args.role), time.time())
            store.audit("(console)", "add user", args.name, args.role, "console", time.time())
            print(f"added {args.name} ({args.role})")
        else:
            store.set_password(args.name, digest)
            store.audit("(console)", "set password", args.name, "", "console", time.time())
            print(f"password of {args.name} changed")
        return EXIT_OK
    except (PasswordError, StoreError) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        store.close()


def add_users_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from dashboard.store import Role

    users = commands.add_parser("users", help="the dashboard's accounts").add_subparsers(
        dest="users_command", required=True, metavar="SUBCOMMAND"
    )
    for name, text in (("add", "add an account"), ("password", "set an account's password")):
        p = users.add_parser(name, help=text)
        p.add_argument("name")
        if name == "add":
            p.add_argument("--role", choices=[str(r) for r in Role], required=True)
        p.add_argument(
            "--password-stdin", action="store_true", help="read the password from standard input"
        )
    users.add_parser("list", help="the accounts and their roles")
    for p in users.choices.values():
        p.add_argument("--config", required=True, metavar="FILE.yaml")
        p.add_argument(
            "--central", action="store_true", help="FILE is central.yaml (accounts of the floor)"
        )
        p.set_defaults(run=cmd_users)
