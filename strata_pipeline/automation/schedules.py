from collections.abc import Iterator

import dagster as dg

from strata_pipeline.automation.jobs import index_job
from strata_pipeline.partitions import source_sets


def _every_partition(context: dg.ScheduleEvaluationContext) -> Iterator[dg.RunRequest]:
    # Dagster requires execution_fn to yield its run requests.
    for key in context.instance.get_dynamic_partitions(source_sets.name):
        yield dg.RunRequest(partition_key=key, run_key=f"nightly-{context.scheduled_execution_time:%Y%m%d}-{key}")


nightly_reindex = dg.ScheduleDefinition(
    name="nightly_reindex",
    job=index_job,
    cron_schedule="0 2 * * *",
    execution_fn=_every_partition,
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Re-materialise every source-set at 02:00; unchanged chunks reuse their vectors.",
)
