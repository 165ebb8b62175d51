"""Compute the vectors of a chunk table, embedding each distinct text once."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from strata_pipeline.embedding.cache import VectorCache
from strata_pipeline.embedding.identifiers import identifier_vector
from strata_pipeline.embedding.models import DEFAULT_LANGUAGE

DenseFn = Callable[[Sequence[str]], list[np.ndarray]]
SparseFn = Callable[[Sequence[str], Sequence[str]], list[tuple[list[int], list[float]]]]  # (texts, languages)


def embedded_text(context: str, text: str) -> str:
    """What is embedded for one chunk: its text, led by its section context when it has one, so a
    child cut from the middle of "Lisbon depot > Opening hours" still says where it is from. Table
    rows are embedded as records (see table_records)."""
    text = table_records(context, text)
    return f"{context}\n\n{text}" if context else text


def _cells(line: str) -> list[str] | None:
    """The cells of a pipe-table row ("a | b | c"), None for any other line."""
    stripped = line.strip()
    if " | " not in stripped and not stripped.startswith("|") and not stripped.endswith(" |"):
        return None
    if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
        stripped = stripped[1:-1]  # markdown's outer bars
    return [cell.strip() for cell in stripped.split("|")]


def _is_rule(cells: list[str]) -> bool:
    """A markdown table's rule line, "|---|:---:|"."""
    return all(set(cell) <= set("-: ") for cell in cells)


def table_records(context: str, text: str) -> str:
    """Table rows rewritten as records, "zone: B; hourly rate eur: 2.50", for the embedding input only.

    A row of bare values ("B | 2.50 | 3") says nothing about what the values are; a question names
    the column ("the hourly rate in zone B"). The header is the first row of the table in the text,
    or the header row the chunker put on the context's last line. Other lines are kept as they are.
    """
    header = _cells(context.rsplit("\n", 1)[1]) if "\n" in context else None  # the chunker's header line
    out = []
    for line in text.split("\n"):
        cells = _cells(line)
        if cells is None:
            out.append(line)
            if line.strip():
                header = None  # prose between tables: the next table brings its own header
            continue
        if _is_rule(cells):
            out.append(line)
            continue
        if header is None or len(cells) != len(header):
            header = cells  # the first row of a table names its columns
            out.append(line)
            continue
        names = [h.replace("_", " ").strip() for h in header]
        out.append("; ".join(f"{name}: {value}" for name, value in zip(names, cells, strict=True) if value))
    return "\n".join(out)


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
