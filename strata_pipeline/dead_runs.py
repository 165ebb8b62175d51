"""CLI runs whose process died (kill -9, a lost machine) are marked failed on the next CLI start.

`strata materialize` runs in its own process (execute_in_process), so when that process is killed
nothing tells Dagster, and the run would stay STARTED forever. Each CLI run is tagged with its host
and process id; before the next CLI run starts, a STARTED run from this host whose process is gone
is reported failed. Runs launched by the daemon are left to Dagster's run monitoring (see
docs/deployment.md).
"""

from __future__ import annotations

import os
import socket

import dagster as dg

PID_TAG = "strata/pid"
HOST_TAG = "strata/host"
LAUNCHED_BY_TAG = "strata/launched_by"


def cli_run_tags() -> dict[str, str]:
    """Tags that let a later CLI start tell whether this run's process is still alive."""
    return {LAUNCHED_BY_TAG: "cli", PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname()}


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only checks that the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


def fail_dead_cli_runs(instance: dg.DagsterInstance) -> list[str]:
    """Report failed every STARTED CLI run of this host whose process is gone. Returns their run ids."""
    host = socket.gethostname()
    runs = instance.get_runs(
        filters=dg.RunsFilter(
            statuses=[dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.STARTING],
            tags={LAUNCHED_BY_TAG: "cli", HOST_TAG: host},
        )
    )
    failed = []
    for run in runs:
        pid = run.tags.get(PID_TAG, "")
        if not pid.isdigit() or int(pid) == os.getpid() or process_alive(int(pid)):
            continue
        instance.report_run_failed(
            run,
            message=f"The strata process (pid {pid} on {host}) that ran this run is gone: it was killed or crashed.",
        )
        failed.append(run.run_id)
    return failed
