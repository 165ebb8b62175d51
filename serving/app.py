"""FastAPI app: /health, /search and /ask over the published index.

Run with `strata serve` (or `uvicorn serving.app:create_app --factory`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from strata_pipeline.answering.answer import Answer
from strata_pipeline.resources.factory import build_resources
from strata_pipeline.retrieval.search import Candidate, UnknownSourceSetError
from strata_pipeline.serving_index import NoIndexError, PublishedIndex
from strata_pipeline.settings import Settings, load_settings


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=2000)
    k: int = Field(default=5, ge=1, le=50)
    source_set: str | None = None


class Hit(BaseModel):
    rank: int
    chunk_id: str
    doc_id: str
    source_set: str
    title: str
    heading: str
    text: str
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    page: int | None
    dense_rank: int | None
    sparse_rank: int | None
    dense_score: float | None
    sparse_score: float | None
    fused_score: float


class SearchResponse(BaseModel):
    query: str
    hits: list[Hit]


class CitationOut(BaseModel):
    chunk_id: str
    doc_id: str
    source_set: str
    line_start: int
    line_end: int
    page: int | None
    quote: str


class AskResponse(BaseModel):
    question: str
    answer: str
    abstained: bool
    reason: str
    mode: str
    citations: list[CitationOut]


def hit_from(rank: int, c: Candidate) -> Hit:
    p = c.payload
    return Hit(
        rank=rank,
        chunk_id=c.chunk_id,
        doc_id=c.doc_id,
        source_set=p.get("source_set", ""),
        title=p.get("title", ""),
        heading=p.get("heading", ""),
        text=p.get("text", ""),
        line_start=p.get("line_start", 0),
        line_end=p.get("line_end", 0),
        char_start=p.get("char_start", 0),
        char_end=p.get("char_end", 0),
        page=p.get("page"),
        dense_rank=c.dense_rank,
        sparse_rank=c.sparse_rank,
        dense_score=c.dense_score,
        sparse_score=c.sparse_score,
        fused_score=c.fused_score,
    )


def ask_response(question: str, answer: Answer) -> AskResponse:
    return AskResponse(
        question=question,
        answer=answer.text,
        abstained=answer.abstained,
        reason=answer.reason,
        mode=answer.mode,
        citations=[CitationOut(**c.__dict__) for c in answer.citations],
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()
    resources = build_resources(settings)
    index = PublishedIndex(settings.index_dir, resources["embedder"], resources["qdrant"], resources["llm"])  # type: ignore[arg-type]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        index.close()

    app = FastAPI(title="Strata Pipeline", version="0.1.0", lifespan=lifespan)

    @app.exception_handler(UnknownSourceSetError)
    def unknown_source_set(request: Request, exc: UnknownSourceSetError) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": str(exc)})

    def engine():
        try:
            return index.engine()
        except NoIndexError as exc:
            raise HTTPException(status_code=503, detail=str(exc)) from exc

    def source_sets(name: str | None) -> list[str] | None:
        return [name] if name else None

    @app.get("/health")
    def health() -> dict:
        versions = index.published()
        return {
            "status": "ok" if versions else "no_index",
            "model": resources["embedder"].model,  # type: ignore[attr-defined]
            "source_sets": {
                name: {"version": v.version, "collection": v.collection, "points": v.point_count, "model": v.model}
                for name, v in versions.items()
            },
            "points": sum(v.point_count for v in versions.values()),
        }

    @app.post("/search", response_model=SearchResponse)
    def search(request: SearchRequest) -> SearchResponse:
        hits = engine().search(request.query, request.k, source_sets(request.source_set))
        return SearchResponse(query=request.query, hits=[hit_from(i, c) for i, c in enumerate(hits, start=1)])

    @app.post("/ask", response_model=AskResponse)
    def ask(request: SearchRequest) -> AskResponse:
        answer = engine().ask(request.query, request.k, source_sets(request.source_set))
        return ask_response(request.query, answer)

    return app
