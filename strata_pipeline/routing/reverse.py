"""The hybrid's other direction: retrieval first, then facts. "How many of the servers mentioned in the
pgBackRest runbook are in production?" names documents ("the pgBackRest runbook") and a count over a
table ("how many of the servers ... are in production"). The documents are found by retrieval, the
values of the table's key column that their text names become an `in` filter, and the facts intent runs
over those rows only. The answer cites the rows and the passages that named them.

Pure: the engine passes in its search, chunk reader, column values and facts runner, each already
scoped to the caller's groups (see QueryEngine.ask).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from strata_pipeline.answering.answer import Answer, Citation
from strata_pipeline.facts.catalogue import Catalogue, Table
from strata_pipeline.facts.intent import FactResult, Filter, Intent, IntentRefused
from strata_pipeline.facts.parse import NOT_VALUES, asked_noun, stem, words
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.routing.split import split_reverse

SEARCH_HITS = 10  # hits of the document phrase the named documents are chosen from
MAX_PLURAL_DOCUMENTS = 5  # "the incident reports": the named documents among the hits, at most this many
# Document words that say nothing about which document ("the document", "die Richtlinie" keeps its noun).
_FILLER = frozenset("the a an this that these those der die das dem den des le la les l' un une doc document".split())


@dataclass(frozen=True)
class Sources:
    """The caller's view of the index and the sidecar (each call is already scoped to its groups)."""

    search: Callable[[str], list[Candidate]]  # the document phrase -> admitted hits, best first
    chunks: Callable[[str, str], list[dict]]  # (source_set, doc_id) -> the chunk payloads it may read
    values: Callable[[str, str], list[str]]  # (table, column) -> the column's distinct values
    run: Callable[[Intent], FactResult]  # a validated facts intent -> its result
    catalogue: Catalogue


def key_column(facts_question: str, table: Table) -> str:
    """The column whose values the documents name: the one the asked noun names ("which suppliers":
    supplier), else the table's first text column (its key: hostname, sku)."""
    asked = asked_noun(facts_question)
    texts = [c for c in table.columns if c.kind == "text"]
    named = [c for c in texts if asked and asked in {stem(w) for w in c.words}]
    return (named or texts)[0].name if texts else ""


def named_documents(phrase: str, hits: list[Candidate]) -> tuple[list[tuple[str, str]], bool]:
    """The documents the phrase may name, as (source_set, doc_id) in rank order: among the hits, those whose
    path or title shares a word with the phrase; the best hit's document when none does. And whether the
    phrase is plural ("the incident reports": all of them) rather than singular (the first that names rows)."""
    ranked = list(dict.fromkeys((h.payload.get("source_set", ""), h.payload.get("doc_id", "")) for h in hits))
    if not ranked:
        return [], False
    wanted = {stem(w) for w in words(phrase) if w not in _FILLER and len(w) > 2}
    titles = {(h.payload.get("source_set", ""), h.payload.get("doc_id", "")): h.payload.get("title", "") for h in hits}
    # a path's and a title's words: "runbooks/db-restore-pgbackrest.md" -> runbook, db, restore, pgbackrest, md
    named = {d: {stem(w) for w in re.findall(r"[^\W_]+", f"{d[1]} {titles.get(d) or ''}".lower())} for d in ranked}
    sharing = [d for d in ranked if wanted & named[d]]
    head = [w for w in words(phrase) if w not in _FILLER]
    plural = bool(head) and stem(head[-1]) != head[-1].strip(".'")
    return (sharing or ranked[:1])[:MAX_PLURAL_DOCUMENTS], plural


def mentioned(values: list[str], payloads: list[dict]) -> dict[str, dict]:
    """Each value a passage names as a whole word (case-insensitive), with the first passage naming it."""
    found: dict[str, dict] = {}
    for value in values:
        text = value.strip()
        if len(text) < 2 or text.lower() in NOT_VALUES or text.replace(".", "").isdigit():
            continue  # ordinary words and bare numbers name nothing on their own
        pattern = re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])", re.IGNORECASE)
        holder = next((p for p in payloads if pattern.search(p.get("text") or "")), None)
        if holder is not None:
            found[value] = holder
    return found


def citation(value: str, payload: dict) -> Citation:
    """The line of the passage that names `value`."""
    lines = (payload.get("text") or "").splitlines() or [""]
    at = next((i for i, line in enumerate(lines) if value.lower() in line.lower()), 0)
    line = int(payload.get("line_start") or 1) + at
    return Citation(
        payload.get("chunk_id", ""), payload.get("doc_id", ""), payload.get("source_set", ""), line, line,
        lines[at].strip(), payload.get("page"),
    )  # fmt: skip


def retrieval_first(question: str, intent: Intent, sources: Sources) -> tuple[Answer, str]:
    """The answer (figure, counted rows, naming passages) and what the routing reason adds: which documents
    were read and which values they named. Abstains (zero_rows) when the documents name no value."""
    split = split_reverse(question)
    tables = sources.catalogue.named(intent.table, intent.source_sets)
    if split is None or not tables:
        raise IntentRefused("No documents and no table could be read from the question.")
    column = key_column(split.facts_question, tables[0])
    # the spreadsheet that holds the rows names them all: the question's documents are others
    hits = [h for h in sources.search(split.documents) if h.payload.get("doc_id") not in {t.doc_id for t in tables}]
    candidates, plural = named_documents(split.documents, hits)
    values = sources.values(intent.table, column) if column else []
    documents: list[tuple[str, str]] = []
    found: dict[str, dict] = {}
    for document in candidates:
        named = mentioned(values, sources.chunks(*document))
        if named:  # a singular phrase names one document: the best-ranked one that names rows of the table
            documents.append(document)
            found = {**named, **found}
            if not plural:
                break
    documents = documents or candidates[:1]
    read = ", ".join(doc for _, doc in documents) or "no document"
    why = f"retrieval first: {split.documents!r} found {read}"
    if not found:
        text = (
            f"The passages of {read} name no {column or 'key'} of {tables[0].label}, so there are no rows to "
            "count and no figure to give."
        )
        return Answer("", abstained=True, reason=text, mode="facts", abstain_code="zero_rows"), f"{why}; no values"
    narrowed = dataclasses.replace(intent, filters=(*intent.filters, Filter(column, "in", tuple(sorted(found)))))
    result = sources.run(narrowed)
    cited = sorted((citation(v, p) for v, p in found.items()), key=lambda c: (c.doc_id, c.line_start, c.quote))
    naming = f"{len(found)} {column} value(s) named in {read}: {', '.join(sorted(found))}"
    rows = f"Rows read: those whose {column} is one of the {naming}."
    answer = Answer(
        "" if result.abstained else f"{result.answer}\n\n{rows}",
        citations=cited,
        abstained=result.abstained,
        reason=result.answer if result.abstained else "",
        mode="facts",
        abstain_code=result.abstain_code,
    )
    answer.facts = result
    return answer, f"{why}, naming {naming}; then the facts"
