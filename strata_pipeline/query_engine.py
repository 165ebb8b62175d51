"""Search and answer over index versions: the one code path used by the API, the CLI and the eval.

The eval report measures exactly what users get because it calls this same engine.

The engine takes its parts by what they do (the protocols below): the plain components of
components.py (the CLI, the API) or the pipeline's Dagster resources (the eval), which wrap them.
Nothing here imports Dagster, so a query does not pay for it.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from strata_pipeline.access.groups import Access
from strata_pipeline.access.sidecar import audit_rows, open_sidecar, visible_doc_ids
from strata_pipeline.agent.rows import checked_row_answer
from strata_pipeline.answering.answer import Answer, AnswerConfig, answer_extractively, answer_with_llm, supported
from strata_pipeline.answering.floors import answer_config_for
from strata_pipeline.classification.language import query_language
from strata_pipeline.facts.catalogue import Catalogue
from strata_pipeline.facts.intent import FactResult, Intent, IntentRefused
from strata_pipeline.indexing.engine import SPARSE, PointStore, SparseVec
from strata_pipeline.indexing.readable import require_readable
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.injection.defence import sanitise
from strata_pipeline.redaction.guard import Audited, PrivacyGuard
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.crosslingual import cross_language_offset
from strata_pipeline.retrieval.rerank import RERANKED_MODE, Reranked, ScoreFn, rerank
from strata_pipeline.retrieval.search import (
    MODES,
    RRF_K,
    Retriever,
    UnknownSourceSetError,
    diversify,
    fusion_weights,
    parents,
    query_lists,
)
from strata_pipeline.routing.dispatch import FactsSource, audited_reverse, facts_answer, hybrid_query, routed, vouched
from strata_pipeline.routing.dispatch import quoted as quoted_in_passages
from strata_pipeline.routing.dispatch import unstated as unstated_quality
from strata_pipeline.routing.reverse import SEARCH_HITS, retrieval_first
from strata_pipeline.routing.route import Routing, route
from strata_pipeline.routing.split import RETRIEVAL_FIRST


class NoSuchDocument(LookupError):
    """No document by that id that the caller may read (the message is the same when one exists in a
    group the caller is not in, so an error tells nothing about other groups)."""


class AmbiguousDocument(LookupError):
    """The doc_id names a document the caller may read in several source-sets."""


class Embeddings(Protocol):
    """An Embedder (embedding/embedder.py) or the EmbedderResource around one."""

    @property
    def model(self) -> str: ...

    def query_dense(self, text: str) -> list[float]: ...

    def query_sparse(self, text: str) -> SparseVec: ...

    def embed_dense(self, texts: Sequence[str]) -> list[np.ndarray]: ...


class Readers(Protocol):
    """An IndexStorage (indexing/storage.py) or the QdrantResource around one."""

    def open_reader(self, version: IndexVersion) -> PointStore: ...


class Generator(Protocol):
    """A Claude client (claude.py) or the AnthropicResource around one."""

    @property
    def enabled(self) -> bool: ...

    def complete(self, system: str, user: str) -> str: ...


class CrossEncoder(Protocol):
    """A Reranker (retrieval/reranker.py) or the RerankerResource around one."""

    @property
    def enabled(self) -> bool: ...

    @property
    def name(self) -> str: ...

    @property
    def candidates(self) -> int: ...

    @property
    def floor(self) -> float | None: ...

    def load(self) -> object: ...

    def scorer(self, query: str) -> ScoreFn: ...


@dataclass(frozen=True)
class Explained:
    candidate: Candidate
    position: int | None  # 1-based place in the results, None when dropped
    dropped: str | None  # why it is not in the results
    rerank_score: float | None = None  # set when a reranker is configured and scored this candidate


@dataclass(frozen=True)
class EngineConfig:
    rrf_k: int = RRF_K
    candidates: int = 40
    # Chunks of one document in the top k before other documents get a turn (retrieval.search.diversify):
    # neighbouring chunks of one long document otherwise fill the results. 0 turns it off.
    per_document: int = 2
    answer: AnswerConfig | None = None  # None: the floors of the index's dense model (answer_config_for)


class QueryEngine:
    def __init__(
        self,
        embedder: Embeddings,
        qdrant: Readers,
        versions: dict[str, IndexVersion],
        llm: Generator | None = None,
        config: EngineConfig = EngineConfig(),
        guard: PrivacyGuard | None = None,
        reranker: CrossEncoder | None = None,
    ) -> None:
        require_readable(versions.values(), embedder.model)
        self.versions = dict(versions)
        self.facts = FactsSource(self.versions)  # the sidecars' fact tables, per caller's groups
        self.embedder = embedder
        self.llm = llm
        self.config = config
        self.answer_config = config.answer or answer_config_for(embedder.model)
        self.guard = guard
        # Queries already redacted by this engine, each mapped to its result, and each result to
        # itself: the CLI, search and ask pass one query along, and a redacted query holds
        # placeholders ("[PERSON_1]") that would send it through the detector again.
        self._redacted: dict[str, Audited] = {}
        self.reranker = reranker if reranker is not None and reranker.enabled else None
        self.access = Access.operator()  # every group; `scoped` narrows it
        self._owns_stores = True
        if self.reranker is not None:
            self.reranker.load()  # fail here, with what to set, rather than on the first query
        self._stores: dict[str, PointStore] = {}
        try:
            for name, version in versions.items():
                self._stores[name] = qdrant.open_reader(version)
        except Exception:
            self.close()
            raise
        self.retriever = Retriever(
            embedder.query_dense,
            embedder.query_sparse,
            dict(self._stores),
            rrf_k=config.rrf_k,
            candidates=config.candidates,
            weights=fusion_weights(embedder.model),
            cross_language=cross_language_offset(embedder.model),
        )

    def scoped(self, access: Access) -> QueryEngine:
        """This engine as `access` sees it. The one place access is enforced: every search, explain and
        eval ranking runs under its groups as an index payload filter, an answer reads only passages it
        admits, and every sidecar read (`visible_doc_ids`, `audit`) keeps only its documents. The view
        shares this engine's open stores and does not close them."""
        view = copy.copy(self)
        view.access = access
        view.retriever = copy.copy(self.retriever)
        view.retriever.where = access.where()
        view._owns_stores = False
        return view

    def admitted(self, candidates: list[Candidate]) -> list[Candidate]:
        """The candidates the caller may read: what callers hand back to `ask` is checked again."""
        return [c for c in candidates if self.access.admits(c.payload.get("groups"))]

    def visible_doc_ids(self, source_set: str) -> set[str]:
        """The documents of one published source-set that the caller may read (from its sidecar)."""
        if source_set not in self.versions:
            raise UnknownSourceSetError(f"No published index for source-set(s): {source_set}.")
        with closing(open_sidecar(self.versions[source_set].sidecar_path)) as db:
            return visible_doc_ids(db, self.access.groups)

    def recorded_sha256(self, source_set: str, doc_id: str) -> str | None:
        """The sha256 of the file the published index read for `doc_id`, when the caller may read it; None
        when there is no such document, it is another group's, or `source_set` is not published (alike)."""
        if source_set not in self.versions:
            return None
        with closing(open_sidecar(self.versions[source_set].sidecar_path)) as db:
            if not visible_doc_ids(db, self.access.groups, doc_id):
                return None
            row = db.execute("SELECT sha256 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
        return None if row is None else row[0] or ""

    def audit(self, doc_id: str, source_set: str | None = None) -> tuple[str, list[dict]]:
        """(source-set, masked redaction audit rows) of a document the caller may read. NoSuchDocument
        when there is none (or it is in another group), AmbiguousDocument when several source-sets hold it."""
        names = [source_set] if source_set else sorted(self.versions)
        if source_set is not None and source_set not in self.versions:
            raise UnknownSourceSetError(f"No published index for source-set {source_set!r}.")
        found: dict[str, list[dict]] = {}
        for name in names:
            with closing(open_sidecar(self.versions[name].sidecar_path)) as db:
                if not visible_doc_ids(db, self.access.groups, doc_id):
                    continue
                found[name] = audit_rows(db, doc_id)
        if not found:
            raise NoSuchDocument("not in the published index")
        if len(found) > 1:
            raise AmbiguousDocument(f"exists in {', '.join(found)}")
        return next(iter(found.items()))

    def redact_query(self, query: str) -> Audited:
        """What search and ask actually embed (and what callers may log): personal data replaced."""
        if self.guard is None:
            return Audited(query, 0)
        if query not in self._redacted:
            if len(self._redacted) > 1024:
                self._redacted.clear()  # a long-lived API process sees endless distinct queries
            result = self.guard.redact_query(query, shown=self.shown_in_index)
            self._redacted[query] = result
            self._redacted.setdefault(result.text, Audited(result.text, 0))
        return self._redacted[query]

    def shown_in_index(self, value: str) -> bool:
        """Whether an indexed passage holds `value` verbatim, as a whole word. Indexed text is already
        redacted, so a value found there is one the corpus shows in clear (see redact_query)."""
        pattern = re.compile(rf"(?<!\w){re.escape(value.strip())}(?!\w)", re.IGNORECASE)
        vectors = self.retriever.vectors(value)
        for store in self._stores.values():
            found = query_lists(
                store, vectors, 5, self.config.rrf_k, self.retriever.weights, where=self.retriever.where
            )
            for cand in found.candidates.values():
                if SPARSE in cand.ranks and pattern.search(cand.payload.get("text") or ""):
                    return True
        return False

    @property
    def modes(self) -> tuple[str, ...]:
        """The retrieval modes the eval compares: hybrid+rerank joins them when a reranker is configured."""
        return (*MODES, RERANKED_MODE) if self.reranker else MODES

    @property
    def reranker_name(self) -> str:
        return self.reranker.name if self.reranker else "not configured"

    def search(
        self, query: str, k: int = 5, source_sets: list[str] | None = None, mode: str = "hybrid"
    ) -> list[Candidate]:
        """Best `k` chunks. With a reranker configured, hybrid search is reranked: that is what the API
        and the answers use. Mode "hybrid+rerank" asks for the reranked order explicitly."""
        return self._search_redacted(self.redact_query(query).text, k, source_sets, mode)

    def explain(self, query: str, k: int = 5, source_sets: list[str] | None = None) -> list[Explained]:
        """Every candidate the retrievers returned, with its ranks, fused score, rerank score and fate.

        Without a reranker the fused order decides (then `diversify`), rerank scores are None, and the
        only reason to drop a candidate is "beyond top k". With one, the top N fused candidates are
        scored and reordered, so a candidate may also be "below rerank floor F" or, past N, "beyond
        top N fused (not reranked)".
        """
        text = self.redact_query(query).text
        fates: list[tuple[Candidate, float | None, str | None]]
        if self.reranker is None:
            fates = [(c, None, None) for c in self.retriever.search(text, self.retriever.candidates, source_sets)]
        else:
            pool = self.retriever.search(text, max(self.retriever.candidates, self._rerank_depth(k)), source_sets)
            fates = [(r.candidate, r.score, r.dropped) for r in self._rerank(text, pool, k)]
        # The kept candidates in the order results use: facts sources, then `per_document` chunks a document.
        kept = [c for c, _, dropped in fates if dropped is None]
        kept = diversify(self._placed(text, source_sets, kept), self.config.per_document)
        scores = {c.point_id: score for c, score, _ in fates}
        fates = [(c, scores.get(c.point_id), None) for c in kept] + [f for f in fates if f[2] is not None]
        explained, position = [], 0
        for cand, score, dropped in fates:
            if dropped is None:
                position += 1
                dropped = None if position <= k else f"beyond top {k}"
            explained.append(Explained(cand, position if dropped is None else None, dropped, score))
        return explained

    def search_modes(
        self, query: str, k: int, source_sets: list[str] | None = None, modes: tuple[str, ...] | None = None
    ) -> dict[str, list[Candidate]]:
        """Every mode's ranking from one embedding of the (redacted) query: what the eval compares.
        `modes` defaults to `self.modes`; hybrid+rerank reranks the hybrid list of the same round trip."""
        modes = self.modes if modes is None else modes
        text = self.redact_query(query).text
        if RERANKED_MODE not in modes:
            ranked = self.retriever.search_modes(text, self._depth(k), source_sets, modes)
        else:
            depth = max(self._rerank_depth(k), self._depth(k))
            plain = tuple(dict.fromkeys([*(m for m in modes if m != RERANKED_MODE), "hybrid"]))
            ranked = self.retriever.search_modes(text, depth, source_sets, plain)
            ranked[RERANKED_MODE] = self._kept(self._rerank(text, ranked["hybrid"][: self._rerank_depth(k)], k))
        return {mode: self._diverse(self._placed(text, source_sets, ranked[mode], mode), k) for mode in modes}

    def _depth(self, k: int) -> int:
        """How deep to rank before diversifying: deep enough that other documents can move up."""
        return max(k, self.config.candidates) if self.config.per_document else k

    def _diverse(self, ranked: list[Candidate], k: int) -> list[Candidate]:
        return diversify(ranked, self.config.per_document)[:k]

    def _search_redacted(
        self, query: str, k: int, source_sets: list[str] | None, mode: str = "hybrid", place: bool = True
    ) -> list[Candidate]:
        """`place`: a routed question's facts sources first (off for the passages `ask` reads)."""
        if mode == RERANKED_MODE or (mode == "hybrid" and self.reranker is not None):
            pool = self.retriever.search(query, self._rerank_depth(k), source_sets)
            ranked = self._kept(self._rerank(query, pool, k))
        else:
            ranked = self.retriever.search(query, self._depth(k), source_sets, mode)
        return self._diverse(self._placed(query, source_sets, ranked, mode) if place else ranked, k)

    def _placed(
        self, query: str, sets: list[str] | None, ranked: list[Candidate], mode: str = "hybrid"
    ) -> list[Candidate]:
        """The orders users get (hybrid, reranked) show a routed question's facts sources first."""
        return self.facts.sources_first(query, ranked, self.access, sets, self.retriever, mode)

    def _rerank_depth(self, k: int) -> int:
        """How many fused candidates the reranker scores: the configured N, and always enough to fill k."""
        if self.reranker is None:
            raise ValueError(
                f"Mode {RERANKED_MODE!r} needs a reranker: set STRATA_RERANK_MODEL or STRATA_RERANK_MODEL_PATH."
            )
        return max(self.reranker.candidates, k)

    def _rerank(self, query: str, pool: list[Candidate], k: int) -> list[Reranked]:
        assert self.reranker is not None  # callers check via _rerank_depth
        return rerank(pool, self.reranker.scorer(query), self.reranker.floor, self._rerank_depth(k))

    @staticmethod
    def _kept(reranked: list[Reranked]) -> list[Candidate]:
        """The results of a rerank: candidates it kept (the floor passed), best first."""
        return [r.candidate for r in reranked if r.dropped is None]

    def catalogue(self, source_sets: list[str] | None = None) -> Catalogue:
        """The fact tables (and `documents` facets) the caller may aggregate over."""
        self._check_source_sets(source_sets)
        return self.facts.catalogue(self.access.groups, source_sets)

    def query_facts(self, request: str | dict | Intent, source_sets: list[str] | None = None) -> FactResult:
        """An exact aggregation from a question or an intent, over the rows of documents the caller
        may read. IntentRefused (a ValueError) names the tables and columns that exist, visible ones only."""
        self._check_source_sets(source_sets)
        if isinstance(request, str):
            request = self.redact_query(request).text
        return self.facts.query(request, self.access.groups, source_sets)

    def route(self, question: str, source_sets: list[str] | None = None) -> Routing:
        """How `ask` answers `question` (the engine is filled in by the answer)."""
        return self._route(self.redact_query(question).text, source_sets)[0]

    def _route(self, question: str, source_sets: list[str] | None) -> tuple[Routing, Intent | None, str]:
        classify = self.llm.complete if self.llm is not None and self.llm.enabled else None
        routing, parsed = route(question, self.catalogue(source_sets), tuple(source_sets or ()), classify)
        return routing, parsed.intent, parsed.unplaced

    def _check_source_sets(self, source_sets: list[str] | None) -> None:
        unknown = sorted(set(source_sets or ()) - set(self.versions))
        if unknown:
            raise UnknownSourceSetError(f"No published index for source-set(s): {', '.join(unknown)}.")

    def ask(
        self,
        question: str,
        k: int = 5,
        source_sets: list[str] | None = None,
        candidates: list[Candidate] | None = None,
        answer_config: AnswerConfig | None = None,  # the offline answerer's, else the engine's
        facts_route: bool = True,  # False: a search step's passages answer it, whatever its words ask (agent)
    ) -> Answer:
        """Route the question, then answer it: an aggregation from the facts engine; a hybrid from
        passages found with the rows a facts filter picked; a lookup or semantic question from
        `candidates` if the caller already searched, else from a fresh search. Every answer carries
        its `routing`.

        The answer text and its quotes pass the privacy audit; if the audit fails, AnswerWithheld
        is raised and nothing is returned.
        """
        question = self.redact_query(question).text
        unplaced = ""  # a quality of the rows the facts cannot tell: the answer must state it (dispatch.py)
        if facts_route:
            routing, intent, unplaced = self._route(question, source_sets)
        else:
            routing, intent = Routing("semantic", "a search step: answered from its passages", "extractive"), None
        if routing.direction == RETRIEVAL_FIRST and intent is not None:
            try:
                return self._retrieval_first(question, intent, routing, source_sets)
            except IntentRefused as exc:  # answered from passages, as a refused aggregation is
                routing, intent = dataclasses.replace(routing, reason=f"{routing.reason}; refused: {exc}"), None
        facts = None
        if routing.route == "hybrid" and intent is not None and intent.operation == "list":
            intent = dataclasses.replace(intent, operation="distinct")  # the rows' keys, each once
        if routing.route in ("aggregation", "hybrid") and intent is not None:
            try:
                facts = self.facts.query(intent, self.access.groups, source_sets)
            except IntentRefused as exc:
                routing = dataclasses.replace(routing, reason=f"{routing.reason}; the facts engine refused: {exc}")
        if routing.route == "aggregation" and facts is not None:
            return self._audited_facts(facts_answer(facts, routing), facts)
        if routing.route == "hybrid" and facts is not None and not facts.abstained:
            candidates = self._search_redacted(hybrid_query(question, facts), k, source_sets, place=False)
        candidates = self._search_redacted(question, k, source_sets, place=False) if candidates is None else candidates
        context = self.context(self.admitted(candidates))
        if self.llm is not None and self.llm.enabled:
            # the offline answerer's checks vouch for what the model may answer from (answer.supported)
            support = lambda q, passages: supported(q, passages, self.similarity, self.answer_config)  # noqa: E731
            answer = answer_with_llm(question, context, self.llm.complete, max_chunks=k, support=support)
        elif (row := checked_row_answer(question, context)) is not None:
            answer = row  # a table row the question names, read with its columns (or why they do not answer)
        else:
            answer = answer_extractively(question, context, self.similarity, answer_config or self.answer_config)
        if routing.route == "hybrid" and facts is not None and not facts.abstained:
            # the rows the filter picked, then what the passages say about them (when they say anything)
            stated = self._audited_facts(facts_answer(facts, routing), facts)
            answer = self._audited(answer, context)
            answer.text = stated.text + ("\n\n" + answer.text if answer.text else "")
            answer.abstained, answer.facts, answer.redactions = False, facts, answer.redactions + stated.redactions
            return routed(answer, routing, f"facts+{answer.mode}")
        answer = unstated_quality(answer, unplaced, context, query_language(question))
        return routed(self._audited(answer, context), routing)

    def _retrieval_first(self, question: str, intent: Intent, routing: Routing, sets: list[str] | None) -> Answer:
        """Retrieval, then facts (routing/reverse.py): the documents named, then the rows they name."""
        search = lambda phrase: self.admitted(self._search_redacted(phrase, SEARCH_HITS, sets))  # noqa: E731
        sources = self.facts.sources(self.access, sets, search, self.retriever.indexes)
        answer, why = retrieval_first(question, intent, sources)
        routing = dataclasses.replace(routing, reason=f"{routing.reason}; {why}")
        return routed(audited_reverse(answer, self.guard), routing, "retrieval+facts")

    def _audited_facts(self, answer: Answer, facts: FactResult) -> Answer:
        """A facts answer through the privacy audit; its cells come from the (redacted) sidecar."""
        if self.guard is not None and answer.text:
            audited = self.guard.audit_answer(answer.text, vouched(facts))
            answer.text, answer.redactions = audited.text, audited.redactions
        return answer

    @staticmethod
    def context(candidates: list[Candidate]) -> list[Candidate]:
        """The passages an answer is read from and cites: the parent sections of the hits, less
        quarantined chunks and sentences that read as instructions to a model (injection.defence)."""
        return sanitise(parents(candidates))

    def _audited(self, answer: Answer, context: list[Candidate], said: Sequence[str] = ()) -> Answer:
        if self.guard is None:
            return answer
        vouched = [*quoted_in_passages(answer, context), *said]
        text = self.guard.audit_answer(answer.text, vouched)
        quotes = [self.guard.audit_answer(c.quote, vouched) for c in answer.citations]
        answer.text = text.text
        answer.citations = [dataclasses.replace(c, quote=q.text) for c, q in zip(answer.citations, quotes, strict=True)]
        answer.redactions = text.redactions + sum(q.redactions for q in quotes)
        return answer

    def audited_answer(self, answer: Answer, context: list[Candidate], said: Sequence[str] = ()) -> Answer:
        """An answer composed outside `ask` (the agent's) through the same privacy audit; `context` holds
        the passages it quotes, `said` spans it copies from the question that `redact_query` kept."""
        return self._audited(answer, context, said)

    def similarity(self, question: str, sentences: list[str]) -> list[float]:
        """Cosine of `question` (embedded as a query) to each text (embedded as a passage)."""
        query = np.asarray(self.embedder.query_dense(question), dtype=np.float32)
        # Each distinct text once (overlapping sections repeat sentences), shortest first: a batch is
        # padded to its longest text, so batches of like lengths do less work. A cold `strata ask`
        # spends most of its time here.
        distinct = sorted(set(sentences), key=len)
        vectors = dict(zip(distinct, self.embedder.embed_dense(distinct), strict=True))
        return [float(np.dot(query, vectors[s])) for s in sentences]

    def close(self) -> None:
        if not self._owns_stores:
            return  # a scoped view: its engine closes the stores
        for store in self._stores.values():
            store.close()
        self._stores.clear()

    def __enter__(self) -> QueryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
