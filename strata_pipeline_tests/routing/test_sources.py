"""The facts sources of a routed question: the table an aggregation or hybrid reads, or the documents a
metadata filter picks, from the real router and catalogue; nothing for any other question."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import load_catalogue
from strata_pipeline.facts.catalogue import Catalogue
from strata_pipeline.facts.intent import Filter, Intent
from strata_pipeline.facts.runner import documents_table, matching_documents
from strata_pipeline.routing import Routing, route
from strata_pipeline.routing.sources import FactsSources, MatchDocuments, facts_sources
from strata_pipeline_tests.facts.sidecars import EVERYONE, write_sidecar


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {"ops": write_sidecar(tmp_path_factory.mktemp("sources") / "sidecar.sqlite")}


@pytest.fixture(scope="module")
def catalogue(sidecars: dict[str, Path]) -> Catalogue:
    return load_catalogue(sidecars, EVERYONE)


@pytest.fixture(scope="module")
def match(sidecars: dict[str, Path], catalogue: Catalogue) -> MatchDocuments:
    documents = documents_table(catalogue, sidecars, EVERYONE)
    return lambda filters, sets: matching_documents(documents, filters, sets)


def sources(question: str, catalogue: Catalogue, match: MatchDocuments) -> FactsSources | None:
    routing, parsed = route(question, catalogue)
    return facts_sources(routing, parsed.intent, catalogue, match)


@pytest.mark.parametrize(
    ("question", "route_name", "table"),
    [
        ("How many servers are in ZRH?", "aggregation", "inventory/servers.csv"),
        ("Wie viele Server sind in BSL?", "aggregation", "inventory/servers.csv"),
        ("What is the total on hand stock per warehouse?", "aggregation", "sales/stock.csv"),
        ("What does the runbook say about the servers in BSL?", "hybrid", "inventory/servers.csv"),
    ],
)
def test_an_aggregation_or_hybrid_names_its_table(
    question: str, route_name: str, table: str, catalogue: Catalogue, match: MatchDocuments
) -> None:
    found = sources(question, catalogue, match)
    assert found is not None and found.documents == (("ops", table),)
    assert f"{route_name} route" in found.reason and table in found.reason


def test_a_metadata_filter_names_the_documents_it_picks(catalogue: Catalogue, match: MatchDocuments) -> None:
    found = sources("How many CSV files are there?", catalogue, match)
    # the hr sheet is another group's; the caller's catalogue and documents do not hold it
    assert found is not None
    assert set(found.documents) == {
        ("ops", "inventory/servers.csv"),
        ("ops", "sales/stock.csv"),
        ("ops", "sales/prices.csv"),
    }
    assert "documents" in found.reason
    german = sources("How many documents are in German?", catalogue, match)
    assert german is not None and german.documents == (("ops", "notes/readme.md"),)  # broken.md is not indexed


@pytest.mark.parametrize(
    "question",
    [
        "How do I reset my VPN password?",  # semantic
        "How many weeks of parental leave do new parents get?",  # "how many", but no table
        "E-2402",  # a lookup
        "How many documents are there?",  # every document: none singled out
    ],
)
def test_other_questions_have_no_facts_sources(question: str, catalogue: Catalogue, match: MatchDocuments) -> None:
    assert sources(question, catalogue, match) is None


def test_only_a_confident_rules_route_with_a_valid_intent_resolves(catalogue: Catalogue, match: MatchDocuments) -> None:
    intent = Intent("count", route("How many servers are in ZRH?", catalogue)[1].intent.table)  # type: ignore[union-attr]
    rules = Routing("aggregation", "intent word", "")
    assert facts_sources(rules, intent, catalogue, match) is not None
    # Claude's route is checked by the rules only for what it can carry out: no placement on its word
    assert facts_sources(Routing("aggregation", "Claude", "", 0.9, "claude"), intent, catalogue, match) is None
    assert facts_sources(Routing("semantic", "none", ""), intent, catalogue, match) is None
    assert facts_sources(rules, None, catalogue, match) is None
    assert facts_sources(rules, Intent("count", "no_such_table"), catalogue, match) is None
    unknown_column = Intent("count", "documents", filters=(Filter("owner", "eq", "x"),))
    assert facts_sources(rules, unknown_column, catalogue, match) is None


def test_matching_documents_reads_the_filter_as_the_facts_engine_does(
    sidecars: dict[str, Path], catalogue: Catalogue
) -> None:
    documents = documents_table(catalogue, sidecars, EVERYONE)
    assert matching_documents(documents, (Filter("extension", "eq", ".MD"),)) == [("ops", "notes/readme.md")]
    picked = matching_documents(documents, (Filter("project", "in", ("sales", "notes")),))
    assert picked == [("ops", "sales/stock.csv"), ("ops", "sales/prices.csv"), ("ops", "notes/readme.md")]
    assert matching_documents(documents, (Filter("project", "eq", "sales"),), ("other",)) == []
    assert ("ops", "hr/salaries.csv") not in matching_documents(documents, ())
