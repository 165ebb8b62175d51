"""Reciprocal-rank fusion and hybrid search on a real embedded Qdrant with hand-made vectors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from strata_pipeline.indexing.store import DENSE, SPARSE, ensure_collection
from strata_pipeline.retrieval.search import RRF_K, Candidate, Retriever, hybrid_search, rrf_scores


def test_rrf_exact_values() -> None:
    assert RRF_K == 60
    scores = rrf_scores([["a", "b", "c"], ["b", "d"]])
    assert scores == {
        "a": 1 / 61,
        "b": 1 / 62 + 1 / 61,
        "c": 1 / 63,
        "d": 1 / 62,
    }
    assert scores["b"] == pytest.approx(0.032522474881015334)
    assert rrf_scores([["x", "y"]], k=0) == {"x": 1.0, "y": 0.5}
    assert rrf_scores([]) == {}
    assert rrf_scores([[], []]) == {}


def test_rrf_an_item_ranked_by_both_beats_one_ranked_first_by_one() -> None:
    scores = rrf_scores([["a", "b"], ["c", "b"]])
    assert max(scores, key=scores.get) == "b"
    assert scores["a"] == scores["c"]


# Points: dense vectors in 4-d, sparse vectors over a vocabulary of term ids.
POINTS = {
    # name: (dense, sparse indices, sparse values)
    "alpha": ([1.0, 0.0, 0.0, 0.0], [1], [1.0]),
    "beta": ([0.8, 0.6, 0.0, 0.0], [1, 2], [1.0, 1.0]),
    "gamma": ([0.0, 1.0, 0.0, 0.0], [2, 3], [1.0, 1.0]),
    "delta": ([0.0, 0.0, 1.0, 0.0], [4], [1.0]),
}
IDS = {name: i + 1 for i, name in enumerate(POINTS)}


def fill(client: QdrantClient, collection: str, source_set: str, names: list[str]) -> None:
    ensure_collection(client, collection, 4)
    client.upsert(
        collection,
        points=[
            qm.PointStruct(
                id=IDS[name],
                vector={
                    DENSE: POINTS[name][0],
                    SPARSE: qm.SparseVector(indices=POINTS[name][1], values=POINTS[name][2]),
                },
                payload={"chunk_id": f"{name}.md#0", "doc_id": f"{name}.md", "source_set": source_set, "text": name},
            )
            for name in names
        ],
        wait=True,
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[QdrantClient]:
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    fill(client, "handbook", "handbook", ["alpha", "beta", "gamma", "delta"])
    yield client
    client.close()


# Dense query closest to alpha, then beta; sparse query term 2 (beta, gamma) and term 3 (gamma only).
DENSE_QUERY = [1.0, 0.1, 0.0, 0.0]
SPARSE_QUERY = ([2, 3], [1.0, 1.0])


def test_hybrid_search_records_both_ranks_and_fuses(client: QdrantClient) -> None:
    hits = hybrid_search(client, "handbook", DENSE_QUERY, SPARSE_QUERY, limit=10)
    ranks = {c.doc_id: (c.dense_rank, c.sparse_rank) for c in hits}
    # Dense: alpha (cos .995), beta (.855), gamma (.0995); delta is orthogonal (0.0) and still returned.
    assert ranks == {
        "alpha.md": (1, None),
        "beta.md": (2, 2),
        "gamma.md": (3, 1),
        "delta.md": (4, None),
    }
    assert [c.doc_id for c in hits] == ["gamma.md", "beta.md", "alpha.md", "delta.md"]
    fused = {c.doc_id: c.fused_score for c in hits}
    assert fused == {
        "gamma.md": pytest.approx(1 / 63 + 1 / 61),
        "beta.md": pytest.approx(1 / 62 + 1 / 62),
        "alpha.md": pytest.approx(1 / 61),
        "delta.md": pytest.approx(1 / 64),
    }
    alpha = next(c for c in hits if c.doc_id == "alpha.md")
    assert alpha.dense_score == pytest.approx(1 / (1.01**0.5), abs=1e-5)
    assert alpha.sparse_score is None
    assert alpha.chunk_id == "alpha.md#0"
    assert alpha.payload["text"] == "alpha"


def test_hybrid_search_limit_and_candidates(client: QdrantClient) -> None:
    assert [c.doc_id for c in hybrid_search(client, "handbook", DENSE_QUERY, SPARSE_QUERY, limit=2)] == [
        "gamma.md",
        "beta.md",
    ]
    # With one candidate per retriever only alpha (dense #1) and gamma (sparse #1) are fused; dense breaks the tie.
    hits = hybrid_search(client, "handbook", DENSE_QUERY, SPARSE_QUERY, limit=10, candidates=1)
    assert [(c.doc_id, c.dense_rank, c.sparse_rank) for c in hits] == [("alpha.md", 1, None), ("gamma.md", None, 1)]
    assert hits[0].fused_score == hits[1].fused_score == pytest.approx(1 / 61)


def test_hybrid_search_custom_rrf_k(client: QdrantClient) -> None:
    hits = hybrid_search(client, "handbook", DENSE_QUERY, SPARSE_QUERY, limit=10, rrf_k=0)
    assert {c.doc_id: c.fused_score for c in hits} == {
        "gamma.md": pytest.approx(1 / 3 + 1),
        "beta.md": pytest.approx(1.0),
        "alpha.md": pytest.approx(1.0),
        "delta.md": pytest.approx(0.25),
    }
    assert [c.doc_id for c in hits] == ["gamma.md", "alpha.md", "beta.md", "delta.md"]


def test_candidate_defaults() -> None:
    cand = Candidate("p1", {})
    assert (cand.chunk_id, cand.doc_id, cand.dense_rank, cand.sparse_rank) == ("", "", None, None)
    assert (cand.dense_score, cand.sparse_score, cand.fused_score, cand.extra) == (None, None, 0.0, {})


def test_retriever_across_two_collections(client: QdrantClient) -> None:
    fill(client, "products", "products", ["beta", "delta"])
    queries: list[str] = []

    def dense_query(text: str) -> list[float]:
        queries.append(text)
        return DENSE_QUERY

    retriever = Retriever(
        dense_query, lambda text: SPARSE_QUERY, {"handbook": (client, "handbook"), "products": (client, "products")}
    )
    hits = retriever.search("vacation days", limit=3)
    assert queries == ["vacation days"]  # the query is embedded once for all collections
    # products: beta is dense #1 and sparse #1 (2/61), the best fused score anywhere.
    assert [(c.payload["source_set"], c.doc_id) for c in hits] == [
        ("products", "beta.md"),
        ("handbook", "gamma.md"),
        ("handbook", "beta.md"),
    ]
    assert hits[0].fused_score == pytest.approx(2 / 61)
    only_products = retriever.search("vacation days", limit=5, source_sets=["products"])
    assert [(c.payload["source_set"], c.doc_id) for c in only_products] == [
        ("products", "beta.md"),
        ("products", "delta.md"),
    ]


def test_retriever_unknown_source_set_is_a_lookup_error(client: QdrantClient) -> None:
    retriever = Retriever(lambda t: DENSE_QUERY, lambda t: SPARSE_QUERY, {"handbook": (client, "handbook")})
    # A LookupError (KeyError or the package's own subclass), naming every unknown source-set.
    with pytest.raises(LookupError, match=r"No published index for source-set\(s\): archive, zeta"):
        retriever.search("anything", limit=3, source_sets=["handbook", "zeta", "archive"])
    assert len(retriever.search("anything", limit=3, source_sets=["handbook"])) == 3
