"""Collection layout and incremental sync against a real embedded Qdrant (hand-made 4-d vectors)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from strata_pipeline.indexing.store import (
    DENSE,
    IDS,
    PAYLOAD_COLUMNS,
    SPARSE,
    ModelMismatchError,
    SyncStats,
    collection_dim,
    ensure_collection,
    existing_points,
    point_id,
    sync_points,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[QdrantClient]:
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    yield client
    client.close()


def chunk(doc_id: str, index: int, text: str, dense: list[float], source_set: str = "handbook") -> dict:
    return {
        "chunk_id": f"{doc_id}#{index}",
        "source_set": source_set,
        "doc_id": doc_id,
        "project": doc_id.split("/")[0],
        "chunk_index": index,
        "char_start": index * 100,
        "char_end": index * 100 + len(text),
        "line_start": index + 1,
        "line_end": index + 1,
        "page": None,
        "heading": "Leave",
        "heading_path": "Policy > Leave",
        "parent_id": f"{doc_id}#s0",
        "parent_line_start": 1,
        "parent_text": f"Section holding {text}",
        "title": "Policy",
        "language": "en",
        "rank_weight": 1.0,
        "rank_rule": "",
        "superseded": False,
        "text": text,
        "sha256": f"sha-{text}",
        "dense": dense,
        "sparse_indices": [index + 1, 100],
        "sparse_values": [1.0, 0.5],
        "ids_indices": [],
        "ids_values": [],
    }


def frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema_overrides={"page": pl.Int64, "dense": pl.List(pl.Float32)})


ROWS = [
    chunk("hr/leave.md", 0, "Twenty-five vacation days.", [1.0, 0.0, 0.0, 0.0]),
    chunk("hr/leave.md", 1, "Carry over until March 31.", [0.9, 0.1, 0.0, 0.0]),
    chunk("hr/expenses.md", 0, "Claims within 30 days.", [0.0, 1.0, 0.0, 0.0]),
    chunk("it/vpn.md", 0, "Use the VPN abroad.", [0.0, 0.0, 1.0, 0.0]),
]


def test_ensure_collection_creates_named_dense_and_bm25_vectors(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    params = client.get_collection("docs").config.params
    assert set(params.vectors) == {DENSE}
    assert params.vectors[DENSE].size == 4
    assert params.vectors[DENSE].distance == qm.Distance.COSINE
    assert set(params.sparse_vectors) == {SPARSE, IDS}
    assert params.sparse_vectors[SPARSE].modifier == params.sparse_vectors[IDS].modifier == qm.Modifier.IDF
    assert collection_dim(client, "docs") == 4
    ensure_collection(client, "docs", 4)  # idempotent
    assert client.count("docs").count == 0


def test_dimension_mismatch_is_a_model_mismatch(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    with pytest.raises(ModelMismatchError, match=r"Collection 'docs' holds 4-d vectors .* makes 384-d ones"):
        ensure_collection(client, "docs", 384)


def test_point_id_is_deterministic_and_scoped_to_the_source_set() -> None:
    pid = point_id("handbook", "hr/leave.md", 0)
    assert pid == point_id("handbook", "hr/leave.md", 0)
    assert uuid.UUID(pid).version == 5
    assert len({pid, point_id("products", "hr/leave.md", 0), point_id("handbook", "hr/leave.md", 1),
                point_id("handbook", "hr/leave.mdx", 0)}) == 4  # fmt: skip


def test_first_sync_upserts_everything_with_payload_and_vectors(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    progress: list[tuple[int, int]] = []
    stats = sync_points(client, "docs", frame(ROWS), batch_size=3, progress=lambda d, t: progress.append((d, t)))
    assert stats == SyncStats(upserted=4, deleted=0, unchanged=0, deleted_docs=0)
    assert progress == [(3, 4), (4, 4)]
    assert client.count("docs").count == 4
    [point] = client.retrieve("docs", [point_id("handbook", "hr/leave.md", 1)], with_vectors=True)
    assert {k: v for k, v in point.payload.items() if k != "content_hash"} == {
        key: ROWS[1][key] for key in PAYLOAD_COLUMNS
    }
    assert len(point.payload["content_hash"]) == 64
    assert point.vector[DENSE] == pytest.approx([0.9938837, 0.1104315, 0.0, 0.0], abs=1e-6)  # cosine: normalised
    assert point.vector[SPARSE].indices == [2, 100]
    stored = existing_points(client, "docs")
    assert {pid: doc for pid, (_, doc) in stored.items()} == {
        point_id(r["source_set"], r["doc_id"], r["chunk_index"]): r["doc_id"] for r in ROWS
    }
    assert all(len(content) == 64 for content, _ in stored.values())  # hash of payload and vectors


def test_resync_of_the_same_frame_changes_nothing(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    sync_points(client, "docs", frame(ROWS))
    assert sync_points(client, "docs", frame(ROWS)) == SyncStats(upserted=0, deleted=0, unchanged=4, deleted_docs=0)
    assert client.count("docs").count == 4


def test_changed_text_upserts_only_that_chunk(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    sync_points(client, "docs", frame(ROWS))
    changed = [*ROWS[:2], chunk("hr/expenses.md", 0, "Claims within 45 days.", [0.0, 1.0, 0.0, 0.0]), ROWS[3]]
    assert sync_points(client, "docs", frame(changed)) == SyncStats(upserted=1, deleted=0, unchanged=3, deleted_docs=0)
    [point] = client.retrieve("docs", [point_id("handbook", "hr/expenses.md", 0)])
    assert point.payload["text"] == "Claims within 45 days."
    assert client.count("docs").count == 4


def test_removed_document_deletes_its_points(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    sync_points(client, "docs", frame(ROWS))
    without_leave = ROWS[2:]
    stats = sync_points(client, "docs", frame(without_leave))
    assert stats == SyncStats(upserted=0, deleted=2, unchanged=2, deleted_docs=1)
    assert {doc for _, doc in existing_points(client, "docs").values()} == {"hr/expenses.md", "it/vpn.md"}


def test_shorter_document_deletes_its_tail_but_counts_no_deleted_doc(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    sync_points(client, "docs", frame(ROWS))
    stats = sync_points(client, "docs", frame([ROWS[0], *ROWS[2:]]))
    assert stats == SyncStats(upserted=0, deleted=1, unchanged=3, deleted_docs=0)
    assert client.count("docs").count == 3


def test_same_doc_in_two_source_sets_are_distinct_points(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    rows = [ROWS[0], chunk("hr/leave.md", 0, "Twenty-five vacation days.", [1.0, 0.0, 0.0, 0.0], "products")]
    assert sync_points(client, "docs", frame(rows)).upserted == 2
    assert client.count("docs").count == 2


def test_syncing_an_empty_frame_empties_the_collection(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    sync_points(client, "docs", frame(ROWS))
    assert sync_points(client, "docs", frame(ROWS).clear()) == SyncStats(
        upserted=0, deleted=4, unchanged=0, deleted_docs=3
    )
    assert client.count("docs").count == 0


def test_a_changed_vector_alone_rewrites_the_point(client: QdrantClient) -> None:
    ensure_collection(client, "docs", 4)
    sync_points(client, "docs", frame(ROWS))
    rows = [dict(r) for r in ROWS]
    rows[0]["sparse_values"] = [2.0, 0.5]  # same text and payload, new weights
    assert sync_points(client, "docs", frame(rows)).upserted == 1
