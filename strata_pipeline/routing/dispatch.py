"""What the query engine does with a route: facts answers, the hybrid's narrowed query, and the
routing block on every answer. Pure helpers: the engine (query_engine.py) calls them."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from strata_pipeline.answering.abstention import NO_SUPPORT
from strata_pipeline.answering.answer import Answer
from strata_pipeline.answering.cross_language import other_language
from strata_pipeline.answering.table_text import cells
from strata_pipeline.facts.catalogue import Catalogue, load_catalogue
from strata_pipeline.facts.intent import FactResult, Filter, Intent, IntentRefused, format_value
from strata_pipeline.facts.parse import parse
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.retrieval.placed import DocKey, absent_sources, admitted_by, sources_first
from strata_pipeline.retrieval.rerank import RERANKED_MODE
from strata_pipeline.routing.reverse import Sources
from strata_pipeline.routing.route import Routing, route
from strata_pipeline.routing.sources import FactsSources, facts_sources

if TYPE_CHECKING:
    from strata_pipeline.access.groups import Access
    from strata_pipeline.facts.runner import Documents
    from strata_pipeline.indexing.engine import PointStore
    from strata_pipeline.redaction.guard import PrivacyGuard
    from strata_pipeline.retrieval.search import Retriever

HYBRID_KEYS = 5  # key values of the filtered rows added to the hybrid's search query
PLACED_MODES = ("hybrid", RERANKED_MODE)  # the orders users get; dense and BM25 alone stay plain lists


class FactsSource:
    """The catalogue and sidecars one caller may aggregate over, cached per group set: the engine
    and its scoped views share one instance, and a published version never changes."""

    def __init__(self, versions: dict[str, IndexVersion]) -> None:
        self.sidecars: dict[str, Path] = {name: v.sidecar_path for name, v in versions.items()}
        self._catalogues: dict[frozenset[str] | None, Catalogue] = {}
        self._documents: dict[frozenset[str] | None, Documents] = {}  # `documents` rows, loaded once per group set
        self._resolved: dict[tuple, FactsSources | None] = {}  # search, explain and each mode resolve alike

    def catalogue(self, groups: frozenset[str] | None, source_sets: list[str] | None = None) -> Catalogue:
        if groups not in self._catalogues:
            if len(self._catalogues) > 64:
                self._catalogues.clear()  # a long-lived API sees many callers
            self._catalogues[groups] = load_catalogue(self.sidecars, groups)
        full = self._catalogues[groups]
        if not source_sets:
            return full
        return Catalogue(tuple(t for t in full.tables if t.source_set in source_sets))

    def resolve(
        self, question: str, groups: frozenset[str] | None, source_sets: list[str] | None
    ) -> FactsSources | None:
        """The source documents of a question the rules route to aggregation or hybrid (routing/sources.py)."""
        key = (question, groups, tuple(source_sets or ()))
        if key not in self._resolved:
            if len(self._resolved) > 1024:
                self._resolved.clear()
            catalogue = self.catalogue(groups, source_sets)
            routing, parsed = route(question, catalogue, key[2])
            match = lambda f, s: self._matching(f, s, groups)  # noqa: E731
            self._resolved[key] = facts_sources(routing, parsed.intent, catalogue, match, key[2])
        return self._resolved[key]

    def sources_first(
        self,
        question: str,
        ranked: list[Candidate],
        access: Access,
        source_sets: list[str] | None,
        retriever: Retriever,
        mode: str = "hybrid",
    ) -> list[Candidate]:
        """`ranked` with the facts sources of a question routed to aggregation or hybrid first
        (retrieval/placed.py), in the orders users get (PLACED_MODES). A source the fusion did not return
        is read by its first chunk, when `access` and the retriever's payload filter admit it."""
        found = self.resolve(question, access.groups, source_sets) if mode in PLACED_MODES else None
        if found is None:
            return ranked
        from strata_pipeline.indexing.store import point_id  # polars: only when a question resolved

        ids = {point_id(s, d, 0): s for s, d in absent_sources(ranked, found.documents) if s in retriever.indexes}
        fetched = [
            Candidate(pid, payload)
            for name in set(ids.values())
            for pid, payload in retriever.indexes[name].payloads([i for i, s in ids.items() if s == name]).items()
            if access.admits(payload.get("groups")) and admitted_by(payload, retriever.where)
        ]
        return sources_first(ranked, found.documents, found.reason, fetched)

    def _matching(
        self, filters: tuple[Filter, ...], source_sets: tuple[str, ...], groups: frozenset[str] | None
    ) -> list[DocKey]:
        from strata_pipeline.facts.runner import documents_table, matching_documents  # polars: only when resolved

        if groups not in self._documents:
            if len(self._documents) > 64:
                self._documents.clear()
            self._documents[groups] = documents_table(self.catalogue(groups), self.sidecars, groups)
        return matching_documents(self._documents[groups], filters, source_sets)

    def query(
        self, request: str | dict | Intent, groups: frozenset[str] | None, source_sets: list[str] | None = None
    ) -> FactResult:
        """A question or an intent run over what `groups` may read. IntentRefused names visible tables only."""
        catalogue = self.catalogue(groups, source_sets)
        if isinstance(request, str):
            parsed = parse(request, catalogue, tuple(source_sets or ()))
            if parsed.intent is None:
                why = f" ({parsed.why})" if parsed.why else ""  # e.g. "names 'site Basel', a value the column ..."
                raise IntentRefused(
                    "No count, sum, average, minimum, maximum, list or intersection over a known table could be "
                    f"read from the question{why}. Tables and their columns: {catalogue.describe()}."
                )
            intent = parsed.intent
        else:
            intent = request if isinstance(request, Intent) else Intent.from_dict(request)
        if source_sets and intent.source_sets and not set(intent.source_sets) <= set(source_sets):
            raise IntentRefused(f"The intent's source-sets are outside {', '.join(source_sets)}.")
        from strata_pipeline.facts.runner import execute  # polars: only when an aggregation runs

        return execute(intent, catalogue, self.sidecars, groups)

    def sources(
        self,
        access: Access,
        source_sets: list[str] | None,
        search: Callable[[str], list[Candidate]],
        stores: dict[str, PointStore],
    ) -> Sources:
        """What a retrieval-first hybrid reads, all of it as `access` may: the engine's scoped search, the
        documents' chunks it admits, and this caller's catalogue, column values and facts runner."""
        from strata_pipeline.facts.runner import column_values  # polars: only when a hybrid runs
        from strata_pipeline.indexing.store import document_payloads

        groups = access.groups
        catalogue = self.catalogue(groups, source_sets)

        def chunks(source_set: str, doc_id: str) -> list[dict]:
            found = document_payloads(stores[source_set], source_set, doc_id)
            return [p for p in found if access.admits(p.get("groups"))]

        return Sources(
            search=search,
            chunks=chunks,
            values=lambda table, column: column_values(table, column, catalogue, self.sidecars, groups),
            run=lambda intent: self.query(intent, groups, source_sets),
            catalogue=catalogue,
        )


def audited_reverse(answer: Answer, guard: PrivacyGuard | None) -> Answer:
    """A retrieval-first answer through the privacy audit: it copies the sidecar's cells (redacted at
    ingestion) and lines of indexed passages (likewise), which are vouched; anything else is screened."""
    if guard is None:
        return answer
    quotes = [c.quote for c in answer.citations]
    facts = vouched(answer.facts) if answer.facts is not None else []
    if answer.text:
        audited = guard.audit_answer(answer.text, [*facts, *with_cells(quotes)])
        answer.text, answer.redactions = audited.text, audited.redactions
    checked = [guard.audit_answer(q, [q]) for q in quotes]
    answer.citations = [dataclasses.replace(c, quote=q.text) for c, q in zip(answer.citations, checked, strict=True)]
    answer.redactions += sum(q.redactions for q in checked)
    return answer


def facts_answer(result: FactResult, routing: Routing) -> Answer:
    """An aggregation's answer: the figure as text, the rows in `facts`; zero rows abstain."""
    answer = Answer(
        text="" if result.abstained else result.answer,
        abstained=result.abstained,
        reason=result.answer if result.abstained else "",
        mode="facts",
        abstain_code=result.abstain_code if result.abstained else "",
    )
    answer.routing = dataclasses.replace(routing, engine="facts")
    answer.facts = result
    return answer


def vouched(result: FactResult) -> list[str]:
    """What a facts answer copies from the sidecar (already redacted at ingestion): the figure and the
    counted cells. The rest (the intent's words and filter values) is screened by the audit."""
    cells = [cell for row in result.rows for cell in row.line.split(",")]
    return [format_value(result.value), *cells]


def quoted(answer: Answer, context: list[Candidate]) -> list[str]:
    """What a passage answer copies verbatim from the passages it was given (see
    PrivacyGuard.audit_answer): each citation's quote when it is in the cited passage's indexed text,
    and the citation markers."""
    texts = {c.chunk_id: c.payload.get("text", "") for c in context}
    cited = [c for c in answer.citations if c.quote and c.quote in texts.get(c.chunk_id, "")]
    # a quoted row is read with its table's column names ("Depot: Innsbruck"): the cells of the cited passage's
    # table lines, its header row among them, are indexed text too
    lines = [line for c in cited if "|" in c.quote for line in texts[c.chunk_id].splitlines() if "|" in line]
    markers = [f"[{c.chunk_id}]" for c in answer.citations if c.chunk_id in texts]
    return with_cells([c.quote for c in cited]) + _row_cells(lines) + markers


def with_cells(quotes: list[str]) -> list[str]:
    """The quotes, and the cells of those that are table rows: an answer may read a quoted row with its
    column names ("campus: Brandholm; price_gbp: 3650"), copying each cell but not the row."""
    return quotes + _row_cells([quote for quote in quotes if "|" in quote])


def _row_cells(rows: list[str]) -> list[str]:
    return [cell for row in rows for cell in cells(row) if cell]


def unstated(answer: Answer, quality: str, context: Sequence[Candidate] = (), language: str = "") -> Answer:
    """Abstain when the question asks for rows with a quality no column or value holds ("Welche
    Server haben kein Duplex?") and the answer found in passages does not mention it either: quoting
    server rooms would answer another question. A cited passage's title, headings and text count as
    said: "| 24-hour cap | £12.00 |" in "Parking at Kestwick > Visitor parking", under its table's
    "| Stay | Charge |", states a parking charge. Passages in another language than the question
    (`language`) may state it in their own words ("gravir" against "climb"): an answer quoted from
    those alone is left as it is."""
    if not quality or answer.abstained:
        return answer
    cited = {c.chunk_id for c in answer.citations}
    languages = [c.payload.get("language") for c in context if c.chunk_id in cited]
    if languages and all(other_language(language, said) for said in languages):
        return answer
    passages = [
        " ".join(str(c.payload.get(field) or "") for field in ("title", "heading_path", "text"))
        for c in context
        if c.chunk_id in cited
    ]
    said = " ".join([answer.text, *(c.quote for c in answer.citations), *passages]).casefold()
    # each word by its first letters ("Klimaanlage" in "Klimaanlagen"), short words whole
    if all(re.search(rf"\b{re.escape(w[: max(4, len(w) - 2)])}", said) for w in quality.casefold().split()):
        return answer
    reason = (
        f"The question asks which rows have {quality!r}: no table column or value holds it, "
        "and none of the passages found mentions it."
    )
    return dataclasses.replace(answer, text="", citations=[], abstained=True, reason=reason, abstain_code=NO_SUPPORT)


def hybrid_query(question: str, result: FactResult) -> str:
    """The question narrowed to the rows the facts filter picked: their key values join the query."""
    keys = result.value if isinstance(result.value, list) else []
    return " ".join([question, *map(str, keys[:HYBRID_KEYS])])


def routed(answer: Answer, routing: Routing, engine: str | None = None) -> Answer:
    answer.routing = dataclasses.replace(routing, engine=engine or answer.mode)
    return answer
