"""FastAPI app: /health, /search, /ask and /audit over the published index.

Queries are redacted before they are embedded or logged; answers pass a privacy audit that fails
closed (HTTP 503, the answer withheld).

Run with `strata serve` (or `uvicorn serving.app:create_app --factory`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from strata_pipeline.answering.answer import Answer
from strata_pipeline.enrichment.sidecar import connect
from strata_pipeline.query_engine import Explained
from strata_pipeline.redaction.guard import AnswerWithheld
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.retrieval.rerank import RERANK, RerankerUnavailable
from strata_pipeline.retrieval.search import Candidate, UnknownSourceSetError
from strata_pipeline.serving_index import NoIndexError, PublishedIndex
from strata_pipeline.settings import Settings, load_settings

log = logging.getLogger("strata.serving")


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=2000)
    k: int = Field(default=5, ge=1, le=50)
    source_set: str | None = None
    explain: bool = False  # /search only: also list every candidate with its ranks and fate


class Hit(BaseModel):
    rank: int
    chunk_id: str
    doc_id: str
    source_set: str
    title: str
    heading: str
    heading_path: str
    parent_id: str  # the section an answer reads from
    text: str
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    page: int | None
    dense_rank: int | None
    sparse_rank: int | None
    identifier_rank: int | None  # rank among chunks holding an identifier the query names
    dense_score: float | None
    sparse_score: float | None
    fused_score: float
    prior: float = 1.0  # the document's ranking prior (rules' ranking:), multiplied into the fused score
    rank_rule: str = ""  # the ranking rule that set the prior, "" when none did
    rerank_score: float | None = None  # the cross-encoder's score; None when no reranker is configured


class ExplainedCandidate(BaseModel):
    chunk_id: str
    doc_id: str
    source_set: str
    dense_rank: int | None
    sparse_rank: int | None
    identifier_rank: int | None
    fused_score: float
    prior: float
    rank_rule: str
    rerank_score: float | None
    position: int | None
    dropped: str | None


class SearchResponse(BaseModel):
    query: str  # as searched: personal data and secrets replaced by placeholders
    query_redactions: int
    hits: list[Hit]
    candidates: list[ExplainedCandidate] | None = None  # with explain=true


class CitationOut(BaseModel):
    chunk_id: str
    doc_id: str
    source_set: str
    line_start: int
    line_end: int
    page: int | None
    quote: str


class AskResponse(BaseModel):
    question: str  # as answered: personal data and secrets replaced by placeholders
    answer: str
    abstained: bool
    reason: str
    mode: str
    citations: list[CitationOut]
    redactions: int  # personal-data values the answer audit removed from the answer


class AuditEntry(BaseModel):
    source_set: str
    doc_id: str
    entity: str
    start: int
    length: int
    detector: str
    score: float
    decision: str
    placeholder: str | None


def hit_from(rank: int, c: Candidate) -> Hit:
    p = c.payload
    return Hit(
        rank=rank,
        chunk_id=c.chunk_id,
        doc_id=c.doc_id,
        source_set=p.get("source_set", ""),
        title=p.get("title", ""),
        heading=p.get("heading", ""),
        heading_path=p.get("heading_path", ""),
        parent_id=p.get("parent_id", ""),
        text=p.get("text", ""),
        line_start=p.get("line_start", 0),
        line_end=p.get("line_end", 0),
        char_start=p.get("char_start", 0),
        char_end=p.get("char_end", 0),
        page=p.get("page"),
        dense_rank=c.dense_rank,
        sparse_rank=c.sparse_rank,
        identifier_rank=c.identifier_rank,
        dense_score=c.dense_score,
        sparse_score=c.sparse_score,
        fused_score=c.fused_score,
        prior=c.prior,
        rank_rule=p.get("rank_rule") or "",
        rerank_score=c.scores.get(RERANK),
    )


def explained_from(e: Explained) -> ExplainedCandidate:
    c = e.candidate
    return ExplainedCandidate(
        chunk_id=c.chunk_id,
        doc_id=c.doc_id,
        source_set=c.payload.get("source_set", ""),
        dense_rank=c.dense_rank,
        sparse_rank=c.sparse_rank,
        identifier_rank=c.identifier_rank,
        fused_score=c.fused_score,
        prior=c.prior,
        rank_rule=c.payload.get("rank_rule") or "",
        rerank_score=e.rerank_score,
        position=e.position,
        dropped=e.dropped,
    )


def ask_response(question: str, answer: Answer) -> AskResponse:
    return AskResponse(
        question=question,
        answer=answer.text,
        abstained=answer.abstained,
        reason=answer.reason,
        mode=answer.mode,
        citations=[CitationOut(**c.__dict__) for c in answer.citations],
        redactions=answer.redactions,
    )


def create_app(settings: Settings | None = None, overrides: dict[str, Any] | None = None) -> FastAPI:
    """`overrides` replaces resources by key (tests use it to stand in for Claude)."""
    settings = settings or load_settings()
    resources = {**build_resources(settings), **(overrides or {})}
    index = PublishedIndex(
        settings.index_dir,
        resources["embedder"],
        resources["qdrant"],
        resources["llm"],
        resources["pii"].guard(),
        reranker=resources.get("reranker"),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        index.close()

    app = FastAPI(title="Strata Pipeline", version="0.1.0", lifespan=lifespan)

    @app.exception_handler(UnknownSourceSetError)
    def unknown_source_set(request: Request, exc: UnknownSourceSetError) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": str(exc)})

    @app.exception_handler(AnswerWithheld)
    def withheld(request: Request, exc: AnswerWithheld) -> JSONResponse:
        # Fail closed: the unaudited answer never leaves the service.
        return JSONResponse(status_code=503, content={"status": "withheld", "detail": str(exc)})

    def engine():
        try:
            return index.engine()
        except (NoIndexError, RerankerUnavailable) as exc:
            raise HTTPException(status_code=503, detail=str(exc)) from exc

    def source_sets(name: str | None) -> list[str] | None:
        return [name] if name else None

    @app.get("/health")
    def health() -> dict:
        versions = index.published()
        return {
            "status": "ok" if versions else "no_index",
            "model": resources["embedder"].model,  # type: ignore[attr-defined]
            "reranker": resources["reranker"].name if "reranker" in resources else "not configured",
            "source_sets": {
                name: {"version": v.version, "collection": v.collection, "points": v.point_count, "model": v.model}
                for name, v in versions.items()
            },
            "points": sum(v.point_count for v in versions.values()),
        }

    @app.post("/search", response_model=SearchResponse)
    def search(request: SearchRequest) -> SearchResponse:
        current = engine()
        query = current.redact_query(request.query)
        log.info("search k=%d source_set=%s query=%r", request.k, request.source_set, query.text)
        hits = current.search(query.text, request.k, source_sets(request.source_set))  # reranked when configured
        return SearchResponse(
            query=query.text,
            query_redactions=query.redactions,
            hits=[hit_from(i, c) for i, c in enumerate(hits, start=1)],
            candidates=[
                explained_from(e) for e in current.explain(query.text, request.k, source_sets(request.source_set))
            ]
            if request.explain
            else None,
        )

    @app.post("/ask", response_model=AskResponse)
    def ask(request: SearchRequest) -> AskResponse:
        current = engine()
        question = current.redact_query(request.query).text
        log.info("ask k=%d source_set=%s question=%r", request.k, request.source_set, question)
        answer = current.ask(question, request.k, source_sets(request.source_set))
        return ask_response(question, answer)

    @app.get("/audit/{doc_id:path}", response_model=list[AuditEntry])
    def audit(doc_id: str, source_set: str | None = None) -> list[AuditEntry]:
        """The masked redaction audit of one document: types, offsets, detectors, decisions; never values."""
        versions = index.published()
        if source_set is not None and source_set not in versions:
            raise HTTPException(status_code=404, detail=f"No published index for source-set {source_set!r}.")
        found: list[AuditEntry] = []
        holders = []
        for name, version in versions.items():
            if source_set is not None and name != source_set:
                continue
            with closing(connect(version.sidecar_path)) as db:
                if db.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is None:
                    continue
                holders.append(name)
                rows = db.execute("SELECT * FROM redaction_audit WHERE doc_id = ? ORDER BY start", (doc_id,))
                found += [AuditEntry(source_set=name, **dict(r)) for r in rows]
        if not holders:
            raise HTTPException(status_code=404, detail=f"No document {doc_id!r} in the published index.")
        if len(holders) > 1:
            raise HTTPException(
                status_code=409, detail=f"{doc_id!r} exists in {', '.join(holders)}; pass ?source_set= to choose."
            )
        return found

    return app
