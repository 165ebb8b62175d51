"""FastAPI app: /search, /ask, /chat (the agent), /facts, /verify and /audit over the published index,
/health, /ready and /metrics.

Queries are redacted before they are embedded or logged; answers pass a privacy audit that fails
closed (HTTP 503, the answer withheld). With a keys file (STRATA_API_KEYS) every query needs
`Authorization: Bearer <key>` (401 otherwise) and reads only its key's document groups: each route
hands the caller to the query engine (`QueryEngine.scoped`), the one place access is enforced.
Requests are admitted under limits (serving/config.py): a body limit (413), strict validation with
short error bodies (422), a rate limit per key, or per client address without keys (429).
The docs pages (/docs, /redoc) load Swagger UI and ReDoc from the fastapi-offline package, not a CDN.

Run with `strata serve` (or `uvicorn serving.app:create_app --factory`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi_offline import FastAPIOffline
from prometheus_client import CollectorRegistry
from prometheus_fastapi_instrumentator import Instrumentator

from serving.auth import AuthMiddleware, caller_of, document_bearer
from serving.bodylimit import BodyLimitMiddleware
from serving.config import ServingConfig
from serving.errors import StrictJSONRoute, validation_error_handler
from serving.models import (
    AskRequest,
    ChatRequest,
    ErrorResponse,
    EvalReportResponse,
    FactsRequest,
    HealthResponse,
    ReadyResponse,
    SearchRequest,
    SourceSetStatus,
    VerifyRequest,
)
from serving.ratelimit import ClientRateLimit, RateLimitMiddleware
from strata_pipeline.access.keys import load_keys
from strata_pipeline.agent import AgentBudgetExceeded, Budget, run_agent
from strata_pipeline.evaluation.report_files import REPORTS_ROUTE, latest_report
from strata_pipeline.evidence import VerifyReport, packet_from_dict
from strata_pipeline.evidence.service import verify_for
from strata_pipeline.indexing.readable import IndexMismatch
from strata_pipeline.query_engine import AmbiguousDocument, NoSuchDocument, QueryEngine
from strata_pipeline.redaction.guard import AnswerWithheld
from strata_pipeline.responses import (
    AskResponse,
    AuditEntry,
    FactsOut,
    SearchResponse,
    answer_response,
    chat_response,
    explained_from,
    facts_out,
    hit_from,
    search_response,
)
from strata_pipeline.retrieval.rerank import RerankerUnavailable
from strata_pipeline.retrieval.search import UnknownSourceSetError
from strata_pipeline.serving_index import NoIndexError, PublishedIndex
from strata_pipeline.settings import Settings, load_settings
from strata_pipeline.validation import (
    DOC_ID_MAX_CHARS,
    SOURCE_SET_MAX_CHARS,
    SOURCE_SET_PATTERN,
    check_doc_id,
    preview,
)

__all__ = ["create_app", "explained_from", "hit_from"]

log = logging.getLogger("strata.serving")

# Probes and the metrics scrape are never rate limited: a client over its limit must not make the
# service look dead or blind.
UNLIMITED_PATHS = ("/health", "/ready", "/metrics")
# Paths that need no API key: the probes, the metrics scrape and the docs pages. Every other path needs
# one, so a route added later is protected without anyone remembering to.
OPEN_PATHS = (*UNLIMITED_PATHS, "/openapi.json", "/docs", "/redoc", "/static-offline-docs")


def _responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    said = {
        400: "The agent spent its step or token budget (/chat: STRATA_AGENT_MAX_STEPS, STRATA_AGENT_MAX_TOKENS).",
        401: "A key is needed (STRATA_API_KEYS is set): send `Authorization: Bearer <key>`.",
        404: "No such source-set, document or report; or (POST /facts) the intent was refused: the detail names "
        "the tables and columns that exist.",
        409: "The doc_id exists in several source-sets.",
        413: "Request body over the limit (STRATA_MAX_BODY_BYTES).",
        429: "Rate limit exceeded; the Retry-After header says when to try again.",
        503: "No published index (run `strata materialize`), an index built with another embedding model, the "
        "reranker cannot load, or the answer was withheld by the privacy audit.",
    }
    return {code: {"model": ErrorResponse, "description": said[code]} for code in codes}


def create_app(
    settings: Settings | None = None, overrides: dict[str, Any] | None = None, config: ServingConfig | None = None
) -> FastAPI:
    """`overrides` replaces query components by name: embedder, qdrant, llm, guard, reranker (tests use
    it to stand in for Claude). The app queries through the plain components, so it loads no Dagster.
    `config` holds the request limits; by default they are read from the environment."""
    settings = settings or load_settings()
    config = config or ServingConfig.from_env()
    index = PublishedIndex.from_settings(settings, overrides)
    keys = load_keys(config.keys_file) if config.keys_file is not None else None  # a bad file stops start-up
    if keys is None:
        log.warning(
            "No API keys file (STRATA_API_KEYS): every caller reads every document group; serve on loopback only."
        )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        index.close()

    app = FastAPIOffline(
        title="Strata Pipeline",
        version="0.1.0",
        lifespan=lifespan,
        # Swagger UI's validator badge is fetched from validator.swagger.io: keep the page fully offline
        swagger_ui_parameters={"validatorUrl": None},
    )
    app.router.route_class = StrictJSONRoute
    app.add_exception_handler(RequestValidationError, validation_error_handler)

    # Added innermost first: metrics, then the rate limit, then the body limit, so the metrics
    # see every answer (429s and 413s included) and a refused client costs no body read.
    app.add_middleware(BodyLimitMiddleware, max_body_bytes=config.max_body_bytes)
    per_key = {k.name: k.rate_limit for k in (keys.keys if keys else ()) if k.rate_limit}
    if config.rate_limited or per_key:
        app.add_middleware(
            RateLimitMiddleware,
            limit=ClientRateLimit(config.rate_limit, config.rate_limit_storage, per_key),
            exempt=UNLIMITED_PATHS,
        )
    # Outside the rate limit, which counts per key name once the caller is known.
    app.add_middleware(AuthMiddleware, keys=keys, open_paths=OPEN_PATHS)
    if keys is not None:
        document_bearer(app, OPEN_PATHS)
    # One registry per app, so several apps in one process (tests) do not collide; exact status codes,
    # so a 413, 422 or 429 can be told apart on a dashboard.
    instrumentator = Instrumentator(
        registry=CollectorRegistry(), should_group_status_codes=False, excluded_handlers=["/metrics"]
    )
    instrumentator.instrument(app, metric_namespace="strata")
    instrumentator.expose(app, endpoint="/metrics", response_class=PlainTextResponse, tags=["operations"])

    @app.exception_handler(UnknownSourceSetError)
    def unknown_source_set(request: Request, exc: UnknownSourceSetError) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": str(exc)})

    @app.exception_handler(AnswerWithheld)
    def withheld(request: Request, exc: AnswerWithheld) -> JSONResponse:
        # Fail closed: the unaudited answer never leaves the service.
        return JSONResponse(status_code=503, content={"status": "withheld", "detail": str(exc)})

    def engine(http: Request) -> QueryEngine:
        """The engine as this request's caller sees it: every read below goes through it."""
        try:
            return index.engine().scoped(caller_of(http.scope))
        except (NoIndexError, RerankerUnavailable, IndexMismatch) as exc:
            raise HTTPException(status_code=503, detail=str(exc)) from exc

    def not_ready() -> str | None:
        """Why a query would fail now, or None when one would be served."""
        try:
            index.engine()
        except (NoIndexError, RerankerUnavailable, IndexMismatch) as exc:
            return str(exc)
        return None

    def source_sets(name: str | None) -> list[str] | None:
        return [name] if name else None

    @app.get("/health", response_model=HealthResponse, tags=["operations"])
    def health(http: Request) -> HealthResponse:
        """Liveness: 200 while the process answers. The body says what is published; /ready says whether
        queries can be served. Point counts span every group, so only a caller who reads every group
        (no keys file, or a key with group "*") gets them; others get null."""
        versions = index.published()
        if caller_of(http.scope).restricted:
            return HealthResponse(
                status="ok" if versions else "no_index",
                ready=bool(versions) and not_ready() is None,
                model=index.embedder.model,
                reranker=index.reranker.name if index.reranker is not None else "not configured",
                source_sets=None,
                points=None,
            )
        return HealthResponse(
            status="ok" if versions else "no_index",
            ready=bool(versions) and not_ready() is None,
            model=index.embedder.model,
            reranker=index.reranker.name if index.reranker is not None else "not configured",
            source_sets={
                name: SourceSetStatus(version=v.version, collection=v.collection, points=v.point_count, model=v.model)
                for name, v in versions.items()
            },
            points=sum(v.point_count for v in versions.values()),
        )

    @app.get("/ready", response_model=ReadyResponse, responses=_responses(503), tags=["operations"])
    def ready() -> ReadyResponse | JSONResponse:
        """Readiness: 200 once an index is published and a query can be served, 503 until then."""
        reason = not_ready()
        if reason is not None:
            return JSONResponse(status_code=503, content={"status": "not_ready", "detail": reason})
        return ReadyResponse(status="ready", source_sets=sorted(index.published()))

    @app.post("/search", response_model=SearchResponse, responses=_responses(401, 404, 413, 429, 503), tags=["query"])
    def search(request: SearchRequest, http: Request) -> SearchResponse:
        scope = source_sets(request.source_set)
        response = search_response(engine(http), request.query, request.k, scope, request.explain)
        log.info("search k=%d source_set=%s query=%r", request.k, request.source_set, response.query)
        return response

    @app.post("/ask", response_model=AskResponse, responses=_responses(401, 404, 413, 429, 503), tags=["query"])
    def ask(request: AskRequest, http: Request) -> AskResponse:
        evidence_root = settings.corpus_root if request.evidence else None
        response = answer_response(
            engine(http), request.query, request.k, source_sets(request.source_set), evidence_root
        )
        log.info("ask k=%d source_set=%s question=%r", request.k, request.source_set, response.question)
        return response

    @app.post("/verify", response_model=VerifyReport, responses=_responses(401, 413, 429, 503), tags=["query"])
    def verify(request: VerifyRequest, http: Request) -> VerifyReport:
        """Re-read the sources of an evidence packet (POST /ask with evidence=true, `strata ask --evidence`)
        and report per citation: intact, drifted (with the quote's new place when it moved) or missing. A
        document the caller may not read is reported missing, exactly like one that does not exist. The
        report holds statuses and positions, never text read from a source."""
        try:
            checked = packet_from_dict(request.model_dump())
        except ValueError as exc:  # what the schema cannot say; the same body shape as any other 422
            error = {"type": "value_error", "loc": ("body",), "msg": f"Not an evidence packet: {exc}"}
            raise RequestValidationError([error]) from exc
        return verify_for(engine(http), checked, settings.corpus_root)

    @app.post("/chat", response_model=AskResponse, responses=_responses(400, 401, 404, 413, 429, 503), tags=["query"])
    def chat(request: ChatRequest, http: Request) -> AskResponse | JSONResponse:
        """The agent: a compound question becomes tool calls (search, facts, lookup, section reads), answered
        in /ask's shape with the trajectory of calls. Offline a planner decomposes the forms it knows; with
        Claude, tool use within STRATA_AGENT_MAX_STEPS and STRATA_AGENT_MAX_TOKENS."""
        current = engine(http)
        log.info("chat k=%d source_set=%s turns=%d", request.k, request.source_set, len(request.history))
        try:
            result = run_agent(
                current,
                request.question,
                [m.model_dump() for m in request.history],
                request.k,
                source_sets(request.source_set),
                Budget(settings.agent_max_steps, settings.agent_max_tokens),
            )
        except AgentBudgetExceeded as exc:
            return JSONResponse(status_code=400, content={"status": "over_budget", "detail": str(exc)})
        return chat_response(result)

    @app.post("/facts", response_model=FactsOut, responses=_responses(401, 404, 413, 429, 503), tags=["query"])
    def facts(request: FactsRequest, http: Request) -> FactsOut:
        """An exact aggregation over the spreadsheet rows and document facets the caller may read. A refused
        intent (no such table or column for this caller, a type mismatch, no aggregation in the question)
        is a 404 whose detail names the tables and columns that exist."""
        current = engine(http)
        try:
            result = current.query_facts(request.request(), source_sets(request.source_set))
        except ValueError as exc:  # IntentRefused, or neither/both of question and intent
            raise HTTPException(status_code=404, detail=str(exc)) from exc
        return facts_out(result)

    @app.get(
        "/audit/{doc_id:path}",
        response_model=list[AuditEntry],
        responses=_responses(401, 404, 409, 429, 503),
        tags=["query"],
    )
    def audit(
        http: Request,
        doc_id: Annotated[str, Path(max_length=DOC_ID_MAX_CHARS)],
        source_set: Annotated[str | None, Query(max_length=SOURCE_SET_MAX_CHARS, pattern=SOURCE_SET_PATTERN)] = None,
    ) -> list[AuditEntry]:
        """The masked redaction audit of one document: types, offsets, detectors, decisions; never values."""
        try:
            check_doc_id(doc_id)
        except ValueError as exc:
            raise HTTPException(status_code=404, detail=f"No document {preview(doc_id)}: {exc}.") from exc
        try:
            holder, rows = engine(http).audit(doc_id, source_set)
        except NoSuchDocument as exc:
            raise HTTPException(
                status_code=404, detail=f"No document {preview(doc_id)} in the published index."
            ) from exc
        except AmbiguousDocument as exc:
            raise HTTPException(
                status_code=409, detail=f"{preview(doc_id)} {exc}; pass ?source_set= to choose."
            ) from exc
        return [AuditEntry(source_set=holder, **row) for row in rows]

    @app.get(
        REPORTS_ROUTE + "/{source_set}",
        response_model=EvalReportResponse,
        responses=_responses(404, 429),
        tags=["reports"],
    )
    def eval_report(
        source_set: Annotated[str, Path(max_length=SOURCE_SET_MAX_CHARS, pattern=SOURCE_SET_PATTERN)],
    ) -> EvalReportResponse:
        """The latest full eval report of a source-set: every figure and every question, as JSON and markdown.
        The eval_report asset's metadata links here."""
        found = latest_report(settings.reports_dir, source_set)
        if found is None:
            raise HTTPException(
                status_code=404, detail=f"No eval report for source-set {source_set!r}: materialise it first."
            )
        return EvalReportResponse(
            source_set=found.source_set, version=found.version, report=found.report, markdown=found.markdown
        )

    return app
