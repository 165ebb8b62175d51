"""A CLI run whose process is gone is marked failed on the next CLI start; live ones are left alone."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import dagster as dg
from dagster._core.storage.dagster_run import DagsterRun

from strata_pipeline.dead_runs import HOST_TAG, LAUNCHED_BY_TAG, PID_TAG, cli_run_tags, fail_dead_cli_runs


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def started_run(instance: dg.DagsterInstance, pid: int, host: str | None = None, by: str = "cli") -> str:
    tags = {LAUNCHED_BY_TAG: by, PID_TAG: str(pid), HOST_TAG: host or socket.gethostname()}
    run = instance.add_run(DagsterRun(job_name="index_source_set", tags=tags, status=dg.DagsterRunStatus.STARTED))
    return run.run_id


def status(instance: dg.DagsterInstance, run_id: str) -> dg.DagsterRunStatus:
    return instance.get_run_by_id(run_id).status


def test_only_runs_of_dead_cli_processes_on_this_host_are_failed() -> None:
    with dg.instance_for_test() as instance:
        dead = started_run(instance, dead_pid())
        alive = started_run(instance, os.getppid())  # the process that started pytest is alive
        elsewhere = started_run(instance, dead_pid(), host="another-host")  # cannot be checked from here
        daemon = started_run(instance, dead_pid(), by="daemon")  # run monitoring's business
        assert fail_dead_cli_runs(instance) == [dead]
        assert status(instance, dead) == dg.DagsterRunStatus.FAILURE
        assert {status(instance, r) for r in (alive, elsewhere, daemon)} == {dg.DagsterRunStatus.STARTED}
        failure = instance.all_logs(dead)[-1]
        assert "is gone: it was killed or crashed" in failure.dagster_event.message
        assert fail_dead_cli_runs(instance) == []  # nothing left to do


def test_cli_runs_carry_their_process_and_host() -> None:
    tags = cli_run_tags()
    assert tags == {LAUNCHED_BY_TAG: "cli", PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname()}
