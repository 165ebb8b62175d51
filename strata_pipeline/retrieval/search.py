"""Hybrid retrieval: dense, BM25 and exact-identifier prefetches fused by Qdrant with reciprocal-rank
fusion, plus each candidate's rank in every list for the debug view.

One batch call to the engine (Qdrant Edge in process, or a Qdrant server) holds the fused query
(prefetches + weighted RRF, k configurable) and the plain queries whose rankings explain it. The
fused order is Qdrant's own; both engines execute the same `HybridQuery`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from strata_pipeline.classification.language import query_language
from strata_pipeline.embedding.identifiers import identifier_vector
from strata_pipeline.embedding.multilingual import MULTILINGUAL_MODEL
from strata_pipeline.indexing.engine import DENSE, FUSED, IDS, SPARSE, HybridQuery, PointStore, SparseVec, Where
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.crosslingual import QueryLanguage, calibrated, places, query_language_for
from strata_pipeline.retrieval.priors import History, apply_priors, history_of
from strata_pipeline.retrieval.records import records_of, records_second
from strata_pipeline.retrieval.twins import named_documents_first, named_twins_first

RRF_K = 60
MODES = ("dense", "sparse", "hybrid")
# Identifier hits count double in the fusion: a query naming E-1042 wants the chunk with E-1042.
# BM25 gets a slight edge over the dense model: alone it scored higher MRR@10 on every golden set
# (see the README's retrieval table), and the edge settles rank ties between the two lists its way.
DEFAULT_WEIGHTS = {DENSE: 1.0, SPARSE: 1.25, IDS: 2.0}
# A stronger dense model earns the larger share. Chosen on the dev questions of every golden set
# (README "Choosing the dense model"): with multilingual-e5-small, dense 1.5 / BM25 1.0 lifted dev
# MRR@10 from 0.899 to 0.912; for MiniLM no other split beat the default on dev.
MODEL_WEIGHTS = {MULTILINGUAL_MODEL: {DENSE: 1.5, SPARSE: 1.0, IDS: 2.0}}
EXACT_MATCH_MAX = 5  # at most this many chunks may share an identifier for it to count as an exact hit


def fusion_weights(model: str) -> dict[str, float]:
    """The RRF weights of each list for an index embedded with `model` (the default for any other)."""
    return dict(MODEL_WEIGHTS.get(model, DEFAULT_WEIGHTS))


@dataclass(frozen=True)
class QueryVectors:
    dense: list[float]
    sparse: SparseVec
    ids: SparseVec  # empty when the query names no identifier


def hybrid_search(
    store: PointStore,
    vectors: QueryVectors,
    limit: int,
    candidates: int = 40,
    rrf_k: int = RRF_K,
    mode: str = "hybrid",
    weights: dict[str, float] | None = None,
) -> list[Candidate]:
    """Top `limit` chunks of one index version, each annotated with its rank in every list."""
    return rank(query_lists(store, vectors, candidates, rrf_k, weights), mode)[:limit]


@dataclass(frozen=True)
class Lists:
    """One engine round trip: every candidate with its per-list ranks, and Qdrant's fused order."""

    candidates: dict[str, Candidate]
    fused: list[str]  # point ids in Qdrant's RRF order
    rrf_k: int = RRF_K
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))


# The payload fields ranking reads (ids, priors, parents): the plain lists return only these, and
# results that need the rest fetch it (`complete_payloads`); reading every candidate's text was the
# largest cost of a query.
RANK_FIELDS = [
    "chunk_id",
    "doc_id",
    "source_set",
    "rank_weight",
    "rank_rule",
    "superseded",
    "parent_id",
    "groups",
    "language",
    "title",
]


def query_lists(
    store: PointStore,
    vectors: QueryVectors,
    candidates: int = 40,
    rrf_k: int = RRF_K,
    weights: dict[str, float] | None = None,
    where: Where | None = None,
    list_fields: list[str] | None = None,
) -> Lists:
    """`where` restricts every list by payload (a field and the value, or values, it must hold): for
    deployments that share one collection between groups, and to measure what filtering costs.
    `list_fields` limits the payload of candidates that only the plain lists return."""
    weights = weights or DEFAULT_WEIGHTS
    query = HybridQuery(vectors.dense, vectors.sparse, vectors.ids, candidates, rrf_k, weights, where, list_fields)
    lists = store.query(query)
    by_id: dict[str, Candidate] = {hit.id: Candidate(hit.id, hit.payload) for hit in lists[FUSED]}
    for hit in lists[FUSED]:
        by_id[hit.id].fused_score = hit.score
    for name, hits in lists.items():
        if name == FUSED:
            continue
        for position, hit in enumerate(hits, start=1):
            cand = by_id.setdefault(hit.id, Candidate(hit.id, hit.payload, partial=list_fields is not None))
            cand.ranks[name], cand.scores[name] = position, hit.score
    return Lists(by_id, [hit.id for hit in lists[FUSED]], rrf_k, weights)


def complete_payloads(results: list[Candidate], stores: dict[str, PointStore]) -> list[Candidate]:
    """Fetch the whole payload of results that carry only the ranking fields, one call per store."""
    missing: dict[str, list[str]] = {}
    for cand in results:
        if cand.partial:
            missing.setdefault(cand.payload.get("source_set", ""), []).append(cand.point_id)
    fetched = {pid: payload for name, ids in missing.items() for pid, payload in stores[name].payloads(ids).items()}
    return [
        dataclasses.replace(c, payload=fetched.get(c.point_id, c.payload), partial=False) if c.partial else c
        for c in results
    ]


def rank(
    lists: Lists, mode: str, historical: History | bool = False, language: QueryLanguage | None = None
) -> list[Candidate]:
    """Candidates in the order of one mode: for hybrid Qdrant's fusion (fused again here without a
    non-selective identifier, or across languages: hybrid_order), else one list's scores; then
    weighted by their documents' ranking priors (`historical`: the query asks about old versions)."""
    if mode not in MODES:
        raise ValueError(f"Unknown retrieval mode {mode!r}; use one of {', '.join(MODES)}.")
    if mode == "hybrid":
        fused = [lists.candidates[pid] for pid in lists.fused]
        return hybrid_order(list(lists.candidates.values()), fused, lists.rrf_k, lists.weights, historical, language)
    key = DENSE if mode == "dense" else SPARSE
    in_list = sorted((c for c in lists.candidates.values() if key in c.ranks), key=lambda c: c.ranks[key])
    return apply_priors([dataclasses.replace(c, fused_score=c.scores[key]) for c in in_list], historical)


def hybrid_order(
    candidates: list[Candidate],
    fused: list[Candidate],
    k: int,
    weights: dict[str, float],
    historical: History | bool,
    language: QueryLanguage | None = None,
) -> list[Candidate]:
    """The hybrid ranking of `candidates`, given their RRF order `fused`: the ranking priors applied,
    then chunks holding a selective identifier the query names first. A non-selective identifier
    leaves the fusion (see selective_identifier_tier). With `language`, the lists are fused again
    here, fair to chunks in other languages than the query's (retrieval/crosslingual.py)."""
    if language is not None:
        candidates = calibrated(candidates, language)
    tier = selective_identifier_tier(candidates)
    words = historical.words if isinstance(historical, History) else frozenset()
    lists: tuple[str, ...] = (DENSE, SPARSE, IDS)
    if tier is None and any(IDS in c.ranks for c in candidates):
        lists = (DENSE, SPARSE)
    if language is not None or lists != (DENSE, SPARSE, IDS):
        fused = fuse_lists(candidates, k, weights, lists, language)
    ranked = named_twins_first(apply_priors(fused, historical), words)
    if isinstance(historical, History) and not historical.asks and not historical.names:
        ranked = named_documents_first(ranked, words, historical.proper)
    if tier is None and isinstance(historical, History):
        # A named identifier too common to steer the fusion still brings up its own record (a table row).
        records = records_of(fused, historical.identifiers)
        return records_second(ranked, records, historical.lookup) if len(records) <= EXACT_MATCH_MAX else ranked
    if tier and isinstance(historical, History) and historical.lookup:
        # A bare identifier: of the chunks holding it, the entity's own record (a table row) first.
        return records_second(exact_identifiers_first(ranked, tier), records_of(tier, historical.identifiers), True)
    return exact_identifiers_first(ranked, tier) if tier else ranked


def selective_identifier_tier(candidates: list[Candidate]) -> list[Candidate] | None:
    """The chunks holding the query's best-scoring identifier, if that identifier is selective.

    None when the query names no identifier, or when more than EXACT_MATCH_MAX chunks share the best
    identifier score: a product name like RX-200 that half the corpus mentions says nothing about
    which chunk answers, so it must not steer the ranking.
    """
    scored = [c.scores[IDS] for c in candidates if IDS in c.scores]
    if not scored:
        return None
    best = max(scored)
    tier = [c for c in candidates if c.scores.get(IDS, float("-inf")) >= best - 1e-9]
    return tier if len(tier) <= EXACT_MATCH_MAX else None


def exact_identifiers_first(ranked: list[Candidate], tier: list[Candidate]) -> list[Candidate]:
    """Chunks holding a selective identifier the query names (E-1042) come first, in fused order.
    RRF alone cannot promise this: a chunk both dense and BM25 like can outscore the one exact hit."""
    ids = {c.point_id for c in tier}
    return [c for c in ranked if c.point_id in ids] + [c for c in ranked if c.point_id not in ids]


def fuse_lists(
    candidates: list[Candidate],
    k: int,
    weights: dict[str, float],
    lists: tuple[str, ...] = (DENSE, SPARSE, IDS),
    language: QueryLanguage | None = None,
) -> list[Candidate]:
    """RRF over `lists` only (Qdrant's formula): every candidate in at least one of them, best first.
    With `language`, a chunk in another language than the query's may take its dense place in BM25
    (crosslingual.places)."""
    fused = [
        dataclasses.replace(
            c, fused_score=sum(rrf_term(r, k, weights.get(n, 1.0)) for n, r in places(c, lists, language).items())
        )
        for c in candidates
    ]
    fused = [c for c in fused if c.fused_score > 0]
    return sorted(fused, key=lambda c: (-c.fused_score, -(c.dense_score or 0.0)))


def parents(children: list[Candidate]) -> list[Candidate]:
    """The parent sections of retrieved children, best child first, each section once.

    Children are small so they match precisely; an answer is read from the whole section around
    them. A parent keeps its best child's ranks and scores. Points without a parent (older
    indexes) stand for themselves.
    """
    seen: dict[str, Candidate] = {}
    for child in children:
        p = child.payload
        key = p.get("parent_id") or child.chunk_id
        if key in seen or not p.get("parent_text"):
            seen.setdefault(key, child)
            continue
        payload = p | {"chunk_id": key, "text": p["parent_text"], "line_start": p.get("parent_line_start", 1)}
        seen[key] = dataclasses.replace(child, payload=payload)
    return list(seen.values())


def rrf_term(rank: int, k: int, weight: float) -> float:
    """Qdrant's weighted RRF contribution of a 1-based rank (1 / (k + rank) when weight is 1)."""
    return 0.0 if weight <= 0 else 1.0 / (rank / weight + k - 1)


def merge_and_fuse(
    pool: list[Candidate],
    mode: str,
    k: int,
    weights: dict[str, float],
    historical: History | bool = False,
    language: QueryLanguage | None = None,
) -> list[Candidate]:
    """Re-rank candidates from several collections: each list by its raw score, then RRF, then the
    ranking priors."""
    pool = [dataclasses.replace(c, ranks=dict(c.ranks)) for c in pool]
    for name in (DENSE, SPARSE, IDS):
        ranked = sorted((c for c in pool if name in c.scores), key=lambda c: -c.scores[name])
        for rank, cand in enumerate(ranked, start=1):
            cand.ranks[name] = rank
    for cand in pool:
        if mode == "hybrid":
            cand.fused_score = sum(rrf_term(r, k, weights.get(n, 1.0)) for n, r in cand.ranks.items())
        else:
            cand.fused_score = cand.scores.get(DENSE if mode == "dense" else SPARSE, float("-inf"))
    if mode != "hybrid":
        key = DENSE if mode == "dense" else SPARSE
        in_list = sorted((c for c in pool if key in c.scores), key=lambda c: (-c.fused_score, -(c.dense_score or 0.0)))
        return apply_priors(in_list, historical)
    fused = sorted(pool, key=lambda c: (-c.fused_score, -(c.dense_score or 0.0)))
    return hybrid_order(pool, fused, k, weights, historical, language)


_FENCES = ("---", "...")


def front_matter_only(text: str) -> bool:
    """Whether a chunk is only a Markdown document's YAML front matter (title, tags, owner): metadata,
    with no sentence an answer could quote. One fenced block: nothing before or after its fences."""
    if not text.lstrip().startswith("---"):
        return False  # most chunks: no line split on the search path
    lines = [line.strip() for line in text.strip().splitlines()]
    return (len(lines) >= 2 and lines[0] == "---" and lines[-1] in _FENCES
            and not any(line in _FENCES for line in lines[1:-1]))  # fmt: skip


def diversify(ranked: list[Candidate], per_document: int) -> list[Candidate]:
    """The ranking with at most `per_document` chunks of any one document ahead of the rest.

    Neighbouring chunks of one long document otherwise fill the top K and crowd out the twin that
    answers. A document's further chunks follow, in order, after every chunk within its quota.
    Document order (the first chunk of each) never changes. 0 leaves the ranking as it is.
    A front-matter chunk uses none of its document's quota: its tags ("payload, reach") match a
    question's words, and it would take the place of the section that answers.
    """
    if per_document <= 0:
        return ranked
    seen: dict[str, int] = {}
    head: list[Candidate] = []
    tail: list[Candidate] = []
    for cand in ranked:
        if front_matter_only(str(cand.payload.get("text") or "")):
            head.append(cand)
            continue
        seen[cand.doc_id] = seen.get(cand.doc_id, 0) + 1
        (head if seen[cand.doc_id] <= per_document else tail).append(cand)
    return head + tail


class UnknownSourceSetError(LookupError):
    """A query named a source-set that has no published index."""


DenseQuery = Callable[[str], list[float]]
SparseQuery = Callable[[str], SparseVec]


class Retriever:
    """Hybrid search over one or more index versions (one store per source-set)."""

    def __init__(
        self,
        dense_query: DenseQuery,
        sparse_query: SparseQuery,
        indexes: dict[str, PointStore],
        rrf_k: int = RRF_K,
        candidates: int = 40,
        weights: dict[str, float] | None = None,
        where: Where | None = None,
        cross_language: float | None = None,
    ) -> None:
        """`where` restricts every list of every search (the query engine's access filter).
        `cross_language`: the dense model's offset between languages when it reads several
        (retrieval/crosslingual.py), None for an English-only model."""
        self._dense_query = dense_query
        self._sparse_query = sparse_query
        self.indexes = indexes
        self.rrf_k = rrf_k
        self.candidates = candidates
        self.weights = weights or DEFAULT_WEIGHTS
        self.where = where
        self.cross_language = cross_language

    def vectors(self, query: str) -> QueryVectors:
        return QueryVectors(self._dense_query(query), self._sparse_query(query), identifier_vector(query))

    def search(
        self, query: str, limit: int, source_sets: list[str] | None = None, mode: str = "hybrid"
    ) -> list[Candidate]:
        """Best `limit` chunks across the chosen source-sets (all when None), best first."""
        return self.search_modes(query, limit, source_sets, (mode,))[mode]

    def search_modes(
        self, query: str, limit: int, source_sets: list[str] | None = None, modes: tuple[str, ...] = MODES
    ) -> dict[str, list[Candidate]]:
        """The rankings of several modes from one embedding of the query and one engine round trip
        per source-set: every mode reads the same candidate lists."""
        unknown = set(source_sets or ()) - set(self.indexes)
        if unknown:
            raise UnknownSourceSetError(
                f"No published index for source-set(s): {', '.join(sorted(unknown))}. "
                f"Published: {', '.join(sorted(self.indexes)) or 'none'}."
            )
        vectors = self.vectors(query)
        names = source_sets or sorted(self.indexes)
        depth = max(self.candidates, limit)
        results = [self.lists(n, vectors, depth) for n in names]
        historical = history_of(query)
        # Only a multilingual model needs the query's language ("" when too short to tell): fusion then
        # tells BM25's blindness across languages from a miss.
        code = query_language(query) if self.cross_language is not None else ""
        language = query_language_for(code, self.cross_language)
        if len(results) == 1:
            ranked = {mode: rank(results[0], mode, historical, language)[:limit] for mode in modes}
        else:
            # Ranks from different collections do not compare (each has its own rank 1), so merge each
            # list across collections by its raw score, then fuse the merged lists with Qdrant's formula.
            pool = [c for lists in results for c in lists.candidates.values()]
            ranked = {
                mode: merge_and_fuse(pool, mode, self.rrf_k, self.weights, historical, language)[:limit]
                for mode in modes
            }
        stores = {name: self.indexes[name] for name in names}
        return {mode: complete_payloads(hits, stores) for mode, hits in ranked.items()}

    def lists(self, source_set: str, vectors: QueryVectors, depth: int) -> Lists:
        """One source-set's candidate lists: whole payloads for fused candidates, ranking fields for the rest."""
        store = self.indexes[source_set]
        return query_lists(store, vectors, depth, self.rrf_k, self.weights, self.where, list_fields=RANK_FIELDS)
