from pathlib import Path
from typing import cast

import dagster as dg
import polars as pl

from strata_pipeline.chunking.chunker import CHUNKER_VERSION, chunk_documents
from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.dagster_support.metadata import markdown_table
from strata_pipeline.dagster_support.run_config import ChunkingSettings
from strata_pipeline.enrichment.extract import guess_title
from strata_pipeline.injection.policy import load_injection_policy, scan_chunks
from strata_pipeline.partitions import source_sets
from strata_pipeline.resources import CorpusResource


@dg.asset(
    partitions_def=source_sets,
    group_name="index",
    owners=OWNERS,
    kinds={"python", "polars"},
    tags=asset_tags("chunk", pii="redacted"),
    code_version=code_version(
        __file__, "chunking", "enrichment/extract.py", "dagster_support/run_config.py", "injection"
    ),
)
def chunks(
    context: dg.AssetExecutionContext, config: ChunkingSettings, corpus: CorpusResource, redacted_docs: pl.DataFrame
) -> dg.Output[pl.DataFrame]:
    """Overlapping windows of the included documents, each with its full provenance and its
    prompt-injection scan (risk, findings, and the rules' action: none, flag or quarantine)."""
    indexable = redacted_docs.filter((pl.col("decision") == "include") & (pl.col("status") == "ok")).with_columns(
        pl.struct("text", "doc_id")
        .map_elements(lambda r: guess_title(r["text"], r["doc_id"]), return_dtype=pl.String)
        .alias("title")
    )
    policy = load_injection_policy(Path(corpus.rules_dir), context.partition_key)
    table = scan_chunks(chunk_documents(indexable, config.to_config()), policy)
    actions = table["injection_action"]
    lengths = table["text"].str.len_chars()
    return dg.Output(
        table,
        metadata={
            "chunks": table.height,
            "documents": indexable.height,
            "mean_chunk_chars": round(float(cast(float, lengths.mean()) or 0.0), 1),
            "chunker": CHUNKER_VERSION,
            "injection_flagged": int((actions != "none").sum()),
            "injection_quarantined": int((actions == "quarantine").sum()),
            "injection_policy": policy.policy,
        },
    )


@dg.asset_check(asset=chunks, partitions_def=source_sets, blocking=False)
def chunks_injection_free(chunks: pl.DataFrame) -> dg.AssetCheckResult:
    """No chunk reads as an instruction to a model. A warning, not a block: flagged chunks are kept
    out of answers (quarantine) or never quoted (flag), and the document owner should look."""
    hits = chunks.filter(pl.col("injection_action") != "none")
    preview = hits.select("doc_id", "chunk_index", "injection_risk", "injection_action").head(20)
    return dg.AssetCheckResult(
        passed=hits.height == 0,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "flagged_chunks": hits.height,
            "quarantined_chunks": int((hits["injection_action"] == "quarantine").sum()),
            "documents": hits["doc_id"].n_unique(),
            "preview": dg.MetadataValue.md(markdown_table(preview)),
        },
        description="Chunks read as instructions to a model: see preview." if hits.height else None,
    )
