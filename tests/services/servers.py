"""Real servers for the tests, started on loopback in a test's folder and stopped after it:
PostgreSQL (``initdb`` + ``pg_ctl`` from Debian's postgresql package) and Mosquitto (Debian's
mosquitto). ``make test`` installs both (``scripts/install-test-servers.sh``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(argv: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the ``postgres`` account."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def wait_port(port: int, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"nothing listens on 127.0.0.1:{port}")
        time.sleep(0.05)


@dataclass
class Postgres:
    folder: Path
    port: int

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"

    def database(self, name: str) -> str:
        """A fresh database; its DSN."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={name}"


@contextlib.contextmanager
def postgres(folder: Path) -> Iterator[Postgres]:
    assert PG_BIN, (
        "PostgreSQL is missing: `make test` installs it (scripts/install-test-servers.sh)"
    )
    bin_dir = PG_BIN[-1]
    data = folder / "pgdata"
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        os.chmod(folder, 0o755)
        for parent in folder.parents:  # postgres must reach its folder
            if parent == Path("/"):
                break
            os.chmod(parent, os.stat(parent).st_mode | 0o011)
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
            ]
        ),
        check=True,
        capture_output=True,
    )
    port = free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "postgres.log"),
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        wait_port(port)
        yield Postgres(folder, port)
    finally:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )


@dataclass
class Mosquitto:
    folder: Path
    port: int
    config: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.folder / "mosquitto.log").open("ab")
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
        )
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def mosquitto_config(folder: Path, port: int, passwords: Path | None, acl: Path | None) -> Path:
    lines = [
        f"listener {port} 127.0.0.1",
        "persistence true",
        f"persistence_location {folder}/",
        "log_dest stdout",
        # as deploy/mosquitto/feltwatch.conf: the default queue (1000 messages a client) drops
        # what a central service that is away or busy has not taken yet
        "max_queued_messages 1000000",
        "max_queued_bytes 0",
        "max_inflight_messages 100",
    ]
    if os.geteuid() == 0:  # a test's server: stay root (it reads the test's private folder)
        lines.append("user root")
    if passwords is not None:
        lines += ["allow_anonymous false", f"password_file {passwords}"]
    else:
        lines.append("allow_anonymous true")
    if acl is not None:
        lines.append(f"acl_file {acl}")
    path = folder / "mosquitto.conf"
    path.write_text("\n".join(lines) + "\n")
    return path


@contextlib.contextmanager
def mosquitto(
    folder: Path, passwords: Path | None = None, acl: Path | None = None
) -> Iterator[Mosquitto]:
    assert Path(MOSQUITTO).exists(), (
        "mosquitto is missing: `make test` installs it (scripts/install-test-servers.sh)"
    )
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    broker = Mosquitto(folder, port, mosquitto_config(folder, port, passwords, acl))
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
