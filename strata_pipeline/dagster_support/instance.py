"""The project's Dagster instance, opened safely by several `strata` processes at once."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg


@contextmanager
def instance_held(dagster_home: Path) -> Iterator[dg.DagsterInstance]:
    """The instance at `dagster_home` (DAGSTER_HOME), with an exclusive flock held inside the block.

    The first open creates its SQLite storage; two processes doing that at once both stamp the schema
    version, and every later open fails with "alembic_version has more than one head". Registering a
    dynamic partition is a read-then-insert with no unique key, so two at once register it twice. Both
    therefore happen under the lock; the instance stays usable after the block."""
    with (Path(dagster_home) / ".instance.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield dg.DagsterInstance.get()
