"""What search, ask and audit return, as the API serves them and the CLI prints them with --json.

Plain dataclasses and their converters: importing this module loads neither a web framework nor
pydantic (0.2-0.5 s with its plugin scan), so the CLI answers without the API's start-up cost. The
API declares them as its response models; FastAPI validates and serialises them as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from strata_pipeline.answering.answer import Answer
from strata_pipeline.evidence.packet import EvidencePacket
from strata_pipeline.injection.defence import flags
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.rerank import RERANK

if TYPE_CHECKING:
    from strata_pipeline.agent.loop import AgentResult
    from strata_pipeline.facts.intent import FactResult
    from strata_pipeline.query_engine import Explained, QueryEngine


@dataclass
class Hit:
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
    placed: str = ""  # why a query rule put it ahead of the fused order (the facts source of a count)
    rerank_score: float | None = None  # the cross-encoder's score; None when no reranker is configured
    # Prompt-injection families found in the chunk at ingestion, and "quarantined" (never answered from).
    flags: list[str] = field(default_factory=list)
    injection_risk: float = 0.0


@dataclass
class ExplainedCandidate:
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
    placed: str = ""  # why a query rule put it ahead of the fused order


@dataclass
class SearchResponse:
    query: str  # as searched: personal data and secrets replaced by placeholders
    query_redactions: int
    hits: list[Hit]
    candidates: list[ExplainedCandidate] | None = None  # with explain=true


@dataclass
class CitationOut:
    chunk_id: str
    doc_id: str
    source_set: str
    line_start: int
    line_end: int
    page: int | None
    quote: str


# pydantic reads these attribute docstrings as field descriptions in the OpenAPI schema (a plain dict:
# this module imports no pydantic).
DESCRIBED = {"use_attribute_docstrings": True}


@dataclass
class RoutingOut:
    """How the question was routed and which engine answered."""

    __pydantic_config__ = DESCRIBED
    route: str
    """semantic (passages), aggregation (exact figures from spreadsheet rows), lookup (an exact identifier or
    document name) or hybrid (a filter over facts, then passages, or the reverse: see `direction`)."""
    reason: str
    """Why this route was chosen: the intent words, tables, columns and values it matched."""
    engine: str
    """What answered: facts, extractive, llm, facts+extractive / facts+llm for a facts-first hybrid, or
    retrieval+facts for a retrieval-first one."""
    confidence: float
    """How sure the router is (rules: a fixed value per rule; Claude's choice validated by the rules: 0.9)."""
    classifier: str = "rules"
    """rules, or claude when Claude classified and the rules accepted its choice."""
    direction: str = ""
    """A hybrid's order: facts_first (a facts filter, then passages about its rows) or retrieval_first (the
    documents the question names, then an aggregate over the rows their passages name); empty otherwise."""


@dataclass
class FactRowOut:
    """One counted spreadsheet row, as a citation."""

    __pydantic_config__ = DESCRIBED
    doc_id: str
    """The spreadsheet (or, for document facets, the document) the row belongs to."""
    source_set: str
    """Its source-set."""
    table: str
    """The sidecar table the row was read from."""
    sheet: str
    """The sheet (a CSV file's name for CSV files)."""
    row: int
    """1-based data row in the sheet (the header row is 0)."""
    line: str
    """The row as a CSV line, cells redacted as indexed."""


@dataclass
class FactsOut:
    """An exact aggregation: the figure, the intent that produced it and the rows it counted."""

    __pydantic_config__ = DESCRIBED
    value: Any
    """The figure: a number, a list of values, or an object of group -> number."""
    answer: str
    """One sentence stating the exact figure and the intent."""
    intent: dict[str, Any]
    """The structured intent that was run: operation, table, columns, filters, group_by, source_sets, tables."""
    rows: list[FactRowOut]
    """The rows counted (at most 50), each a citation."""
    row_count: int
    """How many rows matched."""
    abstain_code: str = ""
    """zero_rows when no row matched (nothing to count), else empty."""


@dataclass
class StepOut:
    """One tool call of the agent's trajectory (POST /chat, `strata chat --json`)."""

    tool: str = field(metadata={"description": "The tool called: semantic_search, query_facts, lookup or "
                                "read_document_section."})  # fmt: skip
    arguments: dict[str, Any] = field(metadata={"description": "The arguments it was called with (the question's "
                                                "personal data already replaced by placeholders)."})  # fmt: skip
    summary: str = field(metadata={"description": "What the result held, in one line."})
    ms: float = field(metadata={"description": "Wall time of the call in milliseconds."})
    error: str = field(default="", metadata={"description": "Why the call failed; empty when it did not."})


@dataclass
class AskResponse:
    question: str  # as answered: personal data and secrets replaced by placeholders
    answer: str
    abstained: bool
    reason: str
    mode: str
    citations: list[CitationOut]
    redactions: int  # personal-data values the answer audit removed from the answer
    evidence: EvidencePacket | None = field(
        default=None,
        metadata={
            "description": "With evidence=true (`strata ask --evidence FILE`): the evidence packet, each quote "
            "pinned to its source file (sha256, lines, characters, page) with the index version, model and "
            "time; `strata verify` and POST /verify re-check it. Null otherwise."
        },
    )
    abstain_code: str = field(
        default="",
        metadata={
            "description": "Empty when answered. When abstained, why, as a code: no_support (no passage supports "
            "an answer), contradictory_facts (current sources give different values), zero_rows (an aggregation "
            "matched nothing) or withheld (a generated answer was held back). `reason` says it in words."
        },
    )
    trajectory: list[StepOut] | None = field(
        default=None,
        metadata={"description": "The agent's tool calls in order (POST /chat, `strata chat`); null for /ask."},
    )
    routing: RoutingOut | None = field(
        default=None,
        metadata={"description": "The route (semantic, aggregation, lookup, hybrid), why, and what answered."},
    )
    facts: FactsOut | None = field(
        default=None,
        metadata={"description": "The exact aggregation behind an aggregation or hybrid answer; null otherwise."},
    )


@dataclass
class AuditEntry:
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
        placed=c.placed,
        rerank_score=c.scores.get(RERANK),
        flags=flags(p),
        injection_risk=float(p.get("injection_risk") or 0.0),
    )


def search_response(
    engine: QueryEngine, query: str, k: int, source_sets: list[str] | None, explain: bool = False
) -> SearchResponse:
    """One search as POST /search and the MCP `search` tool return it: the query redacted once, the hits
    best first, and with `explain` every candidate and its fate."""
    redacted = engine.redact_query(query)
    hits = engine.search(redacted.text, k, source_sets)  # reranked when a reranker is configured
    explained = [explained_from(e) for e in engine.explain(redacted.text, k, source_sets)] if explain else None
    return SearchResponse(
        query=redacted.text,
        query_redactions=redacted.redactions,
        hits=[hit_from(i, c) for i, c in enumerate(hits, start=1)],
        candidates=explained,
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
        placed=c.placed,
    )


def answer_response(
    engine: QueryEngine,
    query: str,
    k: int,
    source_sets: list[str] | None,
    evidence_root: Path | None = None,
    candidates: list[Candidate] | None = None,
) -> AskResponse:
    """One question as POST /ask, the MCP `ask` tool and `strata ask` answer it: the query redacted once,
    answered (from `candidates` when the caller already searched), and with `evidence_root` (the corpus
    root) an evidence packet pinning each quote to its source file. Raises AnswerWithheld (fail closed)."""
    question = engine.redact_query(query).text
    answer = engine.ask(question, k, source_sets, candidates=candidates)
    response = ask_response(question, answer)
    if evidence_root is not None:
        from strata_pipeline.evidence.service import evidence_for  # only when asked: it reads source files

        response.evidence = evidence_for(engine, question, answer, evidence_root)
    return response


def ask_response(question: str, answer: Answer) -> AskResponse:
    return AskResponse(
        question=question,
        answer=answer.text,
        abstained=answer.abstained,
        reason=answer.reason,
        mode=answer.mode,
        citations=[CitationOut(**c.__dict__) for c in answer.citations],
        redactions=answer.redactions,
        abstain_code=answer.abstain_code,
        routing=RoutingOut(**answer.routing.to_dict()) if answer.routing else None,
        facts=facts_out(answer.facts) if answer.facts else None,
    )


def facts_out(result: FactResult) -> FactsOut:
    return FactsOut(
        value=result.value,
        answer=result.answer,
        intent=result.intent.to_dict(),
        rows=[FactRowOut(**row.__dict__) for row in result.rows],
        row_count=result.row_count,
        abstain_code=result.abstain_code,
    )


def chat_response(result: AgentResult) -> AskResponse:
    """The agent's answer in /ask's shape, with its trajectory."""
    response = ask_response(result.question, result.answer)
    response.trajectory = [StepOut(s.tool, s.arguments, s.summary, s.ms, s.error) for s in result.trajectory]
    return response
