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

from strata_pipeline.enrichment.sidecar import connect
from strata_pipeline.redaction.guard import AnswerWithheld
from strata_pipeline.responses import (
    AskResponse,
    AuditEntry,
    SearchResponse,
    ask_response,
    explained_from,
    hit_from,
)
from strata_pipeline.retrieval.rerank import RerankerUnavailable
from strata_pipeline.retrieval.search import UnknownSourceSetError
from strata_pipeline.serving_index import NoIndexError, PublishedIndex
from strata_pipeline.settings import Settings, load_settings

log = logging.getLogger("strata.serving")


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=2000)
    k: int = Field(default=5, ge=1, le=50)
    source_set: str | None = None
    explain: bool = False  # /search only: also list every candidate with its ranks and fate


def create_app(settings: Settings | None = None, overrides: dict[str, Any] | None = None) -> FastAPI:
    """`overrides` replaces query components by name: embedder, qdrant, llm, guard, reranker (tests use
    it to stand in for Claude). The app queries through the plain components, so it loads no Dagster."""
    settings = settings or load_settings()
    index = PublishedIndex.from_settings(settings, overrides)

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
            "model": index.embedder.model,
            "reranker": index.reranker.name if index.reranker is not None else "not configured",
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
