"""Index point layout and incremental sync, on any `PointStore` (Qdrant Edge or a Qdrant server)."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from strata_pipeline.indexing.engine import (
    DENSE,
    IDS,
    INDEX_SCHEMA,
    SPARSE,
    ModelMismatchError,
    PointRecord,
    PointStore,
)

__all__ = ["DENSE", "IDS", "INDEX_SCHEMA", "SPARSE", "ModelMismatchError", "PointStore", "sync_points"]

POINT_NAMESPACE = uuid.UUID("5b0b7c6e-9d3a-4f41-8a51-0c2d7f5e3a10")
PAYLOAD_COLUMNS = (
    "chunk_id",
    "source_set",
    "doc_id",
    "project",
    "chunk_index",
    "char_start",
    "char_end",
    "line_start",
    "line_end",
    "page",
    "heading",
    "heading_path",
    "parent_id",
    "parent_line_start",
    "parent_text",
    "title",
    "language",
    "rank_weight",
    "rank_rule",
    "superseded",
    "groups",  # access groups: the query layer filters every search on them
    "text",
    "sha256",
)
# Written when the chunk table has them (chunks asset: the injection scan; the section context with a
# table's header row, which the leak check reads a row under); older tables lack them.
OPTIONAL_PAYLOAD_COLUMNS = ("injection_risk", "injection_findings", "injection_action", "context")


def _payload(row: dict) -> dict:
    return {key: row[key] for key in PAYLOAD_COLUMNS} | {k: row[k] for k in OPTIONAL_PAYLOAD_COLUMNS if k in row}


def point_id(source_set: str, doc_id: str, chunk_index: int) -> str:
    """Deterministic, so re-running a partition replaces points instead of duplicating them."""
    return str(uuid.uuid5(POINT_NAMESPACE, f"{source_set}\x1f{doc_id}\x1f{chunk_index}"))


@dataclass(frozen=True)
class SyncStats:
    upserted: int
    deleted: int
    unchanged: int
    deleted_docs: int
    documents: int = 0  # documents with points in the store after the sync
    changed_docs: int = 0  # of those, documents with a point written or deleted (the rest kept every point)


def existing_points(store: PointStore) -> dict[str, tuple[str, str]]:
    """point id -> (hash of the payload and vectors' inputs, doc_id), for every point in the store."""
    return {
        hit.id: (hit.payload.get("content_hash", ""), hit.payload.get("doc_id", ""))
        for hit in store.scroll(["content_hash", "doc_id"])
    }


def content_hash(row: dict) -> str:
    """Changes whenever anything stored for the point would: its text, its parent section, its line
    numbers (text above it moved) or its vectors."""
    stored = _payload(row)
    vectors = [row.get(key) for key in ("dense", "sparse_indices", "sparse_values", "ids_indices", "ids_values")]
    stored["_vectors"] = hashlib.sha256(json.dumps(vectors, default=list).encode("utf-8")).hexdigest()
    return hashlib.sha256(json.dumps(stored, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def sync_points(
    store: PointStore,
    embeddings: pl.DataFrame,
    batch_size: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> SyncStats:
    """Make the store hold exactly the given chunks: upsert new or changed, delete the rest, in batches
    (a failure keeps what was written)."""
    frame = embeddings.with_columns(
        pl.struct("source_set", "doc_id", "chunk_index")
        .map_elements(lambda r: point_id(r["source_set"], r["doc_id"], r["chunk_index"]), return_dtype=pl.String)
        .alias("point_id"),
        pl.Series("content_hash", [content_hash(r) for r in embeddings.iter_rows(named=True)], dtype=pl.String),
    )
    existing = existing_points(store)
    wanted = set(frame["point_id"].to_list())
    stale = [pid for pid in existing if pid not in wanted]
    gone_docs = {existing[pid][1] for pid in stale} - set(frame["doc_id"].to_list())
    changed = frame.filter(
        pl.struct("point_id", "content_hash").map_elements(
            lambda r: existing.get(r["point_id"], ("", ""))[0] != r["content_hash"], return_dtype=pl.Boolean
        )
    )
    for start in range(0, len(stale), 1000):
        store.delete(stale[start : start + 1000])
    for start in range(0, changed.height, batch_size):
        batch = changed.slice(start, batch_size)
        store.upsert([_to_record(row) for row in batch.iter_rows(named=True)])
        if progress is not None:
            progress(min(start + batch_size, changed.height), changed.height)
    return SyncStats(
        upserted=changed.height,
        deleted=len(stale),
        unchanged=frame.height - changed.height,
        deleted_docs=len(gone_docs),
        documents=frame["doc_id"].n_unique(),
        changed_docs=len(set(changed["doc_id"].to_list()) | ({existing[pid][1] for pid in stale} - gone_docs)),
    )


def _to_record(row: dict) -> PointRecord:
    payload = _payload(row) | {"content_hash": row["content_hash"]}
    return PointRecord(
        id=row["point_id"],
        dense=list(row["dense"]),
        sparse=(list(row["sparse_indices"]), list(row["sparse_values"])),
        ids=(list(row.get("ids_indices") or []), list(row.get("ids_values") or [])),
        payload=payload,
    )


def document_payloads(store: PointStore, source_set: str, doc_id: str, max_chunks: int = 4096) -> list[dict]:
    """Every chunk payload of `doc_id` in order, fetched by point id (no vector query, no scan); the
    caller filters them by access."""
    found: list[dict] = []
    batch_size = 64
    for start in range(0, max_chunks, batch_size):
        ids = [point_id(source_set, doc_id, i) for i in range(start, start + batch_size)]
        batch = store.payloads(ids)
        found += [batch[i] for i in ids if i in batch]
        if len(batch) < batch_size:
            break
    return found
