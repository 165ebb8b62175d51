from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from strata_pipeline.automation.schedules import nightly_reindex
from strata_pipeline.automation.sensors import new_source_set_sensor
from strata_pipeline.definitions import build_definitions
from strata_pipeline.resources import CorpusResource
from strata_pipeline.settings import load_settings


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


def test_nightly_schedule_requests_every_partition() -> None:
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("source_sets", ["handbook", "products"])
        tick = datetime(2026, 12, 2, 2, 0, tzinfo=UTC)
        repository = build_definitions(load_settings()).get_repository_def()
        context = dg.build_schedule_context(instance=instance, scheduled_execution_time=tick, repository_def=repository)
        requests = list(nightly_reindex.evaluate_tick(context).run_requests or [])
        assert sorted((r.partition_key, r.run_key) for r in requests) == [
            ("handbook", "nightly-20261202-handbook"),
            ("products", "nightly-20261202-products"),
        ]
        assert nightly_reindex.cron_schedule == "0 2 * * *"
