"""Dense + BM25 retrieval fused with reciprocal-rank fusion, keeping every candidate's ranks.

Qdrant can fuse prefetches itself (FusionQuery RRF); we run the two queries in one batch call and
fuse here instead, because the debug view needs each candidate's dense and sparse rank, which a
server-side fusion does not return. The formula is the same: sum of 1 / (k + rank).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from qdrant_client import QdrantClient
from qdrant_client import models as qm

from strata_pipeline.indexing.store import DENSE, SPARSE

RRF_K = 60


@dataclass
class Candidate:
    point_id: str
    payload: dict
    dense_rank: int | None = None  # 1-based; None when the dense query did not return it
    sparse_rank: int | None = None
    dense_score: float | None = None
    sparse_score: float | None = None
    fused_score: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def chunk_id(self) -> str:
        return self.payload.get("chunk_id", "")

    @property
    def doc_id(self) -> str:
        return self.payload.get("doc_id", "")


def rrf_scores(rankings: list[list[str]], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal-rank fusion: each list contributes 1 / (k + rank) for every id it ranks."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return scores


def hybrid_search(
    client: QdrantClient,
    collection: str,
    dense_vector: list[float],
    sparse_vector: tuple[list[int], list[float]],
    limit: int,
    candidates: int = 40,
    rrf_k: int = RRF_K,
) -> list[Candidate]:
    """Top `limit` chunks by RRF over the top `candidates` of each retriever."""
    dense_hits, sparse_hits = client.query_batch_points(
        collection,
        requests=[
            qm.QueryRequest(query=dense_vector, using=DENSE, limit=candidates, with_payload=True),
            qm.QueryRequest(
                query=qm.SparseVector(indices=sparse_vector[0], values=sparse_vector[1]),
                using=SPARSE,
                limit=candidates,
                with_payload=True,
            ),
        ],
    )
    by_id: dict[str, Candidate] = {}
    for rank, point in enumerate(dense_hits.points, start=1):
        cand = by_id.setdefault(str(point.id), Candidate(str(point.id), point.payload or {}))
        cand.dense_rank, cand.dense_score = rank, float(point.score)
    for rank, point in enumerate(sparse_hits.points, start=1):
        cand = by_id.setdefault(str(point.id), Candidate(str(point.id), point.payload or {}))
        cand.sparse_rank, cand.sparse_score = rank, float(point.score)
    fused = rrf_scores([[str(p.id) for p in dense_hits.points], [str(p.id) for p in sparse_hits.points]], rrf_k)
    for pid, score in fused.items():
        by_id[pid].fused_score = score
    ranked = sorted(by_id.values(), key=lambda c: (-c.fused_score, -(c.dense_score or 0.0)))
    return ranked[:limit]


class UnknownSourceSetError(LookupError):
    """A query named a source-set that has no published index."""


DenseQuery = Callable[[str], list[float]]
SparseQuery = Callable[[str], tuple[list[int], list[float]]]


class Retriever:
    """Hybrid search over one or more index versions (one collection per source-set)."""

    def __init__(
        self,
        dense_query: DenseQuery,
        sparse_query: SparseQuery,
        indexes: dict[str, tuple[QdrantClient, str]],
        rrf_k: int = RRF_K,
        candidates: int = 40,
    ) -> None:
        self._dense_query = dense_query
        self._sparse_query = sparse_query
        self.indexes = indexes
        self.rrf_k = rrf_k
        self.candidates = candidates

    def search(self, query: str, limit: int, source_sets: list[str] | None = None) -> list[Candidate]:
        """Best `limit` chunks across the chosen source-sets (all when None), best first."""
        unknown = set(source_sets or ()) - set(self.indexes)
        if unknown:
            raise UnknownSourceSetError(
                f"No published index for source-set(s): {', '.join(sorted(unknown))}. "
                f"Published: {', '.join(sorted(self.indexes)) or 'none'}."
            )
        dense, sparse = self._dense_query(query), self._sparse_query(query)
        hits: list[Candidate] = []
        for name in source_sets or sorted(self.indexes):
            client, collection = self.indexes[name]
            hits += hybrid_search(client, collection, dense, sparse, limit, max(self.candidates, limit), self.rrf_k)
        # RRF scores are rank-based, so they compare across collections; dense score breaks ties.
        hits.sort(key=lambda c: (-c.fused_score, -(c.dense_score or 0.0)))
        return hits[:limit]
