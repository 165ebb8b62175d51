import dagster as dg

from strata_pipeline.dagster_support.catalog import NIGHTLY_REDACTION
from strata_pipeline.defs.automation.jobs import index_job, redaction_quality_job
from strata_pipeline.freshness import freshness
from strata_pipeline.partitions import SOURCE_SETS
from strata_pipeline.resources import (
    AnthropicResource,
    CorpusResource,
    EmbedderResource,
    PiiResource,
    QdrantResource,
    RerankerResource,
)

# Before the re-index, so the eval reports of the night sit beside this night's redaction figures. Cheap
# when nothing changed: the figures are cached under a key of the detector code, config and labelled sets.
nightly_redaction_quality = dg.ScheduleDefinition(
    name=NIGHTLY_REDACTION,
    job=redaction_quality_job,
    cron_schedule="30 1 * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="At 01:30, score the configured redaction on the labelled PII and secret sets.",
)


@dg.schedule(
    job=index_job,
    cron_schedule="0 2 * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="At 02:00, re-materialise every source-set whose inputs changed since its published version.",
)
def nightly_reindex(
    context: dg.ScheduleEvaluationContext,
    corpus: CorpusResource,
    embedder: EmbedderResource,
    pii: PiiResource,
    qdrant: QdrantResource,
    llm: AnthropicResource,
    reranker: RerankerResource,
) -> list[dg.RunRequest] | dg.SkipReason:
    """A run for each stale partition (its files, rules, golden set, settings or code changed since
    its published version, or nothing is published), tagged with what changed; a SkipReason naming
    the up-to-date ones when none is stale. The check lists files and reads them only when the
    listing changed (freshness.py)."""
    resources = {"corpus": corpus, "embedder": embedder, "pii": pii, "qdrant": qdrant, "llm": llm, "reranker": reranker}
    requests, current = [], []
    for key in context.instance.get_dynamic_partitions(SOURCE_SETS):
        state, published = freshness(resources, key)
        if state.up_to_date and published is not None:
            current.append(f"{key} ({published.version})")
            continue
        requests.append(
            dg.RunRequest(
                partition_key=key,
                run_key=f"nightly-{context.scheduled_execution_time:%Y%m%d}-{key}",
                tags={"strata/reason": state.reason[:200]},
            )
        )
    if not requests:
        return dg.SkipReason(f"Every source-set is up to date: {', '.join(current) or 'none registered'}.")
    return requests
