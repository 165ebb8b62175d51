from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.classification.language import detect_language
from strata_pipeline.classification.rules import (
    access_counts,
    classify_docs,
    detected_version_evidence,
    load_rules,
    reason_counts,
)
from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.claims import claim_partition
from strata_pipeline.dagster_support.lineage import code_version, run_chunking
from strata_pipeline.dagster_support.metadata import markdown_table
from strata_pipeline.incremental.cache import memoized
from strata_pipeline.incremental.digests import digest_of, library_versions, source_digest
from strata_pipeline.partitions import source_sets
from strata_pipeline.planning.plan import build_plan
from strata_pipeline.planning.report import write_plan
from strata_pipeline.redaction.redact import count_redactions
from strata_pipeline.resources import CacheResource, CorpusResource, PiiResource

LANGUAGE_DIGEST = digest_of([source_digest("classification/language.py"), library_versions("langdetect")])


@dg.asset(
    partitions_def=source_sets,
    group_name="ingest",
    owners=OWNERS,
    kinds={"polars", "presidio"},  # Presidio counts the redactions the plan announces
    tags=asset_tags("classify", pii="raw"),
    code_version=code_version(__file__, "classification", "planning"),
)
def classified_docs(
    context: dg.AssetExecutionContext,
    corpus: CorpusResource,
    pii: PiiResource,
    cache: CacheResource,
    discovered_docs: pl.DataFrame,
) -> dg.Output[pl.DataFrame]:
    """Include / exclude / metadata-only per document; the first matching rule is the recorded reason.

    Its metadata is the dry-run plan (`strata plan` prints the same): reasons, per-project
    coverage with blind spots and outliers, redaction counts and the estimated number of chunks,
    all before anything is embedded. The full plan tables are written to files linked here.
    """
    claim_partition(context, corpus.index_dir)  # one run writes a source-set at a time
    rule_set = load_rules(Path(corpus.rules_dir), context.partition_key)
    with cache.open("language") as languages:  # langdetect per text, kept between runs
        language = memoized(languages, "language", LANGUAGE_DIGEST, detect_language)
        classified = classify_docs(discovered_docs, rule_set, language)
    policy = pii.policy()
    with cache.open("plan_counts") as counts:  # redaction counts per text, kept between runs
        # the detector (seconds to build) is asked for only when a text was not counted before
        count = memoized(
            counts, "plan_counts", pii.digest(plan=True), lambda t: count_redactions(t, pii.plan_detector(), policy)
        )
        plan = build_plan(classified, run_chunking(context), count)
    stem = f"plan-{datetime.now(UTC):%Y%m%dT%H%M%S}"
    documents_csv, projects_csv = write_plan(plan, corpus.reports_dir / context.partition_key, stem)
    return dg.Output(
        classified,
        metadata={
            **plan.totals(),
            "rules_digest": rule_set.digest,
            "rule_files": ", ".join(rule_set.sources),
            "reasons": dg.MetadataValue.md(markdown_table(reason_counts(classified))),
            "access_groups": dg.MetadataValue.md(markdown_table(access_counts(classified))),
            # old versions no archive folder marked, found by their own text or a newer file beside them
            "detected_old_versions": dg.MetadataValue.md(markdown_table(detected_version_evidence(classified))),
            "projects": dg.MetadataValue.md(markdown_table(plan.projects)),
            "documents_preview": dg.MetadataValue.md(
                markdown_table(plan.documents.select("doc_id", "decision", "rule", "estimated_chunks"), max_rows=15)
            ),
            "plan_documents": dg.MetadataValue.path(str(documents_csv)),
            "plan_projects": dg.MetadataValue.path(str(projects_csv)),
        },
    )
