"""The documents a routed question's facts come from, for search to rank first.

"Wie viele Drucker sind in Reparatur?" is answered from inventory/printers.csv; "How many CSV files are
there?" counts the CSV files themselves. Text ranking prefers prose about printers, so a reader would
not see the source of the figure first. When the rules route a question to aggregation or hybrid (the
facts parser named a table, or a filter over document metadata), its source documents are known
exactly: the intent's table(s), or the documents its metadata filter picks. A semantic or lookup
question resolves to nothing and its ranking stays as the fusion made it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from strata_pipeline.facts.catalogue import DOCUMENTS, Catalogue
from strata_pipeline.facts.intent import Filter, Intent, IntentRefused
from strata_pipeline.facts.validate import validate
from strata_pipeline.retrieval.placed import DocKey
from strata_pipeline.routing.route import Routing

FACTS_ROUTES = ("aggregation", "hybrid")
MatchDocuments = Callable[[tuple[Filter, ...], tuple[str, ...]], list[DocKey]]


@dataclass(frozen=True)
class FactsSources:
    """The documents a question's facts are read from, best first, and why (for the hit's record)."""

    documents: tuple[DocKey, ...]
    reason: str


def facts_sources(
    routing: Routing,
    intent: Intent | None,
    catalogue: Catalogue,
    match_documents: MatchDocuments,
    source_sets: tuple[str, ...] = (),
) -> FactsSources | None:
    """The source documents of a question routed to aggregation or hybrid by the rules, or None.

    A table intent names its spreadsheet(s); a `documents` intent names the documents its filters pick
    (none without filters: "how many documents are there" counts everything and singles nothing out).
    An intent the catalogue refuses resolves to nothing."""
    if routing.route not in FACTS_ROUTES or routing.classifier != "rules" or intent is None:
        return None
    try:
        intent = validate(intent, catalogue)
    except IntentRefused:
        return None
    sets = intent.source_sets or source_sets
    if intent.table == DOCUMENTS:
        if not intent.filters:
            return None
        found = match_documents(intent.filters, sets)
        what = "the documents its metadata filter picks"
    else:
        tables = [t for name in (intent.table, *intent.tables) for t in catalogue.named(name, sets)]
        found = list(dict.fromkeys((t.source_set, t.doc_id) for t in tables if t.doc_id))
        what = "the table it reads"
    if not found:
        return None
    names = {t.name: f"{t.label} ({t.doc_id})" for t in catalogue.tables if t.doc_id}
    return FactsSources(tuple(found), f"facts source ({routing.route} route: {intent.describe(names)}): {what}")
