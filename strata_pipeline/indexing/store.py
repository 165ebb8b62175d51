"""Qdrant collection layout and incremental sync. Works on any QdrantClient (embedded or server)."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import polars as pl
from qdrant_client import QdrantClient
from qdrant_client import models as qm

DENSE = "dense"
SPARSE = "bm25"
IDS = "ids"  # exact identifiers (error codes, versions, part numbers)
# Bumped when the collection layout changes; a version of another schema is rebuilt, not seeded.
INDEX_SCHEMA = 4
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
    "text",
    "sha256",
)


def point_id(source_set: str, doc_id: str, chunk_index: int) -> str:
    """Deterministic, so re-running a partition replaces points instead of duplicating them."""
    return str(uuid.uuid5(POINT_NAMESPACE, f"{source_set}\x1f{doc_id}\x1f{chunk_index}"))


@dataclass(frozen=True)
class SyncStats:
    upserted: int
    deleted: int
    unchanged: int
    deleted_docs: int


class ModelMismatchError(RuntimeError):
    pass


def ensure_collection(client: QdrantClient, name: str, dim: int) -> None:
    """Create the collection with named dense + BM25 sparse vectors, or check the existing one."""
    if client.collection_exists(name):
        existing = collection_dim(client, name)
        if existing != dim:
            raise ModelMismatchError(
                f"Collection {name!r} holds {existing}-d vectors but the embedding model makes {dim}-d ones. "
                "Vectors of different models are never mixed: re-index into a new collection."
            )
        return
    client.create_collection(
        name,
        vectors_config={DENSE: qm.VectorParams(size=dim, distance=qm.Distance.COSINE)},
        sparse_vectors_config={
            SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF),
            IDS: qm.SparseVectorParams(modifier=qm.Modifier.IDF),
        },
    )


def collection_dim(client: QdrantClient, name: str) -> int:
    vectors = client.get_collection(name).config.params.vectors
    assert isinstance(vectors, dict), "Strata collections use named vectors"
    return vectors[DENSE].size


def scroll_payloads(
    client: QdrantClient, collection: str, fields: list[str] | bool = True, with_vectors: bool = False
) -> Iterator[qm.Record]:
    """Every point of the collection, page by page."""
    offset = None
    while True:
        points, offset = client.scroll(
            collection, limit=1000, offset=offset, with_payload=fields, with_vectors=with_vectors
        )
        yield from points
        if offset is None:
            return


def existing_points(client: QdrantClient, collection: str) -> dict[str, tuple[str, str]]:
    """point id -> (hash of the payload and vectors' inputs, doc_id), for every point in the collection."""
    return {
        str(p.id): ((p.payload or {}).get("content_hash", ""), (p.payload or {}).get("doc_id", ""))
        for p in scroll_payloads(client, collection, ["content_hash", "doc_id"])
    }


def content_hash(row: dict) -> str:
    """Changes whenever anything stored for the point would: its text, its parent section, its line
    numbers (text above it moved) or its vectors."""
    stored = {key: row[key] for key in PAYLOAD_COLUMNS}
    vectors = [row.get(key) for key in ("dense", "sparse_indices", "sparse_values", "ids_indices", "ids_values")]
    stored["_vectors"] = hashlib.sha256(json.dumps(vectors, default=list).encode("utf-8")).hexdigest()
    return hashlib.sha256(json.dumps(stored, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def sync_points(
    client: QdrantClient,
    collection: str,
    embeddings: pl.DataFrame,
    batch_size: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> SyncStats:
    """Make the collection hold exactly the given chunks: upsert new or changed, delete the rest."""
    frame = embeddings.with_columns(
        pl.struct("source_set", "doc_id", "chunk_index")
        .map_elements(lambda r: point_id(r["source_set"], r["doc_id"], r["chunk_index"]), return_dtype=pl.String)
        .alias("point_id"),
        pl.Series("content_hash", [content_hash(r) for r in embeddings.iter_rows(named=True)], dtype=pl.String),
    )
    existing = existing_points(client, collection)
    wanted = set(frame["point_id"].to_list())
    stale = [pid for pid in existing if pid not in wanted]
    gone_docs = {existing[pid][1] for pid in stale} - set(frame["doc_id"].to_list())
    changed = frame.filter(
        pl.struct("point_id", "content_hash").map_elements(
            lambda r: existing.get(r["point_id"], ("", ""))[0] != r["content_hash"], return_dtype=pl.Boolean
        )
    )
    for start in range(0, len(stale), 1000):
        client.delete(collection, points_selector=qm.PointIdsList(points=stale[start : start + 1000]))
    for start in range(0, changed.height, batch_size):
        batch = changed.slice(start, batch_size)
        client.upsert(collection, points=[_to_point(row) for row in batch.iter_rows(named=True)], wait=True)
        if progress is not None:
            progress(min(start + batch_size, changed.height), changed.height)
    return SyncStats(
        upserted=changed.height,
        deleted=len(stale),
        unchanged=frame.height - changed.height,
        deleted_docs=len(gone_docs),
    )


def _to_point(row: dict) -> qm.PointStruct:
    vectors: dict = {
        DENSE: row["dense"],
        SPARSE: qm.SparseVector(indices=row["sparse_indices"], values=row["sparse_values"]),
    }
    if row.get("ids_indices"):
        vectors[IDS] = qm.SparseVector(indices=row["ids_indices"], values=row["ids_values"])
    payload = {key: row[key] for key in PAYLOAD_COLUMNS} | {"content_hash": row["content_hash"]}
    return qm.PointStruct(id=row["point_id"], vector=vectors, payload=payload)
