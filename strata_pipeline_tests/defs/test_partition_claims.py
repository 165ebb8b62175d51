"""A second run of a source-set that another run is writing fails at once and writes nothing; once
the first run has ended (here: failed), the next run takes the partition over and publishes."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from dagster._core.storage.dagster_run import DagsterRun

from strata_pipeline.indexing.claims import claim, holder
from strata_pipeline.indexing.versions import current_version_name
from strata_pipeline_tests.conftest import make_settings, run_partition


def test_one_run_writes_a_source_set_at_a_time(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "ops").mkdir(parents=True)
    (corpus / "ops" / "backup.md").write_text(
        "# Backups\n\nNightly backups of the file server run at 02:00 and are kept for 30 days.\n", encoding="utf-8"
    )
    settings = make_settings(tmp_path / "home", corpus)
    index_dir = settings.home / "index"
    with dg.instance_for_test() as instance:
        other = instance.add_run(DagsterRun(job_name="index_source_set", status=dg.DagsterRunStatus.STARTED))
        claim(index_dir, "ops", other.run_id, in_progress=lambda run: True)

        blocked = run_partition(settings, instance, "ops")
        assert not blocked.success
        failure = next(e for e in blocked.all_events if e.is_step_failure)
        assert failure.step_key == "discovered_docs"
        assert f"being written by run {other.run_id}" in failure.event_specific_data.error.message
        assert current_version_name(index_dir, "ops") is None
        assert holder(index_dir, "ops")["run_id"] == other.run_id

        instance.report_run_failed(instance.get_run_by_id(other.run_id))  # the first run ends
        done = run_partition(settings, instance, "ops")
        assert done.success
        assert current_version_name(index_dir, "ops") is not None
        assert holder(index_dir, "ops") is None  # released once published
