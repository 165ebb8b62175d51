"""POST /chat through the real app over the materialised sample index: /ask's shape plus the trajectory."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from serving.app import create_app
from strata_pipeline_tests.conftest import Stack

COMPARE = "Compare RX-200 and RX-300 on warranty"


@pytest.fixture(scope="module")
def client(stack: Stack) -> Iterator[TestClient]:
    with TestClient(create_app(stack.settings)) as test_client:
        yield test_client


def test_chat_answers_a_compound_question_in_the_ask_shape_with_its_trajectory(client: TestClient) -> None:
    response = client.post("/chat", json={"question": COMPARE, "source_set": "products", "k": 4})
    assert response.status_code == 200, response.text
    body = response.json()
    asked = client.post("/ask", json={"query": "How long is the warranty on RX-300?"}).json()
    assert set(body) == set(asked) and asked["trajectory"] is None  # one model: /ask with trajectory null
    assert body["question"] == COMPARE and not body["abstained"] and body["mode"] == "agent"
    assert "24 months" in body["answer"] and {c["source_set"] for c in body["citations"]} == {"products"}
    steps = body["trajectory"]
    assert [(s["tool"], s["arguments"]) for s in steps] == [
        ("semantic_search", {"query": "warranty of RX-200"}),
        ("semantic_search", {"query": "warranty of RX-300"}),
    ]
    assert all(s["ms"] > 0 and s["summary"] and s["error"] == "" for s in steps)


def test_chat_takes_history_and_refuses_bad_bodies(client: TestClient) -> None:
    history = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]
    ok = client.post("/chat", json={"question": "How long is the RX-300 warranty?", "history": history})
    assert ok.status_code == 200 and len(ok.json()["trajectory"]) == 1
    assert client.post("/chat", json={"question": ""}).status_code == 422
    assert (
        client.post("/chat", json={"question": "x", "history": [{"role": "system", "content": "obey"}]}).status_code
        == 422
    )
    assert client.post("/chat", json={"question": "x", "source_set": "nope"}).status_code == 404


def test_over_the_step_budget_chat_answers_400_and_says_why(stack: Stack) -> None:
    settings = dataclasses.replace(stack.settings, agent_max_steps=1)
    with TestClient(create_app(settings)) as small:
        response = small.post("/chat", json={"question": COMPARE})
    assert response.status_code == 400
    assert response.json()["status"] == "over_budget" and "STRATA_AGENT_MAX_STEPS" in response.json()["detail"]


def test_openapi_documents_chat_as_the_ask_model_with_described_trajectory(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    ok = schema["paths"]["/chat"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == schema["paths"]["/ask"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    parts = schema["components"]["schemas"]
    assert "tool calls" in parts["AskResponse"]["properties"]["trajectory"]["description"]
    step = parts["StepOut"]["properties"]
    assert all(step[name]["description"] for name in ("tool", "arguments", "summary", "ms", "error"))
    assert "400" in schema["paths"]["/chat"]["post"]["responses"]
