from contextlib import closing

import dagster as dg
import polars as pl

from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.enrichment.extract import extract_metadata
from strata_pipeline.enrichment.llm import llm_metadata
from strata_pipeline.enrichment.sidecar import (
    counts,
    write_audit,
    write_documents,
    write_fact_tables,
    write_injection_findings,
)
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.partitions import source_sets
from strata_pipeline.resources import AnthropicResource, SidecarResource


@dg.asset(
    partitions_def=source_sets,
    group_name="enrich",
    owners=OWNERS,
    # Claude fills the fields only when ANTHROPIC_API_KEY is set (metadata `enriched_by_llm` counts
    # them); offline the extractor is plain Python, so `anthropic` is no kind of this asset.
    kinds={"python", "sqlite"},
    tags=asset_tags("enrich", pii="redacted") | {"strata/llm": "optional"},
    pool="llm",
    code_version=code_version(__file__, "enrichment"),
    retry_policy=dg.RetryPolicy(max_retries=2, delay=5, backoff=dg.Backoff.EXPONENTIAL, jitter=dg.Jitter.PLUS_MINUS),
)
def enriched_sidecar(
    context: dg.AssetExecutionContext,
    sidecar: SidecarResource,
    llm: AnthropicResource,
    redacted_docs: pl.DataFrame,
    chunks: pl.DataFrame,
    qdrant_collection: IndexVersion,
) -> dg.Output[IndexVersion]:
    """Per-document metadata, spreadsheet fact tables, the redaction audit and the prompt-injection
    findings of flagged chunks, in the version's SQLite.

    Claude fills title, category, tags and summary when ANTHROPIC_API_KEY is set; otherwise a
    deterministic extractor reads headings, front matter and `key: value` lines.
    """
    rows, audit, tables = [], [], 0
    for doc in redacted_docs.iter_rows(named=True):
        readable = doc["status"] == "ok" and doc["decision"] != "exclude"
        meta = extract_metadata(doc["text"] if readable else "", doc["doc_id"], doc["project"], doc["language"] or "")
        if readable and llm.enabled and doc["kind"] == "text":
            meta = llm_metadata(doc["text"], doc["doc_id"], meta, llm.complete)
        rows.append({**doc, **meta.as_row()})
        audit += [{"doc_id": doc["doc_id"], **entry} for entry in doc["audit"] or []]
    with closing(sidecar.connect(qdrant_collection.sidecar_path)) as db:
        write_documents(db, rows)
        write_audit(db, audit)
        findings = write_injection_findings(db, chunks)
        for doc in redacted_docs.filter(pl.col("tables_json").is_not_null()).iter_rows(named=True):
            tables += len(write_fact_tables(db, doc["doc_id"], doc["tables_json"]))
        stored = counts(db)
    return dg.Output(
        qdrant_collection,
        metadata={
            "documents": stored["documents"],
            "fact_tables": stored["fact_tables"],
            "fact_rows": stored["fact_rows"],
            "audit_rows": len(audit),
            "injection_finding_rows": findings,
            "enriched_by_llm": sum(1 for r in rows if r["enriched_by"] == "llm"),
            "sidecar": dg.MetadataValue.path(str(qdrant_collection.sidecar_path)),
        },
    )
