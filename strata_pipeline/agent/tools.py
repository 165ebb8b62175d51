"""The agent's tools over a scoped QueryEngine: plain arguments in, plain data out.

Every tool reads through the engine it is given, so access (`QueryEngine.scoped`) holds for each call.
Passages come back sanitised (injection.defence: quarantined chunks dropped, flagged sentences cut)
and as quoted data (`Observation.data`); document text is never spliced into an instruction.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from strata_pipeline.agent.documents import document_chunks, find_documents, pick_section, sections
from strata_pipeline.answering.answer import Citation
from strata_pipeline.embedding.identifiers import identifiers
from strata_pipeline.injection.defence import sanitise
from strata_pipeline.retrieval.candidate import Candidate

if TYPE_CHECKING:
    from strata_pipeline.query_engine import QueryEngine

PASSAGE_CHARS = 1200  # of each passage's text a tool result carries
SUMMARY_CHARS = 160
LOOKUP_DEPTH = 4  # hits a lookup reads per passage it returns: a table that defines a code ranks with its mentions


class AgentBudgetExceeded(RuntimeError):
    """The agent spent its step or token budget before it had an answer."""


@dataclass(frozen=True)
class Budget:
    max_steps: int = 8  # tool calls per question
    max_tokens: int = 40_000  # Claude input + output tokens per question, over every round trip


@dataclass(frozen=True)
class Step:
    """One tool call of a trajectory."""

    tool: str
    arguments: dict[str, Any]
    summary: str  # what the result held, in one line
    ms: float  # wall time of the call
    error: str = ""


@dataclass
class Observation:
    """A tool's result: `data` is what a model reads (JSON-able, document text as quoted values);
    `passages` and `facts` are what an answer may cite."""

    summary: str
    data: dict[str, Any]
    passages: list[Candidate] = field(default_factory=list)
    facts: Any = None  # a facts.FactResult
    error: str = ""


def has_facts(engine: QueryEngine) -> bool:
    """Whether this engine can answer structured facts (QueryEngine.query_facts exists)."""
    return callable(getattr(engine, "query_facts", None))


def tool_names(engine: QueryEngine) -> tuple[str, ...]:
    names = ("semantic_search", "lookup", "read_document_section")
    return (names[0], "query_facts", *names[1:]) if has_facts(engine) else names


class Toolbox:
    """The tools as `engine` sees them. `source_sets` bounds every call (the request's source_set)."""

    def __init__(self, engine: QueryEngine, k: int = 5, source_sets: list[str] | None = None) -> None:
        self.engine = engine
        self.k = k
        self.source_sets = source_sets
        self.steps: list[Step] = []
        self._tools: dict[str, Callable[..., Observation]] = {
            "semantic_search": self.semantic_search,
            "lookup": self.lookup,
            "read_document_section": self.read_document_section,
        }
        if has_facts(engine):
            self._tools["query_facts"] = self.query_facts

    @property
    def names(self) -> tuple[str, ...]:
        return tool_names(self.engine)

    def call(self, tool: str, arguments: dict[str, Any]) -> Observation:
        """Run one tool and record it as a step. A bad call (unknown tool, bad arguments, a refused
        intent, no such document) is an observation with `error` set, not an exception: the loop goes on."""
        started = time.perf_counter()
        try:
            if tool not in self._tools:
                raise ValueError(f"No tool {tool!r}; the tools are {', '.join(self.names)}.")
            observation = self._tools[tool](**arguments)
        except (TypeError, ValueError, LookupError) as exc:
            observation = Observation(f"error: {exc}", {"error": str(exc)}, error=str(exc))
        ms = round((time.perf_counter() - started) * 1000, 1)
        self.steps.append(Step(tool, dict(arguments), observation.summary[:SUMMARY_CHARS], ms, observation.error))
        return observation

    def _scope(self, source_set: str | None) -> list[str] | None:
        if source_set is None:
            return self.source_sets
        if self.source_sets is not None and source_set not in self.source_sets:
            raise ValueError(f"Source-set {source_set!r} is outside this conversation's {self.source_sets}.")
        return [source_set]

    def semantic_search(
        self, query: str, k: int | None = None, source_set: str | None = None, doc_ids: list[str] | None = None
    ) -> Observation:
        """Hybrid search; with `doc_ids`, only passages of those documents (a step scoped to what an
        earlier step found)."""
        engine = self.engine
        if doc_ids:
            # a view narrowed to those documents by the index's payload filter, within the caller's groups
            engine = engine.scoped(engine.access)
            engine.retriever.where = {**(engine.retriever.where or {}), "doc_id": [str(d) for d in doc_ids]}
        found = engine.search(query, k or self.k, self._scope(source_set))
        passages = self.engine.context(self.engine.admitted(found))
        docs = list(dict.fromkeys(p.doc_id for p in passages))
        summary = f"{len(passages)} passages from {', '.join(docs[:4]) or 'no document'}"
        return Observation(summary, {"passages": [passage_data(p) for p in passages]}, passages=passages)

    def query_facts(self, request: str | dict[str, Any], source_set: str | None = None) -> Observation:
        """Exact figures over the sidecar's structured facts (QueryEngine.query_facts)."""
        result = self.engine.query_facts(request, self._scope(source_set))  # type: ignore[attr-defined]
        rows = [{"doc_id": r.doc_id, "row": r.row, "line": r.line} for r in result.rows]
        data = {
            "intent": result.intent.describe(),
            "value": result.value,
            "answer": result.answer,
            "row_count": result.row_count,
            "rows": rows,
            "abstain_code": result.abstain_code,
        }
        return Observation(f"{result.intent.describe()} -> {_short(result.value)}", data, facts=result)

    def lookup(self, name: str, source_set: str | None = None) -> Observation:
        """An exact identifier, code or document name: documents by doc_id or title, else the passages
        that hold the identifier verbatim."""
        docs = find_documents(self.engine, name, self._scope(source_set))
        if docs:
            data = {"documents": [d.__dict__ for d in docs[:20]]}
            return Observation(f"{len(docs)} documents: {', '.join(d.doc_id for d in docs[:4])}", data)
        wanted = set(identifiers(name)) or {name.strip().lower()}
        found = self.engine.search(name, max(self.k * LOOKUP_DEPTH, 10), self._scope(source_set))
        held = [c for c in found if wanted & {i for i in identifiers(c.payload.get("text", ""))}]
        passages = self.engine.context(self.engine.admitted(held))
        if not any(defines(p.payload.get("text", ""), wanted) for p in passages):
            passages = self._definitions(passages, wanted) + passages
        # every passage holding the identifier scores alike on it: the ones that define it (its heading, its
        # table row) are read first, then the ones that only mention it, each in rank order
        passages = sorted(passages, key=lambda p: not defines(p.payload.get("text", ""), wanted))[: self.k]
        docs_of = list(dict.fromkeys(p.doc_id for p in passages))
        summary = f"{name!r} in {', '.join(docs_of[:4])}" if docs_of else f"no document or passage names {name!r}"
        return Observation(summary, {"passages": [passage_data(p) for p in passages]}, passages=passages)

    def _definitions(self, passages: list[Candidate], wanted: set[str]) -> list[Candidate]:
        """The sections that define an identifier in the documents whose passages mention it: a code table
        ranks below the passages that cite one of its codes, as every one of them holds the code."""
        seen = {p.chunk_id for p in passages}
        found: list[Candidate] = []
        for doc_id, source_set in dict.fromkeys(
            (p.doc_id, p.payload.get("source_set", "")) for p in passages[: self.k]
        ):
            for section in sections(document_chunks(self.engine, doc_id, source_set)):
                if section.section_id not in seen and defines(section.text, wanted):
                    found.append(Candidate(point_id=section.section_id, payload=section.payload))
        return sanitise(found)

    def read_document_section(
        self, doc_id: str, heading: str | None = None, chunk_id: str | None = None, source_set: str | None = None
    ) -> Observation:
        """One section of a document, by a chunk or section id or by (part of) its heading path."""
        for name in self._scope(source_set) or sorted(self.engine.versions):
            chunks = document_chunks(self.engine, doc_id, name)
            if not chunks:
                continue
            found = sections(chunks)
            section = pick_section(found, heading, chunk_id or None)
            if section is None:
                headings = "; ".join(s.heading_path for s in found[:12])
                raise LookupError(f"{doc_id} has no section {heading or chunk_id!r}; its sections: {headings}")
            passage = Candidate(point_id=section.section_id, payload=section.payload)
            passages = sanitise([passage])
            summary = f"{doc_id} > {section.heading_path or section.section_id} ({len(section.text)} chars)"
            return Observation(summary, {"passages": [passage_data(p) for p in passages]}, passages=passages)
        # the same words whether the document is missing or in a group the caller is not in
        raise LookupError(f"No document {doc_id!r} in the published index.")


def fact_citations(facts: Any) -> list[Citation]:
    """The rows a figure counted, as citations: the row's line as the quote (header = line 1)."""
    return [
        Citation(f"{r.doc_id}#row{r.row}", r.doc_id, r.source_set, r.row + 1, r.row + 1, r.line) for r in facts.rows
    ]


def passage_data(passage: Candidate) -> dict[str, Any]:
    """A passage as a tool result: where it is from, and its text as a quoted value (never an instruction)."""
    p = passage.payload
    return {
        "chunk_id": passage.chunk_id,
        "doc_id": passage.doc_id,
        "source_set": p.get("source_set", ""),
        "title": p.get("title", ""),
        "heading": p.get("heading_path", ""),
        "untrusted_text": (p.get("text") or "")[:PASSAGE_CHARS],
    }


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def defines(text: str, wanted: set[str]) -> bool:
    """Whether a passage defines one of the `wanted` identifiers rather than mentioning it: a heading that
    names it ("## E-101 Joint Overtemperature", or in plain text "N-620 LOCALIZATION LOST") or a table row
    whose first cell is it ("| KF-5021 | ...")."""
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#") and wanted & set(identifiers(stripped)):
            return True
        code, _, title = stripped.partition(" ")
        if wanted & set(identifiers(code)) and title.isupper():
            return True  # a plain-text heading: "N-620 LOCALIZATION LOST"
        if "|" in stripped:
            first = next((c for c in stripped.strip("|").split("|") if c.strip()), "")
            if wanted & set(identifiers(first)) and set(identifiers(first)) <= wanted:
                return True
    return False
