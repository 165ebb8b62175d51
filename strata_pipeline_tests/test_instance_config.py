"""The checked-in dagster.yaml (the instance `strata ui` and `make ui` run): daemon-launched runs queue
with one run per partition at a time."""

import shutil
from pathlib import Path

import dagster as dg
from dagster._core.run_coordinator import QueuedRunCoordinator

from strata_pipeline.settings import PROJECT_ROOT


def test_the_run_queue_allows_one_run_per_partition(tmp_path: Path) -> None:
    shutil.copy(PROJECT_ROOT / "dagster.yaml", tmp_path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        assert isinstance(instance.run_coordinator, QueuedRunCoordinator)
        queue = instance.get_concurrency_config().run_queue_config
        assert queue is not None
        assert queue.tag_concurrency_limits == [
            {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1}
        ]
        assert instance.get_concurrency_config().pool_config.default_pool_limit == 2


def test_run_monitoring_fails_runs_that_never_start_or_never_end(tmp_path: Path) -> None:
    shutil.copy(PROJECT_ROOT / "dagster.yaml", tmp_path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        assert instance.run_monitoring_enabled
        assert instance.run_monitoring_start_timeout_seconds == 300
        assert instance.run_monitoring_cancel_timeout_seconds == 300
        assert instance.run_monitoring_max_runtime_seconds == 21600
