"""The project's Dagster instance, opened safely by several `strata` processes at once."""

from __future__ import annotations

import fcntl
from pathlib import Path

import dagster as dg


def open_instance(dagster_home: Path) -> dg.DagsterInstance:
    """The instance at `dagster_home` (DAGSTER_HOME).

    The first open creates its SQLite storage; two processes doing that at once both stamp the schema
    version, and every later open fails with "alembic_version has more than one head". So opening is
    serialised across processes with an exclusive flock (held only while opening)."""
    with (Path(dagster_home) / ".instance.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        return dg.DagsterInstance.get()
