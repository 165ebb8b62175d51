"""The exact in-process index answers what embedded Qdrant answers, on a real embedded collection
written by ensure_collection + sync_points, ties in the identifier list included."""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from qdrant_client import QdrantClient

from strata_pipeline.embedding.identifiers import identifier_vector
from strata_pipeline.indexing.store import (
    DENSE,
    IDS,
    PAYLOAD_COLUMNS,
    SPARSE,
    ensure_collection,
    point_id,
    sync_points,
)
from strata_pipeline.retrieval import exact_index
from strata_pipeline.retrieval.exact_index import ExactIndex
from strata_pipeline.retrieval.search import MODES, Lists, QueryVectors, Retriever, query_lists, rank

DIM = 8
CHUNKS = 240
VOCAB = 60
COLLECTION = "chunks"


def row(i: int, rng: np.random.Generator, text: str | None = None) -> dict:
    # Identifiers: x-N is shared by 4 chunks (a selective tie), e-10N by 40 (non-selective), nr-N by one.
    text = text or f"Chunk {i} mentions X-{i % 60} and E-10{i % 6}" + (f" and NR-{i}" if i % 10 == 0 else "")
    terms = sorted(rng.choice(VOCAB, size=int(rng.integers(2, 9)), replace=False).tolist())
    ids = identifier_vector(text)
    doc_id = f"doc-{i // 3}.md"
    return dict.fromkeys(PAYLOAD_COLUMNS) | {
        "chunk_id": f"{doc_id}#{i % 3}", "source_set": "handbook", "doc_id": doc_id, "project": "p",
        "chunk_index": i % 3, "char_start": 0, "char_end": len(text), "line_start": 1, "line_end": 1,
        "page": None, "heading": "H", "heading_path": "H", "parent_id": f"{doc_id}#s0", "parent_line_start": 1,
        "parent_text": f"Section of {text}", "title": "T", "language": "en", "text": text, "sha256": f"sha-{i}",
        "dense": rng.standard_normal(DIM).astype(np.float32).tolist(),
        "sparse_indices": terms, "sparse_values": rng.choice([0.5, 1.0, 1.5, 2.0], size=len(terms)).tolist(),
        "ids_indices": ids[0], "ids_values": ids[1],
    }  # fmt: skip


def frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema_overrides={"page": pl.Int64, "dense": pl.List(pl.Float32)})


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    rng = np.random.default_rng(7)
    return [row(i, rng) for i in range(CHUNKS)]


def tmpfs_dir() -> Path:
    """On tmpfs when there is one: qdrant-client fsyncs every point it writes, which on disk is slow."""
    shm = Path("/dev/shm")
    return Path(tempfile.mkdtemp(prefix="strata-test-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))


@pytest.fixture
def scratch() -> Iterator[Path]:
    root = tmpfs_dir()
    yield root
    shutil.rmtree(root, ignore_errors=True)


def write_store(path: Path, rows: list[dict]) -> QdrantClient:
    client = QdrantClient(path=str(path))
    ensure_collection(client, COLLECTION, DIM)
    sync_points(client, COLLECTION, frame(rows))
    return client


@pytest.fixture(scope="module")
def template(rows: list[dict]) -> Iterator[Path]:
    """The collection written once; each test opens its own copy."""
    root = tmpfs_dir()
    write_store(root / "qdrant", rows).close()
    yield root / "qdrant"
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def client(scratch: Path, template: Path) -> Iterator[QdrantClient]:
    """A copy of the template opened the way a reader opens a published version (loaded from disk)."""
    shutil.copytree(template, scratch / "qdrant")
    client = QdrantClient(path=str(scratch / "qdrant"))
    yield client
    client.close()


def queries() -> list[QueryVectors]:
    rng = np.random.default_rng(11)
    out = []
    for ids in ("", "what is x-7?", "e-1003 again", "x-12 or nr-50", "nr-999 is unknown", ""):
        terms = rng.choice(VOCAB + 5, size=4, replace=False).tolist()  # a term or two nobody holds
        out.append(
            QueryVectors(rng.standard_normal(DIM).tolist(), (terms, rng.random(4).tolist()), identifier_vector(ids))
        )
    return out


def assert_same(ours: Lists, qdrant: Lists) -> None:
    for name in (DENSE, SPARSE, IDS):
        mine = sorted((c.ranks[name], c.point_id, c.scores[name]) for c in ours.candidates.values() if name in c.ranks)
        theirs = sorted(
            (c.ranks[name], c.point_id, c.scores[name]) for c in qdrant.candidates.values() if name in c.ranks
        )
        assert [m[:2] for m in mine] == [t[:2] for t in theirs], name
        assert [m[2] for m in mine] == pytest.approx([t[2] for t in theirs], abs=1e-5), name
    assert ours.fused == qdrant.fused
    assert list(ours.candidates) == list(qdrant.candidates)  # insertion order feeds rank()'s tie-breaks
    for pid, cand in qdrant.candidates.items():
        assert ours.candidates[pid].payload == cand.payload
        assert ours.candidates[pid].fused_score == pytest.approx(cand.fused_score, abs=1e-12)
    for mode in MODES:
        assert [c.point_id for c in rank(ours, mode)] == [c.point_id for c in rank(qdrant, mode)], mode


@pytest.mark.parametrize("writer", [False, True], ids=["reader", "writer"])
def test_lists_equal_qdrants(client: QdrantClient, scratch: Path, rows: list[dict], writer: bool) -> None:
    # A reader loads the points from disk (in reverse write order, float64); the client that wrote
    # them holds them in write order, as float32: Qdrant's slot order and ties differ between the two.
    reader = write_store(scratch / "writer", rows) if writer else client
    index = ExactIndex.build(reader, COLLECTION, qdrant_ties=True)
    assert index.source == "mirror" and index.point_count == CHUNKS
    tied = False
    for vectors in queries():
        qdrant = query_lists(reader, COLLECTION, vectors, candidates=20)
        ours = index.query_lists(reader, vectors, candidates=20)
        assert_same(ours, qdrant)
        scores = [c.scores[IDS] for c in qdrant.candidates.values() if IDS in c.scores]
        tied |= len(scores) != len(set(scores))
    assert tied, "the queries must exercise ties in the identifier list"
    if writer:
        reader.close()


def test_scroll_fallback_has_qdrants_scores(client: QdrantClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact_index, "_mirror", lambda *_: None)  # a client that keeps its arrays elsewhere
    index = ExactIndex.build(client, COLLECTION)
    assert index.source == "scroll"
    for vectors in queries():
        qdrant, ours = query_lists(client, COLLECTION, vectors, 20), index.query_lists(client, vectors, 20)
        for name in (DENSE, SPARSE, IDS):
            by_rank = [
                sorted((c.ranks[name], c.scores[name]) for c in lists.candidates.values() if name in c.ranks)
                for lists in (ours, qdrant)
            ]
            # Same scores rank for rank; only which of several tied points comes first may differ.
            assert [s for _, s in by_rank[0]] == pytest.approx([s for _, s in by_rank[1]], abs=1e-5)


def test_removed_and_changed_points_are_reflected(client: QdrantClient, scratch: Path, rows: list[dict]) -> None:
    gone = rows[3]["doc_id"]
    changed = dict(rows[0], text="Now it names X-7 only", sha256="sha-new", dense=[1.0] + [0.0] * (DIM - 1))
    changed |= dict(zip(("ids_indices", "ids_values"), identifier_vector(changed["text"]), strict=True))
    kept = [changed] + [r for r in rows[1:] if r["doc_id"] != gone]
    stats = sync_points(client, COLLECTION, frame(kept))
    assert (stats.deleted, stats.upserted) == (3, 1)
    gone_ids = {point_id("handbook", gone, i) for i in range(3)}
    probe = QueryVectors([1.0] + [0.0] * (DIM - 1), ([1, 2, 3], [1.0, 1.0, 1.0]), identifier_vector("x-7 x-9"))
    # The writing client keeps deleted slots in its arrays, flagged; the next reader loads without them.
    for label in ("writer", "next reader"):
        if label == "next reader":
            client.close()
            client = QdrantClient(path=str(scratch / "qdrant"))
        index = ExactIndex.build(client, COLLECTION, qdrant_ties=True)
        assert index.point_count == len(kept), label
        lists = index.query_lists(client, probe, candidates=CHUNKS)
        assert not gone_ids & set(lists.candidates), label
        top = lists.candidates[point_id("handbook", rows[0]["doc_id"], 0)]
        assert top.ranks[DENSE] == 1 and top.scores[DENSE] == pytest.approx(1.0, abs=1e-6), label
        assert top.payload["text"] == "Now it names X-7 only", label
        assert_same(lists, query_lists(client, COLLECTION, probe, candidates=CHUNKS))
    client.close()


def test_retriever_uses_the_index_and_stays_on_qdrant_without_one(client: QdrantClient) -> None:
    vectors = queries()[1]
    index = ExactIndex.build(client, COLLECTION, qdrant_ties=True)  # compared with Qdrant's own order
    calls: list[int] = []
    original = index.query_lists

    def counted(*args: object, **kwargs: object) -> Lists:
        calls.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    index.query_lists = counted  # type: ignore[method-assign]
    plain = Retriever(lambda _: vectors.dense, lambda _: vectors.sparse, {"handbook": (client, COLLECTION)})
    plain.vectors = lambda _: vectors  # type: ignore[method-assign]
    fast = Retriever(
        lambda _: vectors.dense, lambda _: vectors.sparse, {"handbook": (client, COLLECTION)}, exact={"handbook": index}
    )
    fast.vectors = lambda _: vectors  # type: ignore[method-assign]
    for mode in MODES:
        assert [c.point_id for c in fast.search("q", 10, mode=mode)] == [
            c.point_id for c in plain.search("q", 10, mode=mode)
        ]
    assert len(calls) == len(MODES)


def test_served_ties_go_by_point_id_with_qdrants_scores(client: QdrantClient) -> None:
    """The serving default skips the full sort that reproduces Qdrant's order among exact ties: same
    scores rank for rank, same tied sets, ties ordered by point id, deterministic."""
    served, exact = ExactIndex.build(client, COLLECTION), ExactIndex.build(client, COLLECTION, qdrant_ties=True)
    broke_a_tie = False
    for vectors in queries():
        ours, theirs = served.query_lists(client, vectors, 20), exact.query_lists(client, vectors, 20)
        for name in (DENSE, SPARSE, IDS):
            mine = sorted(
                (c.ranks[name], c.scores[name], c.point_id) for c in ours.candidates.values() if name in c.ranks
            )
            qdrants = sorted(
                (c.ranks[name], c.scores[name], c.point_id) for c in theirs.candidates.values() if name in c.ranks
            )
            assert [s for _, s, _ in mine] == [s for _, s, _ in qdrants], name
            by_score: dict[float, set[str]] = {}
            for _, score, pid in qdrants:
                by_score.setdefault(score, set()).add(pid)
            if len(mine) == 20:  # a full list may cut a tie: only scores above the last one compare as sets
                by_score.pop(mine[-1][1], None)
            for score, pids in by_score.items():
                assert {pid for _, s, pid in mine if s == score} == pids, name
            for (_, s1, p1), (_, s2, p2) in itertools.pairwise(mine):
                if s1 == s2:
                    broke_a_tie = True
                    assert p1 < p2, name
        assert served.query_lists(client, vectors, 20).fused == ours.fused  # deterministic
    assert broke_a_tie, "the queries must exercise ties"
