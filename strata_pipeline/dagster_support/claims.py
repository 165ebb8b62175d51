"""Assets claim their partition before writing it (strata_pipeline.indexing.claims), so two runs
of one source-set never mix outputs; a second run fails at once with a message naming the first."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from strata_pipeline.indexing.claims import PartitionBusy, claim, release


def claim_partition(context: dg.AssetExecutionContext, index_dir: Path) -> None:
    """Claim this run's partition, or fail the step naming the run that is writing it."""

    def in_progress(run_id: str) -> bool:
        run = context.instance.get_run_by_id(run_id) if run_id else None
        return run is not None and not run.is_finished

    try:
        claim(index_dir, context.partition_key, context.run_id, in_progress)
    except PartitionBusy as exc:
        raise dg.Failure(str(exc)) from exc


def release_partition(context: dg.AssetExecutionContext, index_dir: Path) -> None:
    release(index_dir, context.partition_key, context.run_id)
