"""deploy/dagster.postgres.yaml as shipped: a real materialisation on a PostgreSQL instance (127.0.0.1).

The run, its events and the asset materialisations are read back with plain SQL, so the test proves
they live in PostgreSQL and not in some SQLite file beside DAGSTER_HOME.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.run_coordinator import QueuedRunCoordinator
from dagster_postgres import PostgresEventLogStorage, PostgresRunStorage, PostgresScheduleStorage

from strata_pipeline.settings import PROJECT_ROOT
from strata_pipeline_tests.conftest import make_settings, run_partition
from strata_pipeline_tests.defs.test_index_job import ASSETS
from strata_pipeline_tests.plant import PUMPS, SENSORS, VALVE_QUESTION, VALVES, write_plant
from strata_pipeline_tests.services import Postgres, postgres_server

DEPLOY_CONFIG = PROJECT_ROOT / "deploy" / "dagster.postgres.yaml"
DOCS = {"guides/valves.md": VALVES, "guides/pumps.md": PUMPS, "specs/sensors.txt": SENSORS}


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    with postgres_server() as server:
        yield server


def test_a_materialisation_on_the_production_instance_is_recorded_in_postgres(
    tmp_path: Path, postgres: Postgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in postgres.env().items():
        monkeypatch.setenv(name, value)
    dagster_home = tmp_path / "dagster_home"
    dagster_home.mkdir()
    shutil.copy(DEPLOY_CONFIG, dagster_home / "dagster.yaml")
    corpus, golden = write_plant(tmp_path, DOCS, VALVE_QUESTION)
    settings = dataclasses.replace(make_settings(tmp_path / "home", corpus), golden_dir=golden)

    instance = dg.DagsterInstance.from_config(str(dagster_home))
    try:
        # the file means what docs/deployment.md says it means
        assert isinstance(instance.run_storage, PostgresRunStorage)
        assert isinstance(instance.event_log_storage, PostgresEventLogStorage)
        assert isinstance(instance.schedule_storage, PostgresScheduleStorage)
        assert isinstance(instance.run_coordinator, QueuedRunCoordinator)
        queue = instance.get_concurrency_config().run_queue_config
        assert queue is not None and queue.max_concurrent_runs == 4
        assert {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1} in (
            queue.tag_concurrency_limits
        )
        assert instance.run_monitoring_enabled and instance.run_monitoring_max_runtime_seconds == 6 * 3600

        result = run_partition(settings, instance, "plant")
        assert result.success
        run_id = result.run_id
    finally:
        instance.dispose()

    connection = postgres.connect()
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT status, partition FROM runs WHERE run_id = %s", (run_id,))
            assert cur.fetchall() == [("SUCCESS", "plant")]
            cur.execute(
                "SELECT asset_key, partition FROM event_logs WHERE run_id = %s AND dagster_event_type = %s",
                (run_id, "ASSET_MATERIALIZATION"),
            )
            materialised = cur.fetchall()
            assert {json.loads(key)[-1] for key, _ in materialised} == set(ASSETS)
            assert {partition for _, partition in materialised} == {"plant"}
            cur.execute(
                "SELECT count(*) FROM event_logs WHERE run_id = %s AND dagster_event_type = %s",
                (run_id, "ASSET_CHECK_EVALUATION"),
            )
            assert cur.fetchone() == (6,)  # the index job's checks, chunks_injection_free included
            cur.execute("SELECT partition FROM dynamic_partitions WHERE partitions_def_name = 'source_sets'")
            assert cur.fetchall() == [("plant",)]
    finally:
        connection.close()

    # a second instance (another process, in production) reads the eval figures back from PostgreSQL
    reader = dg.DagsterInstance.from_config(str(dagster_home))
    try:
        records = reader.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey("eval_report"), asset_partitions=["plant"]), limit=1
        ).records
        assert records[0].run_id == run_id
        assert records[0].asset_materialization.metadata["plant/recall_at_3"].value == 1.0
    finally:
        reader.dispose()
    assert not list(dagster_home.glob("**/*.db"))  # nothing fell back to SQLite
