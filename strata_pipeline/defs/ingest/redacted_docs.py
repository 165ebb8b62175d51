from pathlib import Path

import dagster as dg
import polars as pl

from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.dagster_support.metadata import markdown_table
from strata_pipeline.incremental.cache import memoized
from strata_pipeline.incremental.digests import digest_of, redaction_code_digest
from strata_pipeline.partitions import source_sets
from strata_pipeline.progress import throttled
from strata_pipeline.redaction.documents import redact_documents
from strata_pipeline.redaction.verify import Leak, find_leaks, planted_values
from strata_pipeline.resources import CacheResource, CorpusResource, PiiResource

AUDIT_TYPE = pl.List(
    pl.Struct(
        {
            "entity": pl.String(),
            "start": pl.Int64(),
            "length": pl.Int64(),
            "detector": pl.String(),
            "score": pl.Float64(),
            "decision": pl.String(),
            "placeholder": pl.String(),
        }
    )
)


@dg.asset(
    partitions_def=source_sets,
    group_name="ingest",
    owners=OWNERS,
    kinds={"polars", "presidio"},
    tags=asset_tags("redact", pii="redacted"),
    code_version=code_version(__file__, "redaction", "text"),
)
def redacted_docs(
    context: dg.AssetExecutionContext, pii: PiiResource, cache: CacheResource, classified_docs: pl.DataFrame
) -> dg.Output[pl.DataFrame]:
    """Secret values and personal data replaced by placeholders, with a masked audit per document.

    Excluded documents lose their text here, so nothing of theirs travels further. A document whose
    text and tables were redacted before by the same detectors, policy and code reuses that result
    (the redaction cache holds redacted text only).
    """
    progress = throttled(context.log.info, "redacted documents", every=200)
    with cache.open("redaction") as redactions:
        outcomes = redact_documents(
            classified_docs.iter_rows(named=True),
            classified_docs.height,
            pii.detector,  # the NER model loads only when a document needs it
            pii.policy(),
            pii.digest(),
            redactions,
            progress,
        )
    reused, recomputed = redactions.hits, redactions.misses
    redacted = classified_docs.with_columns(
        pl.Series("text", [o["text"] for o in outcomes], dtype=pl.String),
        pl.Series("tables_json", [o["tables_json"] for o in outcomes], dtype=pl.String),
        pl.Series("audit", [o["audit"] for o in outcomes], dtype=AUDIT_TYPE),
    )
    entries = redacted.select("doc_id", "audit").explode("audit").unnest("audit").drop_nulls("entity")
    per_type = entries.filter(pl.col("decision") == "redact").group_by("entity").agg(pl.len().alias("redacted"))
    metadata: dict = {f"redacted_{row['entity'].lower()}": row["redacted"] for row in per_type.iter_rows(named=True)}
    metadata |= {
        "documents_reused": reused,
        "documents_recomputed": recomputed,
        "redactions": int(per_type["redacted"].sum() or 0),
        "kept_role_contacts": entries.filter(pl.col("decision") == "keep_role_contact").height,
        "documents_with_redactions": entries.filter(pl.col("decision") == "redact")["doc_id"].n_unique(),
        "pii_backend": pii.backend,
        "by_entity": dg.MetadataValue.md(markdown_table(per_type.sort("redacted", descending=True))),
    }
    return dg.Output(redacted, metadata=metadata)


@dg.asset_check(asset=redacted_docs, partitions_def=source_sets, blocking=True)
def redacted_docs_no_secrets(
    context: dg.AssetCheckExecutionContext, corpus: CorpusResource, cache: CacheResource, redacted_docs: pl.DataFrame
) -> dg.AssetCheckResult:
    """No secret-shaped token and no value planted in the sample corpus survives redaction.

    Every document is checked; the verdict on a text scanned before by the same code for the same
    planted values is remembered (the secret_scan cache holds leak kinds, no text)."""
    planted = planted_values(Path(corpus.golden_dir), context.partition_key)
    texts = [
        (r["doc_id"], (r["text"] or "") + "\n" + (r["tables_json"] or "")) for r in redacted_docs.iter_rows(named=True)
    ]
    with cache.open("secret_scan") as scans:
        kinds = memoized(
            scans,
            "secret_scan",
            digest_of([redaction_code_digest(), planted]),
            lambda text: [leak.kind for leak in find_leaks([("", text)], planted)],
        )
        leaks = [Leak(doc_id, kind) for doc_id, text in texts for kind in kinds(text)]
    return dg.AssetCheckResult(
        passed=not leaks,
        metadata={
            "leaks": len(leaks),
            "planted_values_checked": len(planted),
            "leak_preview": dg.MetadataValue.md(
                markdown_table(
                    pl.DataFrame([leak.__dict__ for leak in leaks], schema={"doc_id": pl.String, "kind": pl.String})
                )
            ),
        },
        description="Redaction let secret values through: fix the detector before indexing." if leaks else None,
    )
