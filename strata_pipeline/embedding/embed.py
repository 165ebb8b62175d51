"""Compute the vectors of a chunk table, embedding each distinct text once."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from strata_pipeline.chunking.context import embedded_text
from strata_pipeline.chunking.context import table_records as table_records  # re-exported: embed.table_records
from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.identifiers import identifier_vector
from strata_pipeline.embedding.models import DEFAULT_LANGUAGE

DenseFn = Callable[[Sequence[str]], list[np.ndarray]]
SparseFn = Callable[[Sequence[str], Sequence[str]], list[tuple[list[int], list[float]]]]  # (texts, languages)


def embedding_inputs(chunks: pl.DataFrame) -> list[str]:
    """embedded_text of every chunk of a chunk table."""
    texts = chunks["text"].to_list()
    if "context" not in chunks.columns:
        return texts
    return [embedded_text(ctx, text) for ctx, text in zip(chunks["context"].to_list(), texts, strict=True)]


def embed_chunks(
    chunks: pl.DataFrame,
    model_name: str,
    dense: DenseFn,
    sparse: SparseFn,
    cache: VectorCache,
    batch_size: int = 16,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[pl.DataFrame, int]:
    """Add `dense`, `sparse_*` (BM25 in each chunk's language) and `ids_*` (exact identifiers) columns.

    Vectors are cached by the sha256 of what was embedded (see embedding_inputs).
    Returns (frame, number of texts actually embedded). Texts are embedded in length order,
    which keeps padding per batch small, and stored in the cache batch by batch so an
    interrupted run keeps what it paid for.
    """
    inputs = embedding_inputs(chunks)
    keys = [hashlib.sha256(text.encode("utf-8")).hexdigest() for text in inputs]
    texts = dict(zip(keys, inputs, strict=True))
    vectors = cache.get_many(model_name, list(texts))
    missing = sorted((sha for sha in texts if sha not in vectors), key=lambda sha: len(texts[sha]))
    for start in range(0, len(missing), batch_size):
        batch = missing[start : start + batch_size]
        fresh = dict(zip(batch, dense([texts[sha] for sha in batch]), strict=True))
        cache.put_many(model_name, fresh)
        vectors.update(fresh)
        if progress is not None:
            progress(min(start + batch_size, len(missing)), len(missing))
    # BM25 is thousands of texts per second: recomputing beats caching it.
    languages = [lang or DEFAULT_LANGUAGE for lang in chunks["language"].to_list()]
    sparse_vectors = sparse(inputs, languages)
    id_vectors = [identifier_vector(text) for text in chunks["text"].to_list()]
    frame = chunks.with_columns(
        pl.Series("dense", [vectors[key].tolist() for key in keys], dtype=pl.List(pl.Float32)),
        pl.Series("sparse_indices", [s[0] for s in sparse_vectors], dtype=pl.List(pl.Int64)),
        pl.Series("sparse_values", [s[1] for s in sparse_vectors], dtype=pl.List(pl.Float32)),
        pl.Series("ids_indices", [v[0] for v in id_vectors], dtype=pl.List(pl.Int64)),
        pl.Series("ids_values", [v[1] for v in id_vectors], dtype=pl.List(pl.Float32)),
    )
    return frame, len(missing)
