"""The API's request and status bodies. Requests are strict: no unknown fields, no coercion ("5" is not
5, true is not 1, 5.5 is not 5), and the limits of strata_pipeline.validation, which the CLI applies too."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from strata_pipeline.evidence.packet import (
    MAX_CITATIONS,
    MAX_QUOTE_CHARS,
    MAX_ROWS,
    EvidenceCitation,
    EvidencePacket,
    EvidenceRow,
)
from strata_pipeline.validation import (
    DOC_ID_MAX_CHARS,
    HISTORY_MAX_MESSAGES,
    K_DEFAULT,
    K_MAX,
    K_MIN,
    QUERY_MAX_CHARS,
    QUERY_PATTERN,
    SOURCE_SET_MAX_CHARS,
    SOURCE_SET_PATTERN,
    TURN_MAX_CHARS,
    check_doc_id,
    check_query,
)


class ScopedRequest(BaseModel):
    """What /search, /ask and /chat share: how many chunks a search retrieves, and where."""

    model_config = ConfigDict(strict=True, extra="forbid")

    k: int = Field(default=K_DEFAULT, ge=K_MIN, le=K_MAX, description="How many chunks to retrieve.")
    source_set: str | None = Field(
        default=None,
        max_length=SOURCE_SET_MAX_CHARS,
        pattern=SOURCE_SET_PATTERN,
        description="Search only this source-set.",
    )

    @field_validator("k", mode="before")
    @classmethod
    def _integral_number(cls, value: object) -> object:
        # JSON has one number type, and JSON Schema counts 5.0 as the integer 5, so the schema promises
        # to take it; 5.5, "5" and true are still refused.
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


class QueryRequest(ScopedRequest):
    """What /search and /ask share."""

    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX_CHARS,
        # the same rule as check_query, so clients and schema-driven tests know it; the validator below
        # applies it with a message that names the problem
        json_schema_extra={"pattern": QUERY_PATTERN},
        description="The question. Tab, newline and carriage return are the only control characters allowed, "
        "and at least one character must show.",
    )

    @field_validator("query")
    @classmethod
    def _query(cls, value: str) -> str:
        return check_query(value)


class AskRequest(QueryRequest):
    evidence: bool = Field(
        default=False,
        description="Also return the evidence packet: each quote pinned to its source file (sha256, lines, "
        "characters, page) with the index version, model and time, for POST /verify to re-check later.",
    )


class ChatMessage(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    role: Literal["user", "assistant"] = Field(description="Who said it.")
    content: str = Field(max_length=TURN_MAX_CHARS, description="What was said.")


class ChatRequest(ScopedRequest):
    """One turn of a conversation with the agent (docs/agent.md)."""

    question: str = Field(
        min_length=1,
        max_length=QUERY_MAX_CHARS,
        json_schema_extra={"pattern": QUERY_PATTERN},
        description="This turn's question; the same rules as /ask's query.",
    )
    history: list[ChatMessage] = Field(
        default_factory=list,
        max_length=HISTORY_MAX_MESSAGES,
        description="The conversation so far, oldest first (Claude reads it; the offline planner reads only "
        "the question).",
    )

    @field_validator("question")
    @classmethod
    def _question(cls, value: str) -> str:
        return check_query(value)


class SearchRequest(QueryRequest):
    explain: bool = Field(default=False, description="Also list every candidate with its ranks and fate.")


class FactsRequest(BaseModel):
    """An exact aggregation: a question in words, or a structured intent (exactly one of them)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    question: str | None = Field(
        default=None,
        min_length=1,
        max_length=QUERY_MAX_CHARS,
        json_schema_extra={"pattern": QUERY_PATTERN},
        description="A counting, summing, averaging, listing or intersecting question, "
        "e.g. 'How many servers are in ZRH?'.",
    )
    intent: dict[str, Any] | None = Field(
        default=None,
        description="A structured intent: operation (count, list, sum, avg, min, max, group_by, intersect, distinct), "
        "table, columns, filters [{column, op, value}], group_by, source_sets, tables.",
    )
    source_set: str | None = Field(
        default=None,
        max_length=SOURCE_SET_MAX_CHARS,
        pattern=SOURCE_SET_PATTERN,
        description="Aggregate only over this source-set.",
    )

    @field_validator("question")
    @classmethod
    def _question(cls, value: str | None) -> str | None:
        return None if value is None else check_query(value)

    def request(self) -> str | dict[str, Any]:
        if (self.question is None) == (self.intent is None):
            raise ValueError("Send exactly one of 'question' and 'intent'.")
        return self.question if self.question is not None else dict(self.intent or {})


class ErrorResponse(BaseModel):
    detail: str
    status: str | None = None


class SourceSetStatus(BaseModel):
    version: str
    collection: str
    points: int
    model: str


class HealthResponse(BaseModel):
    status: Literal["ok", "no_index"]
    ready: bool = Field(description="Whether an index is published; the same answer as GET /ready.")
    model: str
    reranker: str
    source_sets: dict[str, SourceSetStatus] | None = Field(
        description="Per source-set version and points; null for a caller restricted to some document groups."
    )
    points: int | None = Field(description="Points in every published version; null for a restricted caller.")


class ReadyResponse(BaseModel):
    status: Literal["ready"]
    source_sets: list[str]


class EvalReportResponse(BaseModel):
    """The latest full eval report of one source-set, as the eval_report asset wrote it."""

    source_set: str
    version: str = Field(description="The index version the report scored.")
    report: dict[str, Any] = Field(description="fingerprint, k, summary (every figure) and questions (every result).")
    markdown: str | None = Field(description="The same report as markdown: the headline and every question.")


def _said(cls: type, name: str) -> str:
    """The description a packet field carries (strata_pipeline.evidence.packet), so both schemas agree."""
    return next(f.metadata["description"] for f in fields(cls) if f.name == name)


class VerifyCitation(BaseModel):
    """One citation of an evidence packet, as POST /verify takes it."""

    model_config = ConfigDict(strict=True, extra="forbid")

    quote: str = Field(max_length=MAX_QUOTE_CHARS, description=_said(EvidenceCitation, "quote"))
    doc_id: str = Field(max_length=DOC_ID_MAX_CHARS, description=_said(EvidenceCitation, "doc_id"))
    source_set: str = Field(
        max_length=SOURCE_SET_MAX_CHARS, pattern=SOURCE_SET_PATTERN, description=_said(EvidenceCitation, "source_set")
    )
    chunk_id: str = Field(description=_said(EvidenceCitation, "chunk_id"))
    sha256: str = Field(description=_said(EvidenceCitation, "sha256"))
    line_start: int = Field(description=_said(EvidenceCitation, "line_start"))
    line_end: int = Field(description=_said(EvidenceCitation, "line_end"))
    char_start: int | None = Field(default=None, description=_said(EvidenceCitation, "char_start"))
    char_end: int | None = Field(default=None, description=_said(EvidenceCitation, "char_end"))
    page: int | None = Field(default=None, description=_said(EvidenceCitation, "page"))
    index_version: str = Field(default="", description=_said(EvidenceCitation, "index_version"))

    @field_validator("doc_id")
    @classmethod
    def _doc_id(cls, value: str) -> str:
        return check_doc_id(value)  # a lone surrogate could not be written back in the report


class VerifyRow(BaseModel):
    """One counted row of an aggregation's evidence packet, as POST /verify takes it."""

    model_config = ConfigDict(strict=True, extra="forbid")

    doc_id: str = Field(max_length=DOC_ID_MAX_CHARS, description=_said(EvidenceRow, "doc_id"))
    source_set: str = Field(
        max_length=SOURCE_SET_MAX_CHARS, pattern=SOURCE_SET_PATTERN, description=_said(EvidenceRow, "source_set")
    )
    table: str = Field(description=_said(EvidenceRow, "table"))
    sheet: str = Field(description=_said(EvidenceRow, "sheet"))
    row: int = Field(description=_said(EvidenceRow, "row"))
    line: str = Field(max_length=MAX_QUOTE_CHARS, description=_said(EvidenceRow, "line"))
    sha256: str = Field(description=_said(EvidenceRow, "sha256"))
    sheet_sha256: str = Field(default="", description=_said(EvidenceRow, "sheet_sha256"))
    index_version: str = Field(default="", description=_said(EvidenceRow, "index_version"))

    @field_validator("doc_id")
    @classmethod
    def _doc_id(cls, value: str) -> str:
        return check_doc_id(value)


class VerifyRequest(BaseModel):
    """An evidence packet, exactly as POST /ask (evidence=true) and `strata ask --evidence` return it."""

    model_config = ConfigDict(strict=True, extra="forbid")

    question: str = Field(description=_said(EvidencePacket, "question"))
    answer: str = Field(description=_said(EvidencePacket, "answer"))
    citations: list[VerifyCitation] = Field(max_length=MAX_CITATIONS, description=_said(EvidencePacket, "citations"))
    model: str = Field(description=_said(EvidencePacket, "model"))
    index_versions: dict[str, str] = Field(description=_said(EvidencePacket, "index_versions"))
    created_at: str = Field(description=_said(EvidencePacket, "created_at"))
    mode: str = Field(default="extractive", description=_said(EvidencePacket, "mode"))
    rows: list[VerifyRow] = Field(default=[], max_length=MAX_ROWS, description=_said(EvidencePacket, "rows"))
    # the packet format this code reads (PACKET_SCHEMA); a test keeps the two the same
    schema_version: Literal["strata.evidence/1"] = Field(
        default="strata.evidence/1", description=_said(EvidencePacket, "schema_version")
    )
