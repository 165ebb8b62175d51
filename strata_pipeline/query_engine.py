"""Search and answer over index versions: the one code path used by the API, the CLI and the eval.

The eval report measures exactly what users get because it calls this same engine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
from qdrant_client import QdrantClient

from strata_pipeline.answering.answer import Answer, AnswerConfig, answer_extractively, answer_with_llm
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.redaction.guard import Audited, PrivacyGuard
from strata_pipeline.resources import AnthropicResource, EmbedderResource, QdrantResource
from strata_pipeline.retrieval.search import MODES, RRF_K, Candidate, Retriever, parents


@dataclass(frozen=True)
class Explained:
    candidate: Candidate
    position: int | None  # 1-based place in the results, None when dropped
    dropped: str | None  # why it is not in the results
    rerank_score: float | None = None  # set when a reranker is configured


@dataclass(frozen=True)
class EngineConfig:
    rrf_k: int = RRF_K
    candidates: int = 40
    answer: AnswerConfig = field(default_factory=AnswerConfig)


class QueryEngine:
    def __init__(
        self,
        embedder: EmbedderResource,
        qdrant: QdrantResource,
        versions: dict[str, IndexVersion],
        llm: AnthropicResource | None = None,
        config: EngineConfig = EngineConfig(),
        guard: PrivacyGuard | None = None,
    ) -> None:
        for version in versions.values():
            if version.model != embedder.model:
                raise ValueError(
                    f"Index {version.source_set}/{version.version} was built with {version.model!r} but the "
                    f"configured embedding model is {embedder.model!r}. Set STRATA_EMBED_MODEL to match, or re-index."
                )
        self.versions = dict(versions)
        self.embedder = embedder
        self.llm = llm
        self.config = config
        self.guard = guard
        self._clients: dict[str, QdrantClient] = {}
        try:
            for name, version in versions.items():
                self._clients[name] = qdrant.open_reader(version)
        except Exception:
            self.close()
            raise
        self.retriever = Retriever(
            embedder.query_dense,
            embedder.query_sparse,
            {name: (self._clients[name], v.collection) for name, v in versions.items()},
            rrf_k=config.rrf_k,
            candidates=config.candidates,
        )

    def redact_query(self, query: str) -> Audited:
        """What search and ask actually embed (and what callers may log): personal data replaced."""
        return self.guard.redact_query(query) if self.guard else Audited(query, 0)

    def search(
        self, query: str, k: int = 5, source_sets: list[str] | None = None, mode: str = "hybrid"
    ) -> list[Candidate]:
        return self.retriever.search(self.redact_query(query).text, k, source_sets, mode)

    def explain(self, query: str, k: int = 5, source_sets: list[str] | None = None) -> list[Explained]:
        """Every candidate the retrievers returned, with its ranks, fused score and fate.

        No cross-encoder is configured, so rerank scores are None and no score floor applies; the only
        reason to drop a candidate is falling below the top k of the fused order.
        """
        pool = self.retriever.search(self.redact_query(query).text, self.retriever.candidates, source_sets)
        return [
            Explained(cand, position if position <= k else None, None if position <= k else f"beyond top {k}")
            for position, cand in enumerate(pool, start=1)
        ]

    def search_modes(
        self, query: str, k: int, source_sets: list[str] | None = None, modes: tuple[str, ...] = MODES
    ) -> dict[str, list[Candidate]]:
        """Every mode's ranking from one embedding of the (redacted) query: what the eval compares."""
        return self.retriever.search_modes(self.redact_query(query).text, k, source_sets, modes)

    def _search_redacted(self, query: str, k: int, source_sets: list[str] | None) -> list[Candidate]:
        return self.retriever.search(query, k, source_sets)

    def ask(
        self, question: str, k: int = 5, source_sets: list[str] | None = None, candidates: list[Candidate] | None = None
    ) -> Answer:
        """Answer from `candidates` if the caller already searched, else from a fresh search.

        The answer text and its quotes pass the privacy audit; if the audit fails, AnswerWithheld
        is raised and nothing is returned.
        """
        question = self.redact_query(question).text
        candidates = self._search_redacted(question, k, source_sets) if candidates is None else candidates
        context = self.context(candidates)
        if self.llm is not None and self.llm.enabled:
            answer = answer_with_llm(question, context, self.llm.complete, max_chunks=k)
        else:
            answer = answer_extractively(question, context, self._similarity, self.config.answer)
        return self._audited(answer)

    @staticmethod
    def context(candidates: list[Candidate]) -> list[Candidate]:
        """The passages an answer is read from and cites: the parent sections of the hits."""
        return parents(candidates)

    def _audited(self, answer: Answer) -> Answer:
        if self.guard is None:
            return answer
        text = self.guard.audit_answer(answer.text)
        quotes = [self.guard.audit_answer(c.quote) for c in answer.citations]
        answer.text = text.text
        answer.citations = [dataclasses.replace(c, quote=q.text) for c, q in zip(answer.citations, quotes, strict=True)]
        answer.redactions = text.redactions + sum(q.redactions for q in quotes)
        return answer

    def _similarity(self, question: str, sentences: list[str]) -> list[float]:
        query = np.asarray(self.embedder.query_dense(question), dtype=np.float32)
        return [float(np.dot(query, v)) for v in self.embedder.embed_dense(sentences)]

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()

    def __enter__(self) -> QueryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
