from pathlib import Path

import dagster as dg

from strata_pipeline.defs.automation.jobs import index_job
from strata_pipeline.discovery.adapters import invalid_source_set_names, list_source_sets
from strata_pipeline.partitions import SOURCE_SETS, source_sets
from strata_pipeline.resources import CorpusResource


@dg.sensor(job=index_job, minimum_interval_seconds=60, default_status=dg.DefaultSensorStatus.RUNNING)
def new_source_set_sensor(
    context: dg.SensorEvaluationContext, corpus: CorpusResource
) -> dg.SensorResult | dg.SkipReason:
    """Adds a partition for every new top-level folder of the corpus root and indexes it."""
    root = Path(corpus.root)
    known = set(context.instance.get_dynamic_partitions(SOURCE_SETS))
    new = [name for name in list_source_sets(root) if name not in known]
    if not new:
        skipped = invalid_source_set_names(root)
        note = f" Folders skipped because their names are not slugs: {', '.join(skipped)}." if skipped else ""
        return dg.SkipReason(f"No new source-set folders under {root}.{note}")
    return dg.SensorResult(
        run_requests=[dg.RunRequest(partition_key=name, run_key=f"new-source-set-{name}") for name in new],
        dynamic_partitions_requests=[source_sets.build_add_request(new)],
    )
