"""One run writes a source-set at a time.

Two runs of one partition at once would read each other's intermediate outputs and could publish a
version whose eval had not finished. So every asset of a partition first *claims* it: the claim
file `index/<source_set>/WRITER` names the run holding it. A second run finds it held by a run
that is still going and stops with a clear error; a claim left by a run that finished, failed or
was killed (its run no longer in progress) is taken over. The same run may claim again (each of
its steps does). The check-and-write happens under an exclusive `flock`, so two runs starting at
the same moment cannot both win. This protects one machine or a shared local filesystem; across
machines, Dagster's run queue with a tag concurrency limit on the partition does (see
docs/deployment.md).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


class PartitionBusy(RuntimeError):
    """Another run is writing this source-set."""


def claim_path(index_dir: Path, source_set: str) -> Path:
    return Path(index_dir) / source_set / "WRITER"


@contextmanager
def _exclusive(index_dir: Path, source_set: str) -> Iterator[None]:
    lock = claim_path(index_dir, source_set).with_name(".WRITER.lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def holder(index_dir: Path, source_set: str) -> dict | None:
    """The claim on `source_set` (run_id, pid, host, since), or None."""
    try:
        return json.loads(claim_path(index_dir, source_set).read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def claim(index_dir: Path, source_set: str, run_id: str, in_progress: Callable[[str], bool]) -> None:
    """Claim `source_set` for `run_id`, or raise PartitionBusy naming the run that holds it.

    `in_progress(run_id)` says whether another run is still going (Dagster's run status)."""
    with _exclusive(index_dir, source_set):
        current = holder(index_dir, source_set)
        if current and current.get("run_id") != run_id and in_progress(current.get("run_id", "")):
            raise PartitionBusy(
                f"Source-set {source_set!r} is being written by run {current['run_id']} "
                f"(since {current.get('since')}). Wait for it to finish, or cancel it in the Dagster UI, "
                "then run again."
            )
        if current and current.get("run_id") == run_id:
            return
        record = {
            "run_id": run_id,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        path = claim_path(index_dir, source_set)
        tmp = path.with_name(f".WRITER.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(record), encoding="utf-8")
        os.replace(tmp, path)


def release(index_dir: Path, source_set: str, run_id: str) -> bool:
    """Drop the claim if `run_id` holds it. Returns whether it did."""
    with _exclusive(index_dir, source_set):
        current = holder(index_dir, source_set)
        if not current or current.get("run_id") != run_id:
            return False
        claim_path(index_dir, source_set).unlink(missing_ok=True)
        return True
