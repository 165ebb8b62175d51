"""The eval's citation check over the materialised sample index: a citation is valid when its quote is in
the passage it names, whether that passage was supplied or read by the answer's own (hybrid) search."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from strata_pipeline.agent.documents import document_chunks, sections
from strata_pipeline.answering.answer import Answer, Citation, citations_valid
from strata_pipeline.evaluation.report import cited_elsewhere
from strata_pipeline.query_engine import QueryEngine
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline_tests.conftest import Stack


@pytest.fixture(scope="module")
def engine(stack: Stack) -> Iterator[QueryEngine]:
    index = PublishedIndex.from_settings(stack.settings)
    yield index.engine()
    index.close()


def citing(section_payload: dict, quote: str) -> Answer:
    p = section_payload
    cited = Citation(p["chunk_id"], p["doc_id"], p["source_set"], p["line_start"], p["line_start"], quote)
    return Answer("from the answer's own search", [cited])


def test_a_citation_outside_the_supplied_passages_is_checked_against_the_index(engine: QueryEngine) -> None:
    price_list = "sales/price-list.csv"
    found_by_search = engine.context(engine.search("warranty of the RX-200", 3, ["products"]))
    supplied = [c for c in found_by_search if c.doc_id != price_list]
    other = sections(document_chunks(engine, price_list, "products"))[0]
    quote = other.text.strip().splitlines()[0]
    answer = citing(other.payload, quote)

    assert not citations_valid(answer, supplied)  # what the eval used to count as invalid
    found = cited_elsewhere(engine, answer, supplied)
    assert [c.chunk_id for c in found] == [other.section_id] and found[0].doc_id == price_list
    assert citations_valid(answer, supplied + found)

    forged = citing(other.payload, quote + " and a sentence the document never says")
    assert not citations_valid(forged, supplied + cited_elsewhere(engine, forged, supplied))


def test_a_citation_of_a_document_that_does_not_exist_stays_invalid(engine: QueryEngine) -> None:
    supplied = engine.context(engine.search("warranty period of the RX-200", 3, ["products"]))
    ghost = {"chunk_id": "sales/ghost.csv#s0", "doc_id": "sales/ghost.csv", "source_set": "products", "line_start": 1}
    answer = citing(ghost, "RX200-ARM")
    assert cited_elsewhere(engine, answer, supplied) == []
    assert not citations_valid(answer, supplied)
