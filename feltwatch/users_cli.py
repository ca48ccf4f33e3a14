"""``feltwatch users add|list|password --config table.yaml``: the dashboard's accounts (there is
no default account outside the demo: the installer creates the first admin with this)."""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from pathlib import Path

EXIT_OK, EXIT_BAD_INPUT, EXIT_UNUSABLE = 0, 1, 2


def _password(args: argparse.Namespace) -> str | None:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("again: ") != first:
        print("the two passwords differ", file=sys.stderr)
        return None
    return first


def cmd_users(args: argparse.Namespace) -> int:
    from dashboard.security import PasswordError, hash_password
    from dashboard.store import Role, StoreError
    from dashboard.store.sqlite import SqliteStore
    from feltwatch.config import ConfigError, load

    try:
        config = load(Path(args.config))
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_UNUSABLE
    try:
        store = SqliteStore(config.dashboard.store)
    except OSError as exc:
        print(f"{config.dashboard.store}: cannot open: {exc.strerror or exc}", file=sys.stderr)
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


def add_users_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from dashboard.store import Role

    users = commands.add_parser("users", help="the dashboard's accounts").add_subparsers(
        dest="users_command", required=True, metavar="SUBCOMMAND"
    )
    for name, text in (("add", "add an account"), ("password", "set an account's password")):
        p = users.add_parser(name, help=text)
        p.add_argument("name")
        if name == "add":
            p.add_argument("--role", choices=[str(r) for r in Role], required=True)
        p.add_argument("--config", required=True, metavar="FILE.yaml")
        p.add_argument(
            "--password-stdin", action="store_true", help="read the password from standard input"
        )
        p.set_defaults(run=cmd_users)
    p = users.add_parser("list", help="the accounts and their roles")
    p.add_argument("--config", required=True, metavar="FILE.yaml")
    p.set_defaults(run=cmd_users)
