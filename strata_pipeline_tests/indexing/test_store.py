"""Index layout and incremental sync on both engines behind the seam (hand-made 4-d vectors): a real
Qdrant Edge shard, and qdrant-client's in-memory mode standing in for a server (the same client API
that `QDRANT_URL` uses; no server binary installs here)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from qdrant_client import QdrantClient

from strata_pipeline.indexing.engine import EdgeStore, PointStore, ServerStore
from strata_pipeline.indexing.store import (
    DENSE,
    PAYLOAD_COLUMNS,
    SPARSE,
    ModelMismatchError,
    SyncStats,
    existing_points,
    point_id,
    sync_points,
)


@pytest.fixture(params=["edge", "server"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PointStore]:
    if request.param == "edge":
        opened: PointStore = EdgeStore.create(tmp_path / "edge", 4)
    else:
        opened = ServerStore.open_or_create(QdrantClient(location=":memory:"), "docs", 4)
    yield opened
    opened.close()


def record(store: PointStore, pid: str):
    return next(r for r in store.records() if r.id == pid)


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
        "groups": ["public"],
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


def test_a_new_edge_shard_has_the_layout_and_refuses_another_dimension(tmp_path: Path) -> None:
    store = EdgeStore.create(tmp_path / "edge", 4)
    assert (store.dim(), store.count()) == (4, 0)
    store.close()
    reopened = EdgeStore.open_or_create(tmp_path / "edge", 4)  # a seeded copy opens as it is
    assert reopened.dim() == 4
    reopened.close()
    with pytest.raises(ModelMismatchError, match=r"holds 4-d vectors .* makes 384-d ones"):
        EdgeStore.open_or_create(tmp_path / "edge", 384)


def test_a_server_collection_has_the_layout_and_refuses_another_dimension() -> None:
    client = QdrantClient(location=":memory:")
    ServerStore.open_or_create(client, "docs", 4)
    params = client.get_collection("docs").config.params
    assert params.vectors[DENSE].size == 4
    assert set(params.sparse_vectors) == {SPARSE, "ids"}
    with pytest.raises(ModelMismatchError, match=r"Collection 'docs' holds 4-d vectors .* makes 384-d ones"):
        ServerStore.open_or_create(client, "docs", 384)


def test_point_id_is_deterministic_and_scoped_to_the_source_set() -> None:
    pid = point_id("handbook", "hr/leave.md", 0)
    assert pid == point_id("handbook", "hr/leave.md", 0)
    assert uuid.UUID(pid).version == 5
    assert len({pid, point_id("products", "hr/leave.md", 0), point_id("handbook", "hr/leave.md", 1),
                point_id("handbook", "hr/leave.mdx", 0)}) == 4  # fmt: skip


def test_first_sync_upserts_everything_with_payload_and_vectors(store: PointStore) -> None:
    progress: list[tuple[int, int]] = []
    stats = sync_points(store, frame(ROWS), batch_size=3, progress=lambda d, t: progress.append((d, t)))
    assert stats == SyncStats(upserted=4, deleted=0, unchanged=0, deleted_docs=0, documents=3, changed_docs=3)
    assert progress == [(3, 4), (4, 4)]
    assert store.count() == 4
    point = record(store, point_id("handbook", "hr/leave.md", 1))
    assert {k: v for k, v in point.payload.items() if k != "content_hash"} == {
        key: ROWS[1][key] for key in PAYLOAD_COLUMNS
    }
    assert len(point.payload["content_hash"]) == 64
    assert point.dense == pytest.approx([0.9938837, 0.1104315, 0.0, 0.0], abs=1e-6)  # cosine: normalised
    assert point.sparse[0] == [2, 100]
    stored = existing_points(store)
    assert {pid: doc for pid, (_, doc) in stored.items()} == {
        point_id(r["source_set"], r["doc_id"], r["chunk_index"]): r["doc_id"] for r in ROWS
    }
    assert all(len(content) == 64 for content, _ in stored.values())  # hash of payload and vectors


def test_resync_of_the_same_frame_changes_nothing(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    assert sync_points(store, frame(ROWS)) == SyncStats(
        upserted=0, deleted=0, unchanged=4, deleted_docs=0, documents=3, changed_docs=0
    )
    assert store.count() == 4


def test_changed_text_upserts_only_that_chunk(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    changed = [*ROWS[:2], chunk("hr/expenses.md", 0, "Claims within 45 days.", [0.0, 1.0, 0.0, 0.0]), ROWS[3]]
    assert sync_points(store, frame(changed)) == SyncStats(
        upserted=1, deleted=0, unchanged=3, deleted_docs=0, documents=3, changed_docs=1
    )
    assert record(store, point_id("handbook", "hr/expenses.md", 0)).payload["text"] == "Claims within 45 days."
    assert store.count() == 4


def test_removed_document_deletes_its_points(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    without_leave = ROWS[2:]
    stats = sync_points(store, frame(without_leave))
    assert stats == SyncStats(upserted=0, deleted=2, unchanged=2, deleted_docs=1, documents=2, changed_docs=0)
    assert {doc for _, doc in existing_points(store).values()} == {"hr/expenses.md", "it/vpn.md"}


def test_shorter_document_deletes_its_tail_but_counts_no_deleted_doc(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    stats = sync_points(store, frame([ROWS[0], *ROWS[2:]]))
    assert stats == SyncStats(upserted=0, deleted=1, unchanged=3, deleted_docs=0, documents=3, changed_docs=1)
    assert store.count() == 3


def test_same_doc_in_two_source_sets_are_distinct_points(store: PointStore) -> None:
    rows = [ROWS[0], chunk("hr/leave.md", 0, "Twenty-five vacation days.", [1.0, 0.0, 0.0, 0.0], "products")]
    assert sync_points(store, frame(rows)).upserted == 2
    assert store.count() == 2


def test_syncing_an_empty_frame_empties_the_collection(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    assert sync_points(store, frame(ROWS).clear()) == SyncStats(
        upserted=0, deleted=4, unchanged=0, deleted_docs=3, documents=0, changed_docs=0
    )
    assert store.count() == 0


def test_a_changed_vector_alone_rewrites_the_point(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    rows = [dict(r) for r in ROWS]
    rows[0]["sparse_values"] = [2.0, 0.5]  # same text and payload, new weights
    assert sync_points(store, frame(rows)).upserted == 1


def test_delete_where_removes_one_documents_points(store: PointStore) -> None:
    sync_points(store, frame(ROWS))
    store.delete_where({"doc_id": "hr/leave.md"})
    assert {doc for _, doc in existing_points(store).values()} == {"hr/expenses.md", "it/vpn.md"}


def test_a_sealed_edge_shard_is_read_by_several_readers_at_once(tmp_path: Path) -> None:
    writer = EdgeStore.create(tmp_path / "edge", 4)
    sync_points(writer, frame(ROWS))
    writer.seal()
    writer.close()
    first, second = EdgeStore.open(tmp_path / "edge"), EdgeStore.open(tmp_path / "edge")
    try:
        assert first.count() == second.count() == 4
    finally:
        first.close()
        second.close()


def test_an_index_from_before_edge_asks_to_rebuild(tmp_path: Path) -> None:
    (tmp_path / "qdrant").mkdir()
    with pytest.raises(Exception, match="rebuilt: run `strata materialize`"):
        EdgeStore.open(tmp_path / "edge")
