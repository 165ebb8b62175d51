from typing import cast

import dagster as dg
import polars as pl

from strata_pipeline.chunking.chunker import CHUNKER_VERSION, chunk_documents
from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.dagster_support.run_config import ChunkingSettings
from strata_pipeline.enrichment.extract import guess_title
from strata_pipeline.partitions import source_sets


@dg.asset(
    partitions_def=source_sets,
    group_name="index",
    owners=OWNERS,
    kinds={"python", "polars"},
    tags=asset_tags("chunk", pii="redacted"),
    code_version=code_version(__file__, "chunking", "enrichment/extract.py", "dagster_support/run_config.py"),
)
def chunks(config: ChunkingSettings, redacted_docs: pl.DataFrame) -> dg.Output[pl.DataFrame]:
    """Overlapping windows of the included documents, each with its full provenance."""
    indexable = redacted_docs.filter((pl.col("decision") == "include") & (pl.col("status") == "ok")).with_columns(
        pl.struct("text", "doc_id")
        .map_elements(lambda r: guess_title(r["text"], r["doc_id"]), return_dtype=pl.String)
        .alias("title")
    )
    table = chunk_documents(indexable, config.to_config())
    lengths = table["text"].str.len_chars()
    return dg.Output(
        table,
        metadata={
            "chunks": table.height,
            "documents": indexable.height,
            "mean_chunk_chars": round(float(cast(float, lengths.mean()) or 0.0), 1),
            "chunker": CHUNKER_VERSION,
        },
    )
