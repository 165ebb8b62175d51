"""Reciprocal-rank fusion and hybrid search with hand-made vectors, on both engines behind the seam:
a real Qdrant Edge shard, and qdrant-client's in-memory mode standing in for a Qdrant server. The same
`HybridQuery` must give the same lists, scores and fused order on both."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from strata_pipeline.embedding.identifiers import identifier_vector
from strata_pipeline.indexing.engine import DENSE, IDS, SPARSE, EdgeStore, PointRecord, PointStore, ServerStore
from strata_pipeline.retrieval.search import (
    DEFAULT_WEIGHTS,
    RRF_K,
    Candidate,
    QueryVectors,
    Retriever,
    fusion_weights,
    hybrid_search,
    query_lists,
    rank,
    rrf_term,
)


def test_rrf_term_is_qdrants_weighted_formula() -> None:
    assert RRF_K == 60
    assert rrf_term(1, 60, 1.0) == pytest.approx(1 / 60)  # Qdrant: 1 / (rank / weight + k - 1)
    assert rrf_term(3, 60, 1.0) == pytest.approx(1 / 62)
    assert rrf_term(1, 60, 2.0) == pytest.approx(1 / 59.5)  # a weight of 2 halves the rank's cost
    assert rrf_term(1, 60, 0.0) == 0.0


# Points: dense vectors in 4-d, sparse vectors over a vocabulary of term ids.
POINTS = {
    # name: (dense, sparse indices, sparse values)
    "alpha": ([1.0, 0.0, 0.0, 0.0], [1], [1.0]),
    "beta": ([0.8, 0.6, 0.0, 0.0], [1, 2], [1.0, 1.0]),
    "gamma": ([0.0, 1.0, 0.0, 0.0], [2, 3], [1.0, 1.0]),
    "delta": ([0.0, 0.0, 1.0, 0.0], [4], [1.0]),
}
# Only delta's text names an identifier.
IDENTIFIERS = {"delta": "Fault E-1042 resets the drive."}


def point_uuid(source_set: str, name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{source_set}/{name}"))


def fill(store: PointStore, source_set: str, names: list[str]) -> None:
    store.upsert(
        [
            PointRecord(
                point_uuid(source_set, name),
                POINTS[name][0],
                (POINTS[name][1], POINTS[name][2]),
                identifier_vector(IDENTIFIERS[name]) if name in IDENTIFIERS else ([], []),
                {"chunk_id": f"{name}.md#0", "doc_id": f"{name}.md", "source_set": source_set, "text": name},
            )
            for name in names
        ]
    )


@pytest.fixture(params=["edge", "server"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[str], PointStore]]:
    opened: list[PointStore] = []
    client = QdrantClient(location=":memory:")

    def make(name: str) -> PointStore:
        if request.param == "edge":
            store: PointStore = EdgeStore.create(tmp_path / name, 4)
        else:
            store = ServerStore.open_or_create(client, name, 4)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store: Callable[[str], PointStore]) -> PointStore:
    handbook = make_store("handbook")
    fill(handbook, "handbook", ["alpha", "beta", "gamma", "delta"])
    return handbook


# Dense query closest to alpha, then beta; sparse query term 2 (beta, gamma) and term 3 (gamma only).
DENSE_QUERY = [1.0, 0.1, 0.0, 0.0]
SPARSE_QUERY = ([2, 3], [1.0, 1.0])
NO_IDS: tuple[list[int], list[float]] = ([], [])
QUERY = QueryVectors(DENSE_QUERY, SPARSE_QUERY, NO_IDS)
EQUAL = {DENSE: 1.0, SPARSE: 1.0, IDS: 2.0}  # the hand-computed fusions below weigh dense and BM25 alike


def q(k: int) -> float:
    """Qdrant's RRF contribution of rank k with the default constant."""
    return 1 / (k + 59)


def test_hybrid_search_records_every_rank_and_qdrant_fuses(store: PointStore) -> None:
    hits = hybrid_search(store, QUERY, limit=10, weights=EQUAL)
    ranks = {c.doc_id: (c.dense_rank, c.sparse_rank, c.identifier_rank) for c in hits}
    # Dense: alpha (cos .995), beta (.855), gamma (.0995); delta is orthogonal (0.0) and still returned.
    assert ranks == {
        "alpha.md": (1, None, None),
        "beta.md": (2, 2, None),
        "gamma.md": (3, 1, None),
        "delta.md": (4, None, None),
    }
    assert [c.doc_id for c in hits] == ["gamma.md", "beta.md", "alpha.md", "delta.md"]
    fused = {c.doc_id: c.fused_score for c in hits}
    assert fused == {
        "gamma.md": pytest.approx(q(3) + q(1)),
        "beta.md": pytest.approx(q(2) + q(2)),
        "alpha.md": pytest.approx(q(1)),
        "delta.md": pytest.approx(q(4)),
    }
    alpha = next(c for c in hits if c.doc_id == "alpha.md")
    assert alpha.dense_score == pytest.approx(1 / (1.01**0.5), abs=1e-5)
    assert alpha.sparse_score is None
    assert alpha.chunk_id == "alpha.md#0" and alpha.payload["text"] == "alpha"


def test_a_named_identifier_puts_the_exact_chunk_first(store: PointStore) -> None:
    vectors = QueryVectors(DENSE_QUERY, SPARSE_QUERY, identifier_vector("what is e-1042?"))
    hits = hybrid_search(store, vectors, limit=10)
    assert hits[0].doc_id == "delta.md" and hits[0].identifier_rank == 1
    assert hits[0].fused_score == pytest.approx(q(4) + 1 / (1 / 2 + 59))  # identifier list weighs 2


def test_single_list_modes_rank_by_that_list(store: PointStore) -> None:
    dense = hybrid_search(store, QUERY, limit=10, mode="dense")
    assert [c.doc_id for c in dense] == ["alpha.md", "beta.md", "gamma.md", "delta.md"]
    sparse = hybrid_search(store, QUERY, limit=10, mode="sparse")
    assert [c.doc_id for c in sparse] == ["gamma.md", "beta.md"]
    with pytest.raises(ValueError, match="Unknown retrieval mode"):
        hybrid_search(store, QUERY, limit=3, mode="magic")


def test_hybrid_search_limit_and_custom_k(store: PointStore) -> None:
    assert [c.doc_id for c in hybrid_search(store, QUERY, limit=2, weights=EQUAL)] == [
        "gamma.md",
        "beta.md",
    ]
    hits = hybrid_search(store, QUERY, limit=10, rrf_k=1, weights=EQUAL)
    assert {c.doc_id: c.fused_score for c in hits} == {
        "gamma.md": pytest.approx(1 / 3 + 1),
        "beta.md": pytest.approx(1.0),
        "alpha.md": pytest.approx(1.0),
        "delta.md": pytest.approx(0.25),
    }


def test_default_weights_give_bm25_the_edge(store: PointStore) -> None:
    """Weighted RRF (Qdrant's formula 1 / (rank / weight + k - 1)) with BM25 at 1.25."""
    assert DEFAULT_WEIGHTS[SPARSE] > DEFAULT_WEIGHTS[DENSE]
    hits = hybrid_search(store, QUERY, limit=10)
    fused = {c.doc_id: c.fused_score for c in hits}
    assert fused["beta.md"] == pytest.approx(1 / 61 + 1 / (2 / 1.25 + 59))
    assert fused["gamma.md"] == pytest.approx(1 / 62 + 1 / (1 / 1.25 + 59))
    # beta (dense 2, BM25 2) now edges out gamma (dense 3, BM25 1): equal weights order them the other way.
    assert [c.doc_id for c in hits][:2] == ["beta.md", "gamma.md"]


def test_the_multilingual_model_weighs_its_dense_list_above_bm25(store: PointStore) -> None:
    """Fusion weights follow the index's dense model: e5 (stronger dense ranking on dev) leads, any other
    model gets the default, and the table is copied so a caller cannot change it for everyone."""
    e5 = fusion_weights("strata/multilingual-e5-small-q4")
    assert e5[DENSE] > e5[SPARSE] and e5[IDS] == DEFAULT_WEIGHTS[IDS]
    assert fusion_weights("strata/all-MiniLM-L6-v2-int8") == DEFAULT_WEIGHTS
    fusion_weights("anything")[DENSE] = 99.0
    assert fusion_weights("anything") == DEFAULT_WEIGHTS
    # alpha is found by the dense list alone (rank 1): it counts for more under e5's weights
    default = {c.doc_id: c.fused_score for c in hybrid_search(store, QUERY, limit=10)}
    weighed = {c.doc_id: c.fused_score for c in hybrid_search(store, QUERY, limit=10, weights=e5)}
    assert weighed["alpha.md"] == pytest.approx(1 / (1 / 1.5 + 59)) and weighed["alpha.md"] > default["alpha.md"]


def test_candidate_defaults() -> None:
    cand = Candidate("p1", {})
    assert (cand.chunk_id, cand.doc_id, cand.dense_rank, cand.sparse_rank, cand.identifier_rank) == (
        "", "", None, None, None
    )  # fmt: skip
    assert (cand.dense_score, cand.sparse_score, cand.fused_score) == (None, None, 0.0)


def test_retriever_across_two_collections(store: PointStore, make_store: Callable[[str], PointStore]) -> None:
    products = make_store("products")
    fill(products, "products", ["beta", "delta"])
    queries: list[str] = []

    def dense_query(text: str) -> list[float]:
        queries.append(text)
        return DENSE_QUERY

    retriever = Retriever(dense_query, lambda text: SPARSE_QUERY, {"handbook": store, "products": products})
    hits = retriever.search("vacation days", limit=3)
    assert queries == ["vacation days"]  # the query is embedded once for all collections
    # Each list is merged across collections by raw score before fusing: ranks are unique per list.
    assert len(hits) == 3
    for name in ("dense", "bm25"):
        ranks = [c.ranks[name] for c in retriever.search("vacation days", limit=10) if name in c.ranks]
        assert sorted(ranks) == list(range(1, len(ranks) + 1))
    assert {(c.payload["source_set"], c.doc_id) for c in hits} >= {("products", "beta.md"), ("handbook", "beta.md")}
    fused = [c.fused_score for c in hits]
    assert fused == sorted(fused, reverse=True)
    alpha = next(c for c in retriever.search("vacation days", limit=10) if c.doc_id == "alpha.md")
    assert alpha.ranks == {"dense": 1} and alpha.fused_score == pytest.approx(q(1))
    only_products = retriever.search("vacation days", limit=5, source_sets=["products"])
    assert [(c.payload["source_set"], c.doc_id) for c in only_products] == [
        ("products", "beta.md"),
        ("products", "delta.md"),
    ]


def test_retriever_unknown_source_set_is_a_lookup_error(store: PointStore) -> None:
    retriever = Retriever(lambda t: DENSE_QUERY, lambda t: SPARSE_QUERY, {"handbook": store})
    # A LookupError (KeyError or the package's own subclass), naming every unknown source-set.
    with pytest.raises(LookupError, match=r"No published index for source-set\(s\): archive, zeta"):
        retriever.search("anything", limit=3, source_sets=["handbook", "zeta", "archive"])
    assert len(retriever.search("anything", limit=3, source_sets=["handbook"])) == 3


def test_a_payload_filter_restricts_every_list(store: PointStore) -> None:
    lists = query_lists(store, QUERY, where={"doc_id": ["beta.md", "delta.md"]})
    assert {c.doc_id for c in lists.candidates.values()} == {"beta.md", "delta.md"}
    assert [c.doc_id for c in rank(lists, "hybrid")] == ["beta.md", "delta.md"]

    one = query_lists(store, QUERY, where={"doc_id": "gamma.md"})
    assert [c.doc_id for c in rank(one, "hybrid")] == ["gamma.md"]
