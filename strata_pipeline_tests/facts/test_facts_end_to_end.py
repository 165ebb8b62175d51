"""Spreadsheets in two groups, materialised through the real graph, then asked through the engine, the
API (/ask routing and /facts, with two keys), the CLI and the eval: one group's facts never reach the
other, in values, rows, catalogue listings or refusal messages."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from serving.app import create_app
from serving.config import ServingConfig
from strata_pipeline.access.groups import Access
from strata_pipeline.cli import main
from strata_pipeline.facts import IntentRefused
from strata_pipeline.responses import explained_from, hit_from
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline_tests.access.two_groups import TwoGroups, two_groups_published
from strata_pipeline_tests.plant import VALVES

DOCS = {
    "guides/valves.md": VALVES,
    "hr/salary-bands.csv": "role,band,salary_eur\nTechnician,B3,52000\nEngineer,B5,68000\nSupervisor,B5,71000\n"
    "Manager,B7,91000\n",
    "finance/budget.csv": "cost_centre,item,amount_eur\nPUMPS,maintenance,48000\nPUMPS,spares,12000\n"
    "VALVES,maintenance,9000\n",
    # names one budget row's key: the retrieval-first hybrid counts only what a document names
    "finance/review.md": "# Quarterly review\n\nThis quarter's review covers the PUMPS cost centre only.\n",
}
ACCESS_RULES = """access:
  - name: hr-only
    dirs: [hr]
    groups: [hr]
  - name: finance-only
    dirs: [finance]
    groups: [finance]
"""
HR_Q = "What is the total salary per band?"
REVERSE_Q = "What is the total amount of the cost centres mentioned in the quarterly review?"
HR_VALUE = {"B3": 52000, "B5": 139000, "B7": 91000}
FIN_Q = "What is the total amount per cost centre in the budget?"
FIN_VALUE = {"PUMPS": 60000, "VALVES": 9000}
GOLDEN = f"""source_set: plant
k: 3
questions:
  - id: a-1
    question: How often is the alpha valve inspected?
    relevant: [guides/valves.md]
  - id: a-2
    question: {FIN_Q}
    route: aggregation
    relevant: [finance/budget.csv]
    expected_value: {json.dumps(FIN_VALUE)}
"""
# what a caller of the other group must never see: hr's column names and figures, finance's likewise
HR_SECRETS = ("salary", "band", "52000", "91000", "139000", "Supervisor")
FIN_SECRETS = ("cost_centre", "amount_eur", "48000", "60000", "PUMPS")


def leaks(text: str, secrets: tuple[str, ...]) -> list[str]:
    return [s for s in secrets if s.lower() in text.lower()]


@pytest.fixture(scope="module")
def plant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoGroups]:
    with two_groups_published(tmp_path_factory.mktemp("facts"), DOCS, GOLDEN, ACCESS_RULES) as published:
        yield published


def test_the_engine_aggregates_only_over_the_callers_groups(plant: TwoGroups) -> None:
    index = PublishedIndex.from_settings(plant.settings)
    try:
        engine = index.engine()
        hr, finance = engine.scoped(Access.member("hr", ["hr"])), engine.scoped(Access.member("fin", ["finance"]))
        assert engine.query_facts(HR_Q).value == HR_VALUE and engine.query_facts(FIN_Q).value == FIN_VALUE
        assert hr.query_facts(HR_Q).value == HR_VALUE
        result = finance.query_facts(FIN_Q)
        assert result.value == FIN_VALUE and {r.doc_id for r in result.rows} == {"finance/budget.csv"}
        assert [r.line for r in result.rows] == [
            "PUMPS,maintenance,48000",
            "PUMPS,spares,12000",
            "VALVES,maintenance,9000",
        ]
        listing = json.dumps(finance.catalogue().to_dict()) + finance.catalogue().describe()
        assert not leaks(listing, HR_SECRETS) and "budget" in listing
        with pytest.raises(IntentRefused) as refused:
            finance.query_facts(HR_Q)
        assert not leaks(str(refused.value), HR_SECRETS) and "amount_eur" in str(refused.value)
        hr_table = next(t.name for t in engine.catalogue().tables if t.doc_id == "hr/salary-bands.csv")
        with pytest.raises(IntentRefused) as named:  # naming the other group's table finds nothing
            finance.query_facts({"operation": "sum", "table": hr_table, "columns": ["salary_eur"]})
        assert not leaks(str(named.value).replace(hr_table, ""), HR_SECRETS)
        answer = finance.ask(HR_Q, 3)
        assert answer.routing is not None and answer.routing.route != "aggregation"
        assert not leaks(answer.text + answer.routing.reason, HR_SECRETS) and answer.facts is None
        hybrid = finance.ask("What does the budget say about the PUMPS cost centre?", 3)
        assert hybrid.routing is not None and hybrid.routing.route == "hybrid"
        assert hybrid.routing.engine == "facts+extractive" and hybrid.facts is not None
        assert hybrid.facts.value == ["PUMPS"] and hybrid.text.startswith("1 value(s): PUMPS")
        routed = finance.ask(FIN_Q, 3)
        assert routed.routing is not None and (routed.routing.route, routed.routing.engine) == ("aggregation", "facts")
        assert routed.facts is not None and routed.facts.value == FIN_VALUE and "PUMPS: 60000" in routed.text
    finally:
        index.close()


def test_the_api_routes_ask_and_serves_facts_per_key(plant: TwoGroups) -> None:
    config = ServingConfig(keys_file=plant.keys_file, rate_limit="off")
    with TestClient(create_app(plant.settings, config=config)) as client:
        as_hr = {"Authorization": f"Bearer {plant.hr_key}"}
        as_fin = {"Authorization": f"Bearer {plant.finance_key}"}
        assert client.post("/facts", json={"question": FIN_Q}).status_code == 401
        asked = client.post("/ask", json={"query": FIN_Q}, headers=as_fin).json()
        assert asked["routing"]["route"] == "aggregation" and asked["routing"]["engine"] == "facts"
        assert asked["facts"]["value"] == FIN_VALUE and asked["facts"]["row_count"] == 3
        assert {r["doc_id"] for r in asked["facts"]["rows"]} == {"finance/budget.csv"} and "60000" in asked["answer"]
        semantic = client.post("/ask", json={"query": "How often is the alpha valve inspected?"}, headers=as_hr).json()
        assert semantic["routing"]["route"] == "semantic" and semantic["routing"]["engine"] == "extractive"
        assert semantic["facts"] is None
        across = client.post("/ask", json={"query": FIN_Q}, headers=as_hr).json()
        assert across["routing"]["route"] != "aggregation" and not leaks(json.dumps(across["facts"]), FIN_SECRETS)
        assert not leaks(across["answer"] + across["routing"]["reason"], FIN_SECRETS)

        facts = client.post("/facts", json={"question": HR_Q}, headers=as_hr)
        assert facts.status_code == 200 and facts.json()["value"] == HR_VALUE
        refused = client.post("/facts", json={"question": HR_Q}, headers=as_fin)
        assert refused.status_code == 404 and not leaks(refused.json()["detail"], HR_SECRETS)
        table = facts.json()["intent"]["table"]
        bad = {"operation": "sum", "table": table, "columns": ["salery"]}
        unknown = client.post("/facts", json={"intent": bad}, headers=as_hr)
        assert unknown.status_code == 404 and "salary_eur" in unknown.json()["detail"]
        both = client.post("/facts", json={"question": HR_Q, "intent": bad}, headers=as_hr)
        assert both.status_code == 404 and "exactly one" in both.json()["detail"]
        schema = client.get("/openapi.json").json()["components"]["schemas"]
        assert "aggregation" in schema["RoutingOut"]["properties"]["route"]["description"]
        assert schema["FactsOut"]["properties"]["rows"]["description"]


def test_the_cli_prints_the_route_and_facts(plant: TwoGroups) -> None:
    env = plant.cli_env()
    runner = CliRunner()
    asked = runner.invoke(main, ["ask", FIN_Q, "--as", "finance-app"], env=env)
    assert asked.exit_code == 0, asked.output
    assert "(route: aggregation, answered by facts:" in asked.output and "PUMPS: 60000" in asked.output
    assert "plant/finance/budget.csv [budget] row 1: PUMPS,maintenance,48000" in asked.output
    as_json = runner.invoke(main, ["facts", HR_Q, "--as", "hr-app", "--json"], env=env)
    assert as_json.exit_code == 0 and json.loads(as_json.output)["value"] == HR_VALUE
    refused = runner.invoke(main, ["facts", HR_Q, "--as", "finance-app"], env=env)
    assert refused.exit_code != 0 and not leaks(refused.output, HR_SECRETS)


def test_the_eval_reports_router_and_aggregation_figures(plant: TwoGroups) -> None:
    evaluated = plant.stack.materialization(plant.stack.results["plant"], "eval_report")
    assert evaluated["plant/routing/aggregation_exact_match"] == 1.0
    assert evaluated["plant/routing/router_accuracy"] == 1.0


def test_a_retrieval_first_hybrid_through_the_engine_the_api_and_the_cli(plant: TwoGroups) -> None:
    """The review names PUMPS only: the total is over PUMPS rows (60000), not the whole budget (69000). A
    caller of the other group reads neither the review nor the budget: no route over them, nothing leaks."""
    config = ServingConfig(keys_file=plant.keys_file, rate_limit="off")
    with TestClient(create_app(plant.settings, config=config)) as client:
        as_fin = {"Authorization": f"Bearer {plant.finance_key}"}
        as_hr = {"Authorization": f"Bearer {plant.hr_key}"}
        asked = client.post("/ask", json={"query": REVERSE_Q}, headers=as_fin).json()
        routing = asked["routing"]
        assert (routing["route"], routing["direction"], routing["engine"]) == (
            "hybrid",
            "retrieval_first",
            "retrieval+facts",
        )
        assert "finance/review.md" in routing["reason"] and "PUMPS" in routing["reason"]
        assert asked["facts"]["value"] == 60000 and asked["facts"]["row_count"] == 2
        assert {r["doc_id"] for r in asked["facts"]["rows"]} == {"finance/budget.csv"}
        assert [c["doc_id"] for c in asked["citations"]] == ["finance/review.md"]
        assert "PUMPS cost centre" in asked["citations"][0]["quote"] and "60000" in asked["answer"]
        other = client.post("/ask", json={"query": REVERSE_Q}, headers=as_hr).json()
        assert other["routing"]["direction"] != "retrieval_first" and other["facts"] is None
        assert not leaks(json.dumps(other), FIN_SECRETS)
    runner = CliRunner()
    printed = runner.invoke(main, ["ask", REVERSE_Q, "--as", "finance-app"], env=plant.cli_env())
    assert printed.exit_code == 0, printed.output
    assert "(route: hybrid, answered by retrieval+facts:" in printed.output and "60000" in printed.output
    as_json = runner.invoke(main, ["ask", REVERSE_Q, "--as", "finance-app", "--json"], env=plant.cli_env())
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.output)["routing"]["direction"] == "retrieval_first"


def test_search_ranks_a_routed_questions_facts_sources_first_for_the_callers_groups(plant: TwoGroups) -> None:
    """An aggregation's table, or the documents a metadata filter counts, come first in search, each
    saying why; a caller of another group gets neither, and a semantic question keeps its ranking."""
    index = PublishedIndex.from_settings(plant.settings)
    try:
        engine = index.engine()
        hr, finance = engine.scoped(Access.member("hr", ["hr"])), engine.scoped(Access.member("fin", ["finance"]))
        hits = finance.search(FIN_Q, 3)
        assert hits[0].doc_id == "finance/budget.csv" and "aggregation route" in hits[0].placed
        assert "finance/budget.csv" in hits[0].placed and not any(h.placed for h in hits[1:])
        assert hit_from(1, hits[0]).placed == hits[0].placed
        explained = finance.explain(FIN_Q, 3)
        assert explained[0].position == 1 and explained[0].candidate.doc_id == "finance/budget.csv"
        assert explained_from(explained[0]).placed == hits[0].placed
        counted = "How many CSV files are there?"
        first = lambda found: {h.doc_id for h in found if h.placed}  # noqa: E731
        assert first(engine.search(counted, 5)) == {"finance/budget.csv", "hr/salary-bands.csv"}
        assert first(finance.search(counted, 5)) == {"finance/budget.csv"}
        assert first(hr.search(counted, 5)) == {"hr/salary-bands.csv"}
        assert [h.doc_id for h in hr.search(counted, 5)][:1] == ["hr/salary-bands.csv"]
        assert not any(h.doc_id.startswith("finance/") for h in hr.search(FIN_Q, 5))
        # a source the fusion did not return is read by its first chunk, as the caller's groups admit
        fetched = engine.facts.sources_first(counted, [], engine.access, None, engine.retriever)
        assert {(h.doc_id, h.chunk_id.split("#")[-1]) for h in fetched} == {
            ("finance/budget.csv", "0"),
            ("hr/salary-bands.csv", "0"),
        }
        assert [h.doc_id for h in engine.facts.sources_first(counted, [], finance.access, None, finance.retriever)] == [
            "finance/budget.csv"
        ]
        # a view narrowed to some documents (the agent's scoped step) gets no source from outside them
        narrowed = engine.scoped(engine.access)
        narrowed.retriever.where = {"doc_id": ["guides/valves.md"]}
        assert {h.doc_id for h in narrowed.search(counted, 5)} <= {"guides/valves.md"}
        semantic = engine.search("How often is the alpha valve inspected?", 3)
        assert semantic[0].doc_id == "guides/valves.md" and not any(h.placed for h in semantic)
        # dense and BM25 alone stay the plain lists the eval compares hybrid with
        modes = engine.search_modes(FIN_Q, 3, None, ("dense", "sparse", "hybrid"))
        assert modes["hybrid"][0].placed and not any(h.placed for m in ("dense", "sparse") for h in modes[m])
    finally:
        index.close()
