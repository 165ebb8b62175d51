"""Documents in two groups, materialised through the real graph, and every surface asked across them:
the engine directly, the API with two keys (search, explain, ask, audit, health), the CLI with --as,
and the eval's own leak count. Nothing of one group may reach a caller of the other."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from serving.app import create_app
from serving.config import ServingConfig
from strata_pipeline.access.groups import Access
from strata_pipeline.cli import main
from strata_pipeline.enrichment.sidecar import connect, document
from strata_pipeline.indexing.engine import EdgeStore
from strata_pipeline.indexing.versions import current_version
from strata_pipeline.query_engine import NoSuchDocument
from strata_pipeline.serving_index import PublishedIndex
from strata_pipeline_tests.access.two_groups import TwoGroups, two_groups_published
from strata_pipeline_tests.plant import VALVES
from strata_pipeline_tests.rate_window import start_early_in_the_window

HR_CODE, FIN_CODE, SHARED_CODE = "HRX-4412", "FIN-9923", "OVT-5150"
DOCS = {
    "guides/valves.md": VALVES,
    "hr/bonus.md": f"# Night shift bonus\n\nNight shift staff receive a bonus of 14 percent, payroll code {HR_CODE}.\n",
    "finance/budget.md": f"# Pump budget\n\nThe pump maintenance budget for 2026 is 48,000 euros, code {FIN_CODE}.\n",
    "shared/overtime.md": f"# Overtime\n\nOvertime for the night shift is approved each quarter under {SHARED_CODE}.\n",
}
GROUPS = {
    "guides/valves.md": ["public"],
    "hr/bonus.md": ["hr"],
    "finance/budget.md": ["finance"],
    "shared/overtime.md": ["finance", "hr"],
}
ACCESS_RULES = """access:
  - name: hr-only
    dirs: [hr]
    groups: [hr]
  - name: finance-only
    dirs: [finance]
    groups: [finance]
  - name: hr-and-finance
    dirs: [shared]
    groups: [hr, finance]
"""
HR_Q = "What bonus do night shift staff receive?"
FIN_Q = "What is the pump maintenance budget for 2026?"
GOLDEN = f"""source_set: plant
k: 3
questions:
  - id: a-1
    question: How often is the alpha valve inspected?
    relevant: [guides/valves.md]
  - id: a-2
    question: {HR_Q}
    relevant: [hr/bonus.md]
  - id: a-3
    question: {FIN_Q}
    relevant: [finance/budget.md]
"""
QUESTIONS = [HR_Q, FIN_Q, "How is overtime approved?", "payroll code", f"budget code {FIN_CODE}", HR_CODE]


def answered_text(body: dict) -> str:
    """A response without the caller's own question, which it echoes (and which may name anything)."""
    return json.dumps({key: value for key, value in body.items() if key not in ("query", "question")})


HR_SEES = {"guides/valves.md", "hr/bonus.md", "shared/overtime.md"}
FIN_SEES = {"guides/valves.md", "finance/budget.md", "shared/overtime.md"}


@pytest.fixture(scope="module")
def two_groups(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoGroups]:
    with two_groups_published(tmp_path_factory.mktemp("access"), DOCS, GOLDEN, ACCESS_RULES) as published:
        yield published


def test_groups_are_recorded_on_every_point_and_sidecar_row(two_groups: TwoGroups) -> None:
    version = current_version(two_groups.settings.index_dir, "plant")
    with EdgeStore.open(version.store_path) as store:
        points = [hit.payload for hit in store.scroll(["doc_id", "groups"])]
    assert points and {p["doc_id"] for p in points} == set(DOCS)
    assert all(p["groups"] == GROUPS[p["doc_id"]] for p in points)
    with closing(connect(version.sidecar_path)) as db:
        budget, valves = document(db, "finance/budget.md"), document(db, "guides/valves.md")
    assert (budget["groups"], budget["access_rule"]) == (["finance"], "finance-only")
    assert (valves["groups"], valves["access_rule"]) == (["public"], "default-public")
    classified = two_groups.stack.materialization(two_groups.stack.results["plant"], "classified_docs")
    assert "| finance, hr | hr-and-finance | 1 |" in classified["access_groups"]


def test_the_engine_shows_each_caller_only_its_groups(two_groups: TwoGroups) -> None:
    index = PublishedIndex.from_settings(two_groups.settings)
    try:
        engine = index.engine()
        hr, finance = engine.scoped(Access.member("hr", ["hr"])), engine.scoped(Access.member("fin", ["finance"]))
        nobody = engine.scoped(Access("nobody", frozenset({"no-such-group"})))
        assert engine.search(FIN_Q, 10)[0].doc_id == "finance/budget.md"  # the operator reads every group
        assert hr.search(HR_Q, 10)[0].doc_id == "hr/bonus.md"
        for question in QUESTIONS:
            for view, sees in ((hr, HR_SEES), (finance, FIN_SEES)):
                assert {c.doc_id for c in view.search(question, 10)} <= sees
                assert {e.candidate.doc_id for e in view.explain(question, 10)} <= sees
                for hits in view.search_modes(question, 10).values():
                    assert {c.doc_id for c in hits} <= sees
            assert nobody.search(question, 10) == []
        answer = hr.ask(FIN_Q, 10)
        assert FIN_CODE not in answer.text and "48,000" not in answer.text
        assert {c.doc_id for c in answer.citations} <= HR_SEES
        # candidates handed back by a caller are checked again: the operator's hits do not pass
        assert {c.doc_id for c in hr.ask(FIN_Q, 10, candidates=engine.search(FIN_Q, 10)).citations} <= HR_SEES
        assert hr.visible_doc_ids("plant") == HR_SEES and engine.visible_doc_ids("plant") == set(DOCS)
        assert finance.audit("finance/budget.md")[0] == "plant"
        with pytest.raises(NoSuchDocument) as hidden:
            hr.audit("finance/budget.md")
        with pytest.raises(NoSuchDocument) as missing:
            hr.audit("finance/nothing.md")
        assert str(hidden.value) == str(missing.value)  # the error says nothing about the other group
    finally:
        index.close()


def test_the_api_needs_a_key_and_serves_each_key_only_its_groups(two_groups: TwoGroups) -> None:
    config = ServingConfig(keys_file=two_groups.keys_file, rate_limit="off")
    with TestClient(create_app(two_groups.settings, config=config)) as client:
        as_hr = {"Authorization": f"Bearer {two_groups.hr_key}"}
        as_fin = {"Authorization": f"Bearer {two_groups.finance_key}"}
        for headers in ({}, {"Authorization": "Bearer strata_not-a-key"}, {"Authorization": two_groups.hr_key}):
            assert client.post("/search", json={"query": FIN_Q}, headers=headers).status_code == 401
            assert client.post("/ask", json={"query": FIN_Q}, headers=headers).status_code == 401
            assert client.get("/audit/finance/budget.md", headers=headers).status_code == 401
        assert client.get("/ready").status_code == 200  # probes need no key
        schema = client.get("/openapi.json").json()
        assert schema["components"]["securitySchemes"]["apiKey"]["scheme"] == "bearer"
        assert schema["paths"]["/search"]["post"]["security"] == [{"apiKey": []}]
        assert "security" not in schema["paths"]["/ready"]["get"]
        health = client.get("/health").json()
        assert health["status"] == "ok" and health["points"] is None and health["source_sets"] is None

        for question in QUESTIONS:
            for headers, sees, foreign in ((as_hr, HR_SEES, FIN_CODE), (as_fin, FIN_SEES, HR_CODE)):
                found = client.post("/search", json={"query": question, "k": 10, "explain": True}, headers=headers)
                assert found.status_code == 200
                body = found.json()
                assert {h["doc_id"] for h in body["hits"]} <= sees
                assert {c["doc_id"] for c in body["candidates"]} <= sees
                asked = client.post("/ask", json={"query": question, "k": 10}, headers=headers)
                assert asked.status_code == 200 and {c["doc_id"] for c in asked.json()["citations"]} <= sees
                assert foreign not in answered_text(body) and foreign not in answered_text(asked.json())
        fin_hits = client.post("/search", json={"query": FIN_Q}, headers=as_fin).json()["hits"]
        assert fin_hits[0]["doc_id"] == "finance/budget.md"

        hidden = client.get("/audit/finance/budget.md", headers=as_hr)
        missing = client.get("/audit/finance/budgets.md", headers=as_hr)
        assert hidden.status_code == missing.status_code == 404
        assert hidden.json()["detail"].replace("budget.md", "X") == missing.json()["detail"].replace("budgets.md", "X")
        assert client.get("/audit/finance/budget.md", headers=as_fin).status_code == 200


def test_a_key_with_its_own_rate_limit_gets_429_and_others_are_not_counted(two_groups: TwoGroups) -> None:
    config = ServingConfig(keys_file=two_groups.keys_file, rate_limit="100/minute")
    with TestClient(create_app(two_groups.settings, config=config)) as client:
        slow = {"Authorization": f"Bearer {two_groups.limited_key}"}
        start_early_in_the_window()
        for _ in range(2):
            assert client.post("/search", json={"query": HR_Q, "k": 1}, headers=slow).status_code == 200
        refused = client.post("/search", json={"query": HR_Q, "k": 1}, headers=slow)
        assert refused.status_code == 429 and "2 per 1 minute per key" in refused.json()["detail"]
        hr = {"Authorization": f"Bearer {two_groups.hr_key}"}
        assert client.post("/search", json={"query": HR_Q, "k": 1}, headers=hr).status_code == 200


def test_the_cli_searches_and_answers_as_a_key_holder(two_groups: TwoGroups) -> None:
    env = two_groups.cli_env()

    def run(*args: str) -> dict:
        result = CliRunner().invoke(main, [*args, "--json", "--k", "10"], env=env)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    for question in QUESTIONS:
        assert {h["doc_id"] for h in run("search", question, "--as", "hr-app")["hits"]} <= HR_SEES
        answered = run("ask", question, "--as", "hr-app")
        assert {c["doc_id"] for c in answered["citations"]} <= HR_SEES and FIN_CODE not in answered_text(answered)
    assert run("search", FIN_Q, "--as", "finance-app")["hits"][0]["doc_id"] == "finance/budget.md"
    assert run("search", FIN_Q)["hits"][0]["doc_id"] == "finance/budget.md"  # the local operator: every group
    unknown = CliRunner().invoke(main, ["search", FIN_Q, "--as", "ghost"], env=env)
    assert unknown.exit_code != 0 and "No key named 'ghost'" in unknown.output


def test_the_eval_reports_zero_cross_group_leaks(two_groups: TwoGroups) -> None:
    evaluated = two_groups.stack.materialization(two_groups.stack.results["plant"], "eval_report")
    assert evaluated["plant/access/cross_group_leaks"] == 0
    assert evaluated["plant/access/callers_probed"] == 4  # finance, hr, public and a group no document is in
