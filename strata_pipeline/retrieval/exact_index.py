"""Exact in-process search for an embedded Qdrant index version: the same lists, scores and fused
order as `query_lists`, in milliseconds instead of the embedded store's point-by-point Python.

Why: embedded Qdrant (QdrantClient(path=...)) scores every sparse vector in a Python loop, so a hybrid
query at 50k points takes over a second. A Qdrant server (QDRANT_URL) is fast and never uses this.

What it holds, per collection (one index version):
    dense    the dense vectors as one float32 matrix, unit length (the collection is cosine)
    bm25/ids each sparse vector name as column-major postings (a CSC matrix in plain numpy: one
             sorted term-id array, indptr, row slots, float64 values) plus each term's live
             document frequency, for Qdrant's IDF
    ids      the point id of every slot; payloads stay in Qdrant and are read only for the
             candidates a query returns: from the embedded client's own payload list when the index
             mirrors it (a shallow copy each), else with `client.retrieve` (which deep-copies)

How it matches embedded Qdrant (qdrant-client 1.20, local/local_collection.py):
    dense    cosine: query / |query| against the unit rows. A float32 product picks a shortlist, which
             is rescored in float64 as Qdrant scores it.
    sparse   Qdrant's Modifier.IDF rescales the query at query time: value * ln((N - df + 0.5) /
             (df + 0.5) + 1), N = live points holding that sparse vector, df = live points holding the
             term. The dot product is summed in float64 in ascending term order and rounded to
             float32, exactly as `sparse_dot_product` does, so scores are bit-identical. A point
             sharing no term with the query is not a hit (Qdrant's -inf).
    order    Scores decide; exactly tied scores go by point id (deterministic, and blind to the order
             points were written in). Qdrant ranks with `np.argsort(scores)[::-1]` over every slot, numpy's
             unstable sort, so its order among exact ties is an artifact of the whole array. With
             `qdrant_ties=True` the index rebuilds that float32 array in Qdrant's slot order and
             makes the same call, so ties (common in the identifier list, whose values are all 1)
             come out exactly in Qdrant's order. That costs a sort of every slot per tied query
             (about 1 ms at 50k points), so serving leaves it off and the equivalence tests turn it on.
    fusion   Qdrant's local weighted RRF (`reciprocal_rank_fusion`): 1 / ((position + 1) / weight +
             k - 1) summed in list order, then a stable sort.

Known differences:
    - Dense exact ties (duplicate chunks) and dense scores within float32 rounding (~1e-7) of each
      other may be ordered differently: Qdrant's float64 scores differ from these in the last bits,
      and its unstable sort orders ties by the whole array. Here ties go by point id (to the later
      slot with `qdrant_ties`).
    - When the index is built from a scroll (see below), slots follow the scroll (point id) order,
      not Qdrant's internal one, so exact sparse ties may also be ordered differently.

Loading: built when a reader opens a version (QueryEngine), never persisted. Published versions are
immutable and `strata remove` publishes a new one, which readers open afresh, so the index can
never serve a removed or changed point, and there is no file to go stale. The build mirrors the
embedded client's own in-memory arrays (slot order, deleted slots, vectors) when they are where
qdrant-client 1.20 keeps them (about 2 s and 90 MiB at 50k points), which is what makes sparse ties
exact; otherwise it falls back to scrolling the collection with vectors. An index must not be used
on a collection that is written after it was built.

Payload filters are not supported here: with a filter, query Qdrant (`search.query_lists`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from strata_pipeline.indexing.store import DENSE, IDS, SPARSE, scroll_payloads
from strata_pipeline.retrieval.search import DEFAULT_WEIGHTS, RRF_K, Candidate, Lists, QueryVectors, SparseVec

EPSILON = 1.1920929e-7  # Qdrant's guard against dividing by a zero norm
SHORTLIST_EXTRA = 32  # dense rows rescored in float64 beyond the requested depth


@dataclass(frozen=True)
class Postings:
    """One sparse vector name, column-major: the points holding each term, with their weights."""

    terms: np.ndarray  # (terms,) int64, sorted term ids
    indptr: np.ndarray  # (terms + 1,) int64, column c is rows[indptr[c]:indptr[c + 1]]
    rows: np.ndarray  # (entries,) int32 slots
    values: np.ndarray  # (entries,) float64, the stored weights
    df: np.ndarray  # (terms,) int64, live points holding the term
    live: np.ndarray  # (slots,) bool, the point exists and holds this vector
    n_docs: int  # live points holding this vector: Qdrant's IDF N
    idf: bool  # Modifier.IDF

    @classmethod
    def from_vectors(
        cls, vectors: Sequence[tuple[Sequence[int], Sequence[float]]], live: np.ndarray, idf: bool
    ) -> Postings:
        """Postings of one sparse vector per slot; `live` marks the slots Qdrant would serve."""
        lengths = np.fromiter((len(v[0]) for v in vectors), np.int64, len(vectors))
        total = int(lengths.sum())
        flat_terms = np.fromiter(itertools.chain.from_iterable(v[0] for v in vectors), np.int64, total)
        flat_values = np.fromiter(itertools.chain.from_iterable(v[1] for v in vectors), np.float64, total)
        slots = np.repeat(np.arange(len(vectors), dtype=np.int32), lengths)
        terms, columns = np.unique(flat_terms, return_inverse=True)
        order = np.argsort(columns, kind="stable")
        columns, rows, values = columns[order], slots[order], flat_values[order]
        indptr = np.zeros(len(terms) + 1, dtype=np.int64)
        np.cumsum(np.bincount(columns, minlength=len(terms)), out=indptr[1:])
        df = np.bincount(columns[live[rows]], minlength=len(terms)).astype(np.int64)
        return cls(terms, indptr, rows, values, df, live, int(live.sum()), idf)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.terms, self.indptr, self.rows, self.values, self.df, self.live))

    def scores(self, query: SparseVec) -> tuple[np.ndarray, np.ndarray]:
        """Qdrant's float32 score of every slot (-inf where no term is shared), and the hit mask."""
        indices = [int(i) for i in query[0]]
        if len(set(indices)) != len(indices):
            raise ValueError("Indices must be unique")  # what Qdrant answers
        slots = len(self.live)
        columns = np.searchsorted(self.terms, indices).tolist()
        rows, contributions = [], []
        for index, value, column in sorted(zip(indices, query[1], columns, strict=True)):
            held = column < len(self.terms) and int(self.terms[column]) == index
            weight = float(value)
            if self.idf:
                df = int(self.df[column]) if held else 0
                weight = weight * math.log((self.n_docs - df + 0.5) / (df + 0.5) + 1)
            if held:
                start, end = self.indptr[column], self.indptr[column + 1]
                rows.append(self.rows[start:end])
                contributions.append(self.values[start:end] * weight)
        scores = np.full(slots, -np.inf, dtype=np.float32)
        hit = np.zeros(slots, dtype=bool)
        if rows:
            hit_rows = np.concatenate(rows)
            # bincount adds in input order: per slot in ascending term order, in float64, like Qdrant.
            sums = np.bincount(hit_rows, weights=np.concatenate(contributions), minlength=slots)
            hit[hit_rows] = True
            np.copyto(scores, sums.astype(np.float32), where=hit)
        return scores, hit

    def top(self, query: SparseVec, limit: int, tie_order: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Slots and scores of the best `limit` live hits, best first. Exactly tied scores follow
        `tie_order` (a rank per slot); without one, the order embedded Qdrant's own sort gives them,
        which costs a sort of every slot whenever the top holds a tie."""
        scores, hit = self.scores(query)
        served = np.flatnonzero(hit & self.live)
        depth = min(limit, len(served))
        if depth == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        if tie_order is not None:
            # Everything scoring at least the depth-th best score, so no tied point is cut arbitrarily.
            cut = served if len(served) <= depth else served[np.argpartition(-scores[served], depth - 1)[:depth]]
            shortlist = served[scores[served] >= scores[cut].min()]
            order = shortlist[np.lexsort((tie_order[shortlist], -scores[shortlist]))[:depth]]
            return order, scores[order]
        # Without ties in the top, the order is the scores' alone: partition, then sort a few.
        shortlist = served
        if len(served) > depth + 1:
            shortlist = served[np.argpartition(-scores[served], depth)[: depth + 1]]
        shortlist = shortlist[np.argsort(-scores[shortlist], kind="stable")]
        head = scores[shortlist[: depth + 1]]
        if np.all(head[:-1] > head[1:]):
            return shortlist[:depth], head[:depth]
        # Ties: the very call Qdrant makes, on the same array, decides their order.
        order = np.argsort(scores)[::-1][: int(np.count_nonzero(hit))]
        order = order[self.live[order]][:limit]
        return order, scores[order]


class ExactIndex:
    """An immutable, exact copy of one embedded collection's vectors; see the module docstring."""

    def __init__(
        self,
        collection: str,
        point_ids: list[Any],
        dense: np.ndarray,
        dense_live: np.ndarray,
        sparse: dict[str, Postings],
        source: str,
        stored_payloads: Sequence[dict] | None = None,
        qdrant_ties: bool = False,
    ) -> None:
        self.collection = collection
        self.point_ids = point_ids  # per slot, as Qdrant holds them (str UUID or int)
        self.dense = dense
        self.dense_live = dense_live
        self.dense_dead = np.flatnonzero(~dense_live)
        self.sparse = sparse
        self.source = source  # "mirror" or "scroll": how it was built
        # The embedded client's own payload list, per slot (mirror only). Read with a shallow copy:
        # `client.retrieve` deep-copies every payload, which was half of a query's time at 50k points.
        self.stored_payloads = stored_payloads
        self.qdrant_ties = qdrant_ties  # order exact sparse ties as Qdrant's sort does (slower; for checks)
        # Otherwise exact ties go by point id: deterministic, and blind to insertion order, which
        # would systematically favour the newest (or oldest) of several equally scored points.
        self.tie_order = np.empty(len(point_ids), dtype=np.int64)
        self.tie_order[np.argsort(np.asarray([str(p) for p in point_ids]), kind="stable")] = np.arange(len(point_ids))

    @property
    def point_count(self) -> int:
        """Live points (slots of deleted points are kept, as Qdrant keeps them, and never served)."""
        return int(self.dense_live.sum())

    @property
    def nbytes(self) -> int:
        """Memory held by the arrays (point ids excluded)."""
        return self.dense.nbytes + self.dense_live.nbytes + sum(p.nbytes for p in self.sparse.values())

    @classmethod
    def build(cls, client: QdrantClient, collection: str, qdrant_ties: bool = False) -> ExactIndex:
        """Mirror an embedded client's arrays when possible (exact slot order), else scroll."""
        return _mirror(client, collection, qdrant_ties) or cls.from_scroll(client, collection, qdrant_ties)

    @classmethod
    def from_scroll(cls, client: QdrantClient, collection: str, qdrant_ties: bool = False) -> ExactIndex:
        """Through the public API only: every point with its vectors, in scroll order."""
        dim, idf = _layout(client, collection)
        ids: list[Any] = []
        dense: list[list[float]] = []
        sparse: dict[str, list[tuple[list[int], list[float]]]] = {name: [] for name in idf}
        held: dict[str, list[bool]] = {name: [] for name in idf}
        for record in scroll_payloads(client, collection, fields=False, with_vectors=True):
            vectors = record.vector if isinstance(record.vector, dict) else {}
            ids.append(record.id)
            dense.append(vectors[DENSE])  # type: ignore[arg-type]
            for name in idf:
                vector = vectors.get(name)
                held[name].append(vector is not None)
                sparse[name].append(
                    (vector.indices, vector.values) if isinstance(vector, qm.SparseVector) else ([], [])
                )
        matrix = _unit_rows(np.asarray(dense, dtype=np.float64).reshape(len(ids), dim))
        postings = {name: Postings.from_vectors(sparse[name], np.asarray(held[name], bool), idf[name]) for name in idf}
        return cls(collection, ids, matrix, np.ones(len(ids), dtype=bool), postings, "scroll", qdrant_ties=qdrant_ties)

    def dense_top(self, query: Sequence[float], limit: int) -> tuple[np.ndarray, np.ndarray]:
        """Best `limit` live slots by cosine, best first, with Qdrant's float64 scores."""
        q = np.asarray(query, dtype=np.float64)
        norm = np.linalg.norm(q)
        q = q / (norm if norm != 0.0 else EPSILON)
        scores = self.dense @ q.astype(np.float32)
        scores[self.dense_dead] = -np.inf
        live = len(scores) - len(self.dense_dead)
        depth = min(limit + SHORTLIST_EXTRA, live)
        if depth <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        shortlist = np.argpartition(-scores, depth - 1)[:depth] if depth < len(scores) else np.arange(len(scores))
        shortlist = shortlist[np.isfinite(scores[shortlist])]
        exact = self.dense[shortlist].astype(np.float64) @ q
        # Best first; exact ties (duplicate chunks) by point id, or to the later slot as Qdrant mostly does.
        tie = -shortlist if self.qdrant_ties else self.tie_order[shortlist]
        order = np.lexsort((tie, -exact))[:limit]
        return shortlist[order], exact[order]

    def query_lists(
        self,
        client: QdrantClient,
        vectors: QueryVectors,
        candidates: int = 40,
        rrf_k: int = RRF_K,
        weights: dict[str, float] | None = None,
    ) -> Lists:
        """What `search.query_lists` returns for this collection (no payload filter), computed here;
        `client` is only asked for the payloads of the returned points."""
        weights = weights or DEFAULT_WEIGHTS
        ties = None if self.qdrant_ties else self.tie_order
        ranked: dict[str, tuple[np.ndarray, np.ndarray]] = {
            DENSE: self.dense_top(vectors.dense, candidates),
            SPARSE: self.sparse[SPARSE].top(vectors.sparse, candidates, ties),
        }
        if vectors.ids[0]:
            ranked[IDS] = self.sparse[IDS].top(vectors.ids, candidates, ties)
        fused = _rrf({n: slots.tolist() for n, (slots, _) in ranked.items()}, weights, rrf_k, candidates)
        wanted = list(dict.fromkeys(s for slots, _ in ranked.values() for s in slots.tolist()))
        payloads = self._payloads(client, wanted)
        by_slot: dict[int, Candidate] = {}
        for name, (slots, scores) in ranked.items():
            for position, (slot, score) in enumerate(zip(slots.tolist(), scores.tolist(), strict=True), start=1):
                cand = by_slot.setdefault(slot, Candidate(str(self.point_ids[slot]), payloads.get(slot, {})))
                cand.ranks[name], cand.scores[name] = position, float(score)
        for slot, score in fused:
            by_slot[slot].fused_score = score
        return Lists(
            {c.point_id: c for c in by_slot.values()},
            [str(self.point_ids[slot]) for slot, _ in fused],
            rrf_k,
            weights,
        )

    def _payloads(self, client: QdrantClient, slots: list[int]) -> dict[int, dict]:
        if not slots:
            return {}
        if self.stored_payloads is not None:
            return {s: dict(self.stored_payloads[s]) for s in slots}
        records = client.retrieve(self.collection, [self.point_ids[s] for s in slots], with_payload=True)
        by_id = {str(r.id): r.payload or {} for r in records}
        return {s: by_id.get(str(self.point_ids[s]), {}) for s in slots}


def _rrf(lists: dict[str, list[int]], weights: dict[str, float], k: int, limit: int) -> list[tuple[int, float]]:
    """qdrant_client.hybrid.fusion.reciprocal_rank_fusion, term for term (same float sums, same order)."""
    scores: dict[int, float] = {}
    for name, slots in lists.items():
        weight = weights[name]
        for position, slot in enumerate(slots):
            term = 0.0 if weight <= 0 else 1 / ((position + 1.0) / weight + k - 1.0)
            scores[slot] = scores[slot] + term if slot in scores else term
    return sorted(scores.items(), key=lambda item: item[1], reverse=True)[:limit]


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    """float32 rows of unit length. Rows already unit length in float32 (how Qdrant stores vectors it
    was given) are kept bit for bit, so scores match Qdrant's to the last bits."""
    norms = np.linalg.norm(matrix, axis=1)
    off = np.abs(norms - 1.0) > 1e-6
    if off.any():
        matrix = matrix.copy()
        matrix[off] /= np.where(norms[off] != 0.0, norms[off], EPSILON)[:, None]
    return np.ascontiguousarray(matrix, dtype=np.float32)


def _layout(client: QdrantClient, collection: str) -> tuple[int, dict[str, bool]]:
    """The dense size, and per sparse vector name whether Qdrant applies IDF to it. Only Strata's
    cosine layout is served."""
    params = client.get_collection(collection).config.params
    dense = params.vectors[DENSE] if isinstance(params.vectors, dict) else None
    sparse = params.sparse_vectors or {}
    if dense is None or dense.distance != qm.Distance.COSINE or not {SPARSE, IDS} <= set(sparse):
        raise ValueError(f"Collection {collection!r} does not have Strata's layout; query Qdrant instead.")
    return dense.size, {name: sparse[name].modifier == qm.Modifier.IDF for name in (SPARSE, IDS)}


def _mirror(client: QdrantClient, collection: str, qdrant_ties: bool = False) -> ExactIndex | None:
    """Copy the embedded client's own arrays, slot for slot (qdrant-client 1.20's LocalCollection).
    None when the client is not embedded or keeps them elsewhere (then scroll)."""
    try:
        from qdrant_client.local.qdrant_local import QdrantLocal
    except ImportError:  # pragma: no cover - another qdrant-client layout
        return None
    local = getattr(client, "_client", None)
    if not isinstance(local, QdrantLocal):
        return None
    coll = getattr(local, "collections", {}).get(collection)
    needed = ("payload", "ids_inv", "deleted", "deleted_per_vector", "vectors", "sparse_vectors")
    if coll is None or not all(hasattr(coll, attr) for attr in needed):
        return None
    _, idf = _layout(client, collection)
    try:
        slots = len(coll.payload)
        ids = list(coll.ids_inv[:slots])
        alive = ~np.asarray(coll.deleted[:slots], dtype=bool)
        dense_live = alive & ~np.asarray(coll.deleted_per_vector[DENSE][:slots], dtype=bool)
        dense = _unit_rows(np.asarray(coll.vectors[DENSE][:slots], dtype=np.float64))
        postings = {}
        for name, with_idf in idf.items():
            stored = coll.sparse_vectors[name][:slots]
            live = alive & ~np.asarray(coll.deleted_per_vector[name][:slots], dtype=bool)
            postings[name] = Postings.from_vectors([(v.indices, v.values) for v in stored], live, with_idf)
    except (AttributeError, KeyError, TypeError, ValueError):  # pragma: no cover - layout changed
        return None
    if len(ids) != slots or dense.shape[0] != slots:  # pragma: no cover
        return None
    return ExactIndex(collection, ids, dense, dense_live, postings, "mirror", coll.payload, qdrant_ties)
