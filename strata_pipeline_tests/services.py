"""Throwaway services for the deployment tests: a PostgreSQL cluster on 127.0.0.1 and a free port.

CI sets STRATA_REQUIRE_POSTGRES (and STRATA_REQUIRE_BROWSER for the UI test), so a missing service
fails there; a developer without one gets a skip that says what to install.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def unavailable(reason: str, required_by: str) -> None:
    """Fail when the environment says the service is required (CI), skip otherwise."""
    if os.environ.get(required_by, "").strip():
        pytest.fail(f"{reason} ({required_by} is set, so this test may not be skipped)", pytrace=False)
    pytest.skip(f"{reason}; set {required_by}=1 to make this a failure")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Postgres:
    host: str
    port: int
    db_name: str
    username: str
    password: str

    def env(self) -> dict[str, str]:
        """The variables deploy/dagster.postgres.yaml reads."""
        return {
            "DAGSTER_PG_HOST": self.host,
            "DAGSTER_PG_PORT": str(self.port),
            "DAGSTER_PG_DB": self.db_name,
            "DAGSTER_PG_USERNAME": self.username,
            "DAGSTER_PG_PASSWORD": self.password,
        }

    def connect(self, db_name: str | None = None) -> Any:
        import psycopg2

        return psycopg2.connect(
            host=self.host, port=self.port, dbname=db_name or self.db_name, user=self.username, password=self.password
        )


def _pg_bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    # Debian keeps the server programs off PATH
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    return Path(candidates[-1]).parent if candidates else None


@contextmanager
def postgres_server() -> Iterator[Postgres]:
    """initdb + pg_ctl a cluster in a temp folder, listening on 127.0.0.1 only, password auth; removed after.

    initdb refuses to run as root, so as root the cluster belongs to the `postgres` user that the
    Debian package creates.
    """
    bindir = _pg_bindir()
    if bindir is None:
        unavailable("PostgreSQL is not installed (apt-get install postgresql)", "STRATA_REQUIRE_POSTGRES")
    prefix: list[str] = []
    owner = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            unavailable("running as root and there is no `postgres` user to own the cluster", "STRATA_REQUIRE_POSTGRES")
        # runuser lives in sbin, which a non-login PATH may lack
        runuser = shutil.which("runuser") or shutil.which("runuser", path="/usr/sbin:/sbin")
        if runuser is None:
            unavailable(
                "running as root and there is no `runuser` to start PostgreSQL as `postgres`", "STRATA_REQUIRE_POSTGRES"
            )
        prefix = [runuser, "-u", "postgres", "--"]
    base = Path(tempfile.mkdtemp(prefix="strata-pg-"))  # not under pytest's 0700 root-owned tmp folders
    password = secrets.token_urlsafe(16)
    (base / "pwfile").write_text(password + "\n")
    if owner is not None:
        for path in (base, base / "pwfile"):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    data, port = base / "data", free_port()
    server = Postgres("127.0.0.1", port, "strata", "strata", password)

    def run(*args: str) -> None:
        # cwd: the postgres user may not be able to enter the caller's folder (a checkout under /root)
        done = subprocess.run([*prefix, *args], cwd=base, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = (base / "server.log").read_text() if (base / "server.log").exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed:\n{done.stdout}{done.stderr}{log}")

    try:
        run(
            str(bindir / "initdb"), "-D", str(data), "-U", server.username, f"--pwfile={base / 'pwfile'}",
            "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c fsync=off"
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "server.log"), "-o", options, "-w", "start")
        try:
            admin = server.connect("postgres")
            admin.autocommit = True
            with admin.cursor() as cur:
                cur.execute(f"CREATE DATABASE {server.db_name}")
            admin.close()
            yield server
        finally:
            run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(base, ignore_errors=True)
