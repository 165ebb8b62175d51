from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from strata_pipeline.definitions import build_definitions
from strata_pipeline.defs.automation.schedules import nightly_reindex
from strata_pipeline.defs.automation.sensors import new_source_set_sensor
from strata_pipeline.resources import CorpusResource
from strata_pipeline.settings import load_settings
from strata_pipeline_tests.conftest import make_settings
from strata_pipeline_tests.incremental.test_fingerprint import record_published


def corpus_resource(root: Path) -> CorpusResource:
    return CorpusResource(root=str(root), home=str(root / ".home"), rules_dir=str(root), golden_dir=str(root))


def test_sensor_adds_a_partition_and_requests_a_run_for_each_new_folder(tmp_path: Path) -> None:
    for name in ("handbook", "products", "Bad Name"):
        (tmp_path / name).mkdir()
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("source_sets", ["handbook"])
        context = dg.build_sensor_context(instance=instance, resources={"corpus": corpus_resource(tmp_path)})
        result = new_source_set_sensor(context)
        assert isinstance(result, dg.SensorResult)
        assert [r.partition_key for r in result.run_requests] == ["products"]
        (request,) = result.dynamic_partitions_requests
        assert request.partitions_def_name == "source_sets" and list(request.partition_keys) == ["products"]


def test_sensor_skips_with_a_reason_when_nothing_is_new(tmp_path: Path) -> None:
    (tmp_path / "handbook").mkdir()
    (tmp_path / "Bad Name").mkdir()
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("source_sets", ["handbook"])
        context = dg.build_sensor_context(instance=instance, resources={"corpus": corpus_resource(tmp_path)})
        result = new_source_set_sensor(context)
        assert isinstance(result, dg.SkipReason)
        assert "Bad Name" in result.skip_message


def schedule_tick(settings, instance: dg.DagsterInstance) -> dg.SkipReason | list[dg.RunRequest]:
    tick = datetime(2026, 12, 2, 2, 0, tzinfo=UTC)
    defs = build_definitions(settings)
    # As a context manager, so its resources are torn down here, while `instance` is still open.
    with dg.build_schedule_context(
        instance=instance, scheduled_execution_time=tick, repository_def=defs.get_repository_def(),
        resources=defs.resources,
    ) as context:  # fmt: skip
        result = nightly_reindex.evaluate_tick(context)
    return dg.SkipReason(result.skip_message) if result.skip_message else list(result.run_requests or [])


def test_nightly_schedule_requests_only_partitions_whose_inputs_changed(tmp_path: Path) -> None:
    for name in ("handbook", "products"):
        (tmp_path / "corpus" / name).mkdir(parents=True)
        (tmp_path / "corpus" / name / "faq.md").write_text(f"# {name} FAQ\n\nWho answers questions about {name}?\n")
    settings = make_settings(tmp_path / "home", tmp_path / "corpus")
    record_published(settings, "handbook")  # handbook is up to date; products was never indexed
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("source_sets", ["handbook", "products"])
        requests = schedule_tick(settings, instance)
        assert [(r.partition_key, r.run_key, r.tags["strata/reason"]) for r in requests] == [
            ("products", "nightly-20261202-products", "nothing published yet")
        ]
        record_published(settings, "products")
        skipped = schedule_tick(settings, instance)
        assert isinstance(skipped, dg.SkipReason) and "up to date: handbook (v0), products (v0)" in skipped.skip_message
        (tmp_path / "corpus" / "handbook" / "faq.md").write_text("# Handbook FAQ\n\nAsk the HR desk.\n")
        assert [(r.partition_key, r.tags["strata/reason"]) for r in schedule_tick(settings, instance)] == [
            ("handbook", "files changed")
        ]
    assert nightly_reindex.cron_schedule == "0 2 * * *"


def test_the_schedule_loads_with_the_definitions_resources() -> None:
    repository = build_definitions(load_settings()).get_repository_def()
    assert repository.get_schedule_def("nightly_reindex").required_resource_keys >= {"corpus", "embedder", "pii"}


def test_the_redaction_benchmark_runs_alone_each_night_before_the_reindex() -> None:
    repository = build_definitions(load_settings()).get_repository_def()
    schedule = repository.get_schedule_def("nightly_redaction_quality")
    job = repository.get_job(schedule.job_name)
    assert job.name == "measure_redaction" and job.partitions_def is None
    assert {k.to_user_string() for k in job.asset_layer.executable_asset_keys} == {"redaction_quality"}
    # an unpartitioned asset cannot run in a partitioned job: the index job leaves it out
    index_assets = repository.get_job("index_source_set").asset_layer.executable_asset_keys
    assert dg.AssetKey("redaction_quality") not in index_assets and dg.AssetKey("eval_report") in index_assets
    # 01:30, before nightly_reindex at 02:00
    assert (schedule.cron_schedule, nightly_reindex.cron_schedule) == ("30 1 * * *", "0 2 * * *")
    with dg.build_schedule_context(scheduled_execution_time=datetime(2026, 12, 3, 1, 30, tzinfo=UTC)) as context:
        [request] = list(schedule.evaluate_tick(context).run_requests or [])
    assert request.partition_key is None
