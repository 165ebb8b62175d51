import time

import dagster as dg
import polars as pl

from strata_pipeline.dagster_support.catalog import OWNERS, asset_tags
from strata_pipeline.dagster_support.lineage import code_version
from strata_pipeline.embedding.embed import embed_chunks
from strata_pipeline.partitions import source_sets
from strata_pipeline.progress import throttled
from strata_pipeline.resources import EmbedderResource


@dg.asset(
    partitions_def=source_sets,
    group_name="index",
    owners=OWNERS,
    kinds={"fastembed", "polars"},
    tags=asset_tags("embed", pii="redacted"),
    pool="embedder",
    code_version=code_version(__file__, "embedding", "chunking/context.py"),
)
def embeddings(
    context: dg.AssetExecutionContext, embedder: EmbedderResource, chunks: pl.DataFrame
) -> dg.Output[pl.DataFrame]:
    """Dense (fastembed) and BM25 sparse vectors per chunk; unchanged texts reuse cached vectors."""
    started = time.perf_counter()
    cache = embedder.vector_cache()

    # per batch (batch_size texts), a line at most every 20 batches or 10 seconds
    progress = throttled(context.log.info, "embedded new chunk texts", every=20 * embedder.batch_size, seconds=10)
    try:
        frame, embedded_now = embed_chunks(
            chunks, embedder.model, embedder.embed_dense, embedder.embed_sparse, cache, embedder.batch_size, progress
        )
    finally:
        cache.close()
    dim = len(frame["dense"][0]) if frame.height else embedder.dim
    seconds = time.perf_counter() - started
    return dg.Output(
        frame,
        metadata={
            "model": embedder.model,
            "dim": dim,
            "sparse_model": embedder.sparse_model,
            "chunks": frame.height,
            "embedded_now": embedded_now,
            "reused_from_cache": frame["sha256"].n_unique() - embedded_now if frame.height else 0,
            "seconds": round(seconds, 2),
        },
    )
