"""Query redaction, the answer audit (including fail-closed) and the masked audit endpoint, through
the real app on a real index. Claude is the only stand-in: it is scripted to leak personal data."""

from __future__ import annotations

import logging
from pathlib import Path

import dagster as dg
import pytest
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline.answering.answer import GENERATE_SYSTEM
from strata_pipeline.resources import AnthropicResource
from strata_pipeline_tests.conftest import make_settings, run_partition

DOCS = {
    "team/rota.md": "# Rota\n\nThe early shift starts at 06:00. Contact Maria Fernandes at "
    "maria.fernandes@corp.example or +1 415-555-0134 about swaps. Questions go to support@corp.example.\n",
    "team/breaks.txt": "Breaks last 30 minutes and are taken in the canteen on level two, every working day.\n",
    # Ingestion masks the heading's "Valencia" (too little context) but keeps the town in the body.
    "team/sites.md": "# Valencia depot\n\nThe depot in Valencia, Spain, opens at 07:00 on weekdays.\n",
}


class LeakyClaude(AnthropicResource):
    """Answers as a careless model might: with personal data no document in the index still holds."""

    # (an e-mail address no passage holds would be withheld by output validation before the audit)
    reply: str = "Ask Jonas Weber (phone +49 30 90182044) about the early shift [P1]."

    def complete(self, system: str, user: str) -> str:
        assert system == GENERATE_SYSTEM
        return self.reply


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("privacy")
    for rel, text in DOCS.items():
        path = root / "corpus" / "ops" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    settings = make_settings(root / "home", root / "corpus")
    assert run_partition(settings, dg.DagsterInstance.ephemeral(), "ops").success
    return settings


def test_query_is_redacted_before_it_is_embedded_or_logged(settings, caplog) -> None:
    with TestClient(create_app(settings)) as client, caplog.at_level(logging.INFO, logger="strata.serving"):
        body = client.post("/search", json={"query": "When does maria.fernandes@corp.example start her shift?"}).json()
    assert body["query"] == "When does [EMAIL_1] start her shift?" and body["query_redactions"] == 1
    assert "maria.fernandes" not in caplog.text and "[EMAIL_1]" in caplog.text
    assert body["hits"][0]["doc_id"] == "team/rota.md"
    assert all("maria" not in h["text"].lower() for h in body["hits"])  # the index itself is redacted


def test_answer_audit_redacts_new_personal_data_and_says_so(settings) -> None:
    with TestClient(create_app(settings, {"llm": LeakyClaude(api_key="test")})) as client:
        body = client.post("/ask", json={"query": "Who should I ask about the early shift?"}).json()
    assert body["mode"] == "llm" and not body["abstained"]
    assert "Jonas" not in body["answer"] and "90182044" not in body["answer"]
    assert "[PERSON_1]" in body["answer"] and "[PHONE_1]" in body["answer"]
    assert body["redactions"] == 2


def test_answer_is_withheld_when_the_audit_itself_fails(settings) -> None:
    # spaCy refuses texts over its max_length (1,000,000 characters): the audit cannot run.
    huge = LeakyClaude(api_key="test", reply="Call Jonas Weber [P1]. " + "x" * 1_100_000)
    with TestClient(create_app(settings, {"llm": huge})) as client:
        response = client.post("/ask", json={"query": "Who should I ask about the early shift?"})
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "withheld" and "privacy audit failed" in body["detail"]
    assert "Jonas" not in response.text


def test_audit_endpoint_lists_masked_decisions_and_never_values(settings) -> None:
    with TestClient(create_app(settings)) as client:
        entries = client.get("/audit/team/rota.md").json()
        missing = client.get("/audit/team/nope.md")
        unknown_set = client.get("/audit/team/rota.md", params={"source_set": "ghost"})
    decisions = {(e["entity"], e["decision"], e["placeholder"]) for e in entries}
    assert ("PERSON", "redact", "[PERSON_1]") in decisions
    assert ("EMAIL", "redact", "[EMAIL_1]") in decisions
    assert ("EMAIL", "keep_role_contact", "") in decisions
    assert all(e["source_set"] == "ops" and e["length"] > 0 for e in entries)
    text = Path(settings.corpus_root / "ops" / "team" / "rota.md").read_text()
    raw_values = ["Maria Fernandes", "maria.fernandes@corp.example", "+1 415-555-0134"]
    assert [text[e["start"] : e["start"] + e["length"]] for e in entries if e["decision"] == "redact"] == raw_values
    assert not any(v in str(entries) for v in raw_values)
    assert missing.status_code == 404 and unknown_set.status_code == 404


def test_a_name_the_index_shows_in_clear_stays_in_the_query_and_a_redacted_one_does_not(settings) -> None:
    with TestClient(create_app(settings)) as client:
        place = client.post("/search", json={"query": "When does the Valencia depot open?"}).json()
        person = client.post("/search", json={"query": "When does Maria Fernandes open the Valencia depot?"}).json()
    assert place["query"] == "When does the Valencia depot open?" and place["query_redactions"] == 0
    assert place["hits"][0]["doc_id"] == "team/sites.md"
    # the index holds [PERSON_1] where the rota named her, so her name is still masked in the query
    assert person["query"] == "When does [PERSON_1] open the Valencia depot?" and person["query_redactions"] == 1
