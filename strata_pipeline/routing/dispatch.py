"""What the query engine does with a route: facts answers, the hybrid's narrowed query, and the
routing block on every answer. Pure helpers: the engine (query_engine.py) calls them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from strata_pipeline.answering.answer import Answer
from strata_pipeline.facts.catalogue import Catalogue, load_catalogue
from strata_pipeline.facts.intent import FactResult, Intent, IntentRefused, format_value
from strata_pipeline.facts.parse import parse
from strata_pipeline.indexing.versions import IndexVersion
from strata_pipeline.routing.route import Routing

HYBRID_KEYS = 5  # key values of the filtered rows added to the hybrid's search query


class FactsSource:
    """The catalogue and sidecars one caller may aggregate over, cached per group set: the engine
    and its scoped views share one instance, and a published version never changes."""

    def __init__(self, versions: dict[str, IndexVersion]) -> None:
        self.sidecars: dict[str, Path] = {name: v.sidecar_path for name, v in versions.items()}
        self._catalogues: dict[frozenset[str] | None, Catalogue] = {}

    def catalogue(self, groups: frozenset[str] | None, source_sets: list[str] | None = None) -> Catalogue:
        if groups not in self._catalogues:
            if len(self._catalogues) > 64:
                self._catalogues.clear()  # a long-lived API sees many callers
            self._catalogues[groups] = load_catalogue(self.sidecars, groups)
        full = self._catalogues[groups]
        if not source_sets:
            return full
        return Catalogue(tuple(t for t in full.tables if t.source_set in source_sets))

    def query(
        self, request: str | dict | Intent, groups: frozenset[str] | None, source_sets: list[str] | None = None
    ) -> FactResult:
        """A question or an intent run over what `groups` may read. IntentRefused names visible tables only."""
        catalogue = self.catalogue(groups, source_sets)
        if isinstance(request, str):
            parsed = parse(request, catalogue, tuple(source_sets or ()))
            if parsed.intent is None:
                raise IntentRefused(
                    "No count, sum, average, minimum, maximum, list or intersection over a known table could be "
                    f"read from the question. Tables and their columns: {catalogue.describe()}."
                )
            intent = parsed.intent
        else:
            intent = request if isinstance(request, Intent) else Intent.from_dict(request)
        if source_sets and intent.source_sets and not set(intent.source_sets) <= set(source_sets):
            raise IntentRefused(f"The intent's source-sets are outside {', '.join(source_sets)}.")
        from strata_pipeline.facts.runner import execute  # polars: only when an aggregation runs

        return execute(intent, catalogue, self.sidecars, groups)


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


def hybrid_query(question: str, result: FactResult) -> str:
    """The question narrowed to the rows the facts filter picked: their key values join the query."""
    keys = result.value if isinstance(result.value, list) else []
    return " ".join([question, *map(str, keys[:HYBRID_KEYS])])


def routed(answer: Answer, routing: Routing, engine: str | None = None) -> Answer:
    answer.routing = dataclasses.replace(routing, engine=engine or answer.mode)
    return answer
